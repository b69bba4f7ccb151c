/**
 * The import writes text exactly as given, whatever the engine's bulk path (PostgreSQL: COPY's
 * text format, where a backslash and `\N` mean something; the import refuses control characters):
 * a search answers the same characters the file held. Over HTTP, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import type { NameSearchBody } from './helpers/bodies.ts';
import { makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';

const AWKWARD = 'a\\b \\N \\\\t \\n \\r end\\';

for (const engine of ENGINES) {
  describe(`imported text stays exact [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-1', dailyLimit: 1000 });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    for (const load of ['into an empty database', 'into one that holds companies']) {
      test(`backslashes and \\N, ${load}`, async () => {
        const name = `Kovaltex ${load.length} ${AWKWARD} Ltd. Şti.`;
        await makeCompanies(database.engine, t.clock, [{ company_name: name, city: AWKWARD, reports: [makeReport({ description: AWKWARD })] }]);
        const res = await search(t.app, key, `q=kovaltex%20${load.length}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json<NameSearchBody>();
        assert.equal(body.result_count, 1);
        assert.equal(body.results[0]!.company_name, name);
        assert.equal(body.results[0]!.city, AWKWARD);
        assert.equal(body.results[0]!.reports[0]!.description, AWKWARD);
      });
    }
  });
}
