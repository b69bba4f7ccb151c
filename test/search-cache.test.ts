/**
 * The search cache (src/search/search-cache.ts) keeps answers only while the searchable data
 * stays the same: any change to companies or reports, by any path, shows on the next request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeClaimants, makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { SearchCache } from '../src/search/search-cache.ts';
import { bumpDataVersion, readDataVersion } from '../src/db/data-version.repository.ts';
import type { SearchBody } from './helpers/bodies.ts';
import { setReportStatus } from './helpers/use-cases.ts';

for (const engine of ENGINES) {
  describe(`search cache [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-CACHE', dailyLimit: 1000 });
      await makeClaimants(database.engine.db, t.clock);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const names = async (q: string) => {
      const res = await search(t.app, key, `q=${encodeURIComponent(q)}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json<SearchBody>().results.map((r) => `${r.company_name}:${r.report_count}`);
    };

    test('a report status change, an import and a plain SQL update each show on the next request', async () => {
      await makeCompanies(database.engine, t.clock, [
        { company_name: 'Cachetest Lojistik A.Ş.', reports: [makeReport({ ref: 'CACHE-1' }), makeReport({ ref: 'CACHE-2' })] },
      ]);
      assert.deepEqual(await names('cachetest'), ['Cachetest Lojistik A.Ş.:2']);
      assert.deepEqual(await names('cachetest'), ['Cachetest Lojistik A.Ş.:2'], 'the same answer twice');

      await setReportStatus({ db: database.engine.db, clock: t.clock }, { kind: 'cli', user: 'test' }, { idOrRef: 'CACHE-1', to: 'withdrawn' });
      assert.deepEqual(await names('cachetest'), ['Cachetest Lojistik A.Ş.:1'], 'a withdrawn report is gone at once');

      await makeCompanies(database.engine, t.clock, [{ company_name: 'Cachetest Gıda A.Ş.', reports: [makeReport()] }]);
      assert.deepEqual((await names('cachetest')).sort(), ['Cachetest Gıda A.Ş.:1', 'Cachetest Lojistik A.Ş.:1'], 'an imported company shows at once');

      await sql`UPDATE reports SET status = 'deactivated' WHERE ref = 'CACHE-2'`.execute(database.engine.db);
      assert.deepEqual(await names('cachetest'), ['Cachetest Gıda A.Ş.:1'], 'a change made outside the service shows at once');

      await sql`UPDATE companies SET visible_report_count = 0 WHERE company_name = 'Cachetest Gıda A.Ş.'`.execute(database.engine.db);
      assert.deepEqual(await names('cachetest'), [], 'a change to companies shows at once');
    });

    test('an answer is computed once per data version', async () => {
      const { db } = database.engine;
      const cache = new SearchCache<number>(10);
      let computed = 0;
      const get = (k: string) => cache.get(db, k, () => Promise.resolve(++computed));
      assert.equal(await get('a'), 1);
      assert.equal(await get('a'), 1);
      assert.equal(await get('b'), 2);
      const version = await readDataVersion(db);
      await bumpDataVersion(db);
      assert.equal(await readDataVersion(db), version + 1);
      assert.equal(await get('a'), 3, 'recomputed after the version moved');
      assert.equal(await get('a'), 3);
    });

    test('a version the caller read (with the key) is used instead of reading it again', async () => {
      const { db } = database.engine;
      const cache = new SearchCache<number>(10);
      let computed = 0;
      const get = (version: number) => cache.get(db, 'k', () => Promise.resolve(++computed), version);
      const version = await readDataVersion(db);
      assert.equal(await get(version), 1);
      assert.equal(await get(version), 1, 'the same version: from the cache');
      await bumpDataVersion(db);
      assert.equal(await get(version + 1), 2, 'the version the caller read moved: recomputed');
      assert.equal(await cache.get(db, 'k', () => Promise.resolve(++computed)), 2, 'the version read from the database is the same one');
    });

    test('the cache keeps at most its size, dropping the least recently used', async () => {
      const cache = new SearchCache<string>(2);
      const computed: string[] = [];
      const get = (k: string) => cache.get(database.engine.db, k, () => Promise.resolve((computed.push(k), k)));
      await get('a');
      await get('b');
      await get('a'); // a is now the most recent
      await get('c'); // drops b
      await get('a');
      await get('b');
      assert.deepEqual(computed, ['a', 'b', 'c', 'b']);
    });

    test('size 0 turns the cache off', async () => {
      const cache = new SearchCache<number>(0);
      let computed = 0;
      await cache.get(database.engine.db, 'a', () => Promise.resolve(++computed));
      await cache.get(database.engine.db, 'a', () => Promise.resolve(++computed));
      assert.equal(computed, 2);
    });
  });
}
