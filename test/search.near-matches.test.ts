/** Near matches over HTTP (D25), on every engine: where `near_matches` is, and what it holds. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import type { NameSearchBody } from './helpers/bodies.ts';
import { makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';

for (const engine of ENGINES) {
  describe(`near matches over HTTP [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    let taxId: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-1', dailyLimit: 1000 });
      const taxIds = await makeCompanies(database.engine, t.clock, [
        { company_name: 'Karadeniz Nakliyat Ltd. Şti.', city: 'Samsun', reports: [makeReport(), makeReport()] },
        { company_name: 'Karadeniz Nakliyat GmbH', country: 'DE', tax_id: 'DE136695976' },
      ]);
      taxId = taxIds[0]!;
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    async function ok(query: string) {
      const res = await search(t.app, key, query);
      assert.equal(res.statusCode, 200, res.body);
      return res.json<NameSearchBody>();
    }

    test('a misspelt name: no result, near_matches names the company with its similarity and no reports', async () => {
      const body = await ok('q=Karadenz%20Nakliyat&country=TR');
      assert.equal(body.result_count, 0);
      assert.deepEqual(body.results, []);
      assert.equal(body.near_matches.length, 1);
      const near = body.near_matches[0]!;
      assert.deepEqual(Object.keys(near), ['company_name', 'tax_id', 'country', 'city', 'threat_level', 'report_count', 'similarity']);
      assert.deepEqual(
        { ...near, similarity: 0 },
        {
          company_name: 'Karadeniz Nakliyat Ltd. Şti.',
          tax_id: taxId,
          country: 'TR',
          city: 'Samsun',
          threat_level: 'normal',
          report_count: 2,
          similarity: 0,
        },
      );
      assert.ok(near.similarity >= 0.7 && near.similarity < 1, String(near.similarity));
      assert.equal(Math.round(near.similarity * 100), near.similarity * 100);
    });

    test('without a country filter both countries; near_matches [] on a hit and on a name nothing is close to', async () => {
      const all = await ok('q=Karadenz%20Nakliyat');
      assert.deepEqual(all.near_matches.map((m) => m.country).sort(), ['DE', 'TR']);
      assert.deepEqual((await ok('q=Karadeniz%20Nakliyat')).near_matches, []);
      assert.deepEqual((await ok('q=Zzyzx%20Qwvbn%20Kargo')).near_matches, []);
    });

    test('a tax-ID search has no near_matches', async () => {
      const body = await ok(`q=${taxId}&type=tax_id&country=TR`);
      assert.equal(body.result_count, 1);
      assert.equal('near_matches' in body, false);
    });
  });
}
