/**
 * Lookups per company and month (D34's disclosure) counted by the searches themselves, on both
 * engines: every audited answer adds one to each company among its results (a cached answer
 * too), nothing for a search that found nothing or near matches only, by Turkey month, and the
 * CLI's searches as well. No member or key is kept with the count.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { runCli } from './helpers/cli.ts';
import { lookupMonthOf } from '../src/disclosure/disclosure-view.ts';
import { startOfTurkeyDay } from '../src/lib/calendar-date.ts';

for (const engine of ENGINES) {
  describe(`lookups per company and month [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    let ids: string[];
    before(async () => {
      database = await engine.create();
      // 2026-11-30 23:59 Turkey time: the last minute of November.
      t = await makeTestApp(database, {}, startOfTurkeyDay('2026-12-01') - 60_000);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-LOOK', dailyLimit: 1000 });
      ids = await makeCompanies(database.engine, t.clock, [
        { company_name: 'Sayım Lojistik A.Ş.' },
        { company_name: 'Sayım Lojistik Gıda Ltd. Şti.' },
        { company_name: 'Başka Ad Tekstil A.Ş.' },
      ]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    /** Counts per tax ID and month, once the audit writer's batch is stored. */
    async function counts(expectedTotal: number) {
      for (let i = 0; ; i++) {
        const rows = await database.engine.db
          .selectFrom('company_lookups')
          .innerJoin('companies', 'companies.id', 'company_lookups.company_id')
          .select(['companies.tax_id_norm as taxId', 'company_lookups.month', 'company_lookups.lookups'])
          .orderBy('companies.tax_id_norm')
          .orderBy('company_lookups.month')
          .execute();
        const total = rows.reduce((n, r) => n + Number(r.lookups), 0);
        if (total >= expectedTotal || i > 100) return rows.map((r) => `${r.taxId} ${r.month} ${Number(r.lookups)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    test('each company among the results of each answer, by Turkey month; not for none or near matches', async () => {
      const [a, b, c] = ids as [string, string, string];
      assert.equal((await search(t.app, key, 'q=sayim%20lojistik')).json<{ result_count: number }>().result_count, 2);
      assert.equal((await search(t.app, key, 'q=sayim%20lojistik')).statusCode, 200, 'the same answer from the cache counts again');
      assert.equal((await search(t.app, key, `q=${c}&type=tax_id&country=TR`)).statusCode, 200);
      assert.equal((await search(t.app, key, 'q=hic%20olmayan%20firma')).json<{ result_count: number }>().result_count, 0);
      assert.equal((await search(t.app, key, 'q=sayim%20lojistikk')).json<{ result_count: number }>().result_count, 0, 'near matches only');
      t.clock.advance(60_000);
      assert.equal((await search(t.app, key, `q=${a}&type=tax_id&country=TR`)).statusCode, 200);
      const rows = await counts(6);
      assert.deepEqual(rows, [`${a} 2026-11 2`, `${a} 2026-12 1`, `${b} 2026-11 2`, `${c} 2026-11 1`].sort());
      const columns = await database.engine.db.selectFrom('company_lookups').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual(Object.keys(columns).sort(), ['company_id', 'lookups', 'month'], 'how many, never who');
    });

    test("the CLI's searches count too", async () => {
      const c = ids[2]!;
      const before = await database.engine.db.selectFrom('company_lookups').select('lookups').where('month', '=', lookupMonthOf(Date.now())).execute();
      const result = await runCli(['search', c, '--type', 'tax_id', '--country', 'TR', '--db', database.url]);
      assert.equal(result.code, 0, result.stderr);
      const after = await database.engine.db.selectFrom('company_lookups').select('lookups').where('month', '=', lookupMonthOf(Date.now())).execute();
      assert.equal(after.reduce((n, r) => n + Number(r.lookups), 0) - before.reduce((n, r) => n + Number(r.lookups), 0), 1);
    });
  });
}
