/**
 * On PostgreSQL the statements compiled once (db/prepared.ts) are kept prepared on each
 * connection (db/connect.ts): they must be reused, not prepared again, and keep answering after
 * a migration adds a column to the tables they read while servers run.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeClaimants, makeCompanies } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { openEngine } from '../src/db/connect.ts';
import { listActiveReports } from '../src/reports/reports.repository.ts';
import { findCompaniesById, findCompaniesByName, findCompaniesByTaxId } from '../src/companies/companies.repository.ts';
import { seamFor } from '../src/db/dialect-seam.ts';
import { KEEP_PREPARED, preparedQuery } from '../src/db/prepared.ts';

for (const engine of ENGINES) {
  describe(`statements kept prepared [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      const clock = fixedClock(Date.UTC(2026, 5, 1));
      await makeClaimants(database.engine.db, clock);
      await makeCompanies(database.engine, clock, [{ company_name: 'Kaya Lojistik A.Ş.', tax_id: '1234567890' }]);
    });
    after(async () => {
      await database?.drop();
    });

    test('answer the same before and after a migration adds columns to the tables they read', async () => {
      // One connection: the statements are prepared on it, once each.
      const single = openEngine(database.url, { poolSize: 1 });
      after(() => single.close());
      const db = single.db;
      const find = () => findCompaniesByTaxId(db, [{ taxId: '1234567890', country: 'TR' }], 10);
      const [company] = await find();
      assert.equal(company?.company_name, 'Kaya Lojistik A.Ş.');
      const reports = await listActiveReports(db, [company.id]);
      assert.ok(reports.length > 0);
      // A name with few candidates: their ranking is kept prepared on PostgreSQL (companies.repository.ts).
      const byName = () =>
        findCompaniesByName(db, seamFor(engine.name), { indexedWords: ['kaya', 'lojistik'], otherWords: [], core: 'kaya lojistik', country: null, limit: 10 });
      assert.deepEqual(await byName(), [company]);
      const byId = () => findCompaniesById(db, seamFor(engine.name), [company.id, 999_999]);
      assert.deepEqual(await byId(), [company]);
      await sql`ALTER TABLE companies ADD COLUMN later_note text`.execute(db);
      await sql`ALTER TABLE reports ADD COLUMN later_note text`.execute(db);
      assert.deepEqual(await find(), [company]);
      assert.deepEqual(await listActiveReports(db, [company.id]), reports);
      assert.deepEqual(await byName(), [company]);
      assert.deepEqual(await byId(), [company]);
      if (engine.name === 'postgres') {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'rlk_%'`.execute(db);
        assert.ok(rows[0]!.n >= 3, String(rows[0]!.n));
      }
    });

    test("the index of names' shown rows by id: kept prepared, one text whatever the count (issue 28)", async () => {
      const single = openEngine(database.url, { poolSize: 1 });
      after(() => single.close());
      const texts: string[] = [];
      const executor = single.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
      const run = executor.executeQuery.bind(executor);
      executor.executeQuery = (query, id) => {
        texts.push(query.sql);
        return run(query, id);
      };
      const [company] = await findCompaniesByTaxId(single.db, [{ taxId: '1234567890', country: 'TR' }], 10);
      texts.length = 0;
      const seam = seamFor(engine.name);
      assert.deepEqual(await findCompaniesById(single.db, seam, [company!.id]), [company]);
      assert.deepEqual(await findCompaniesById(single.db, seam, [7, company!.id, 8]), [company]);
      assert.equal(texts.length, 2);
      assert.ok(texts[0]!.startsWith(KEEP_PREPARED), texts[0]);
      assert.equal(texts[1], texts[0]);
    });

    test('return the same row objects as a statement run once: keys in order, values and their types, a repeated name', async () => {
      // Kept statements are read as arrays and made into objects by the server (db/connect.ts);
      // the same text without the mark is read by the driver's own objects on PostgreSQL.
      const text = `SELECT c.id, c.company_name, c.visible_report_count, c.updated_at, NULL AS absent, 'ışık' AS text, 1 AS twice, 2 AS twice
        FROM companies c ORDER BY c.id`;
      const kept = await sql.raw(KEEP_PREPARED + text).execute(database.engine.db);
      const once = await sql.raw(text).execute(database.engine.db);
      assert.equal(kept.rows.length, 1);
      assert.deepStrictEqual(kept.rows, once.rows);
      assert.deepEqual(Object.keys(kept.rows[0]!), ['id', 'company_name', 'visible_report_count', 'updated_at', 'absent', 'text', 'twice']);
      const row = kept.rows[0] as Record<string, unknown>;
      assert.equal(row.company_name, 'Kaya Lojistik A.Ş.');
      assert.equal(typeof row.updated_at, 'number');
      assert.equal(row.twice, 2);
      // Run again, it is the kept statement's plan and the same builder.
      assert.deepStrictEqual((await sql.raw(KEEP_PREPARED + text).execute(database.engine.db)).rows, once.rows);
      if (engine.name === 'postgres') {
        // pg's rows hold `__proto__` as a property of their own, whatever its value.
        for (const proto of [`'{"a": 1}'::json`, 'NULL::json', `'x'`]) {
          const odd = `SELECT ${proto} AS "__proto__", 2 AS x, 3 AS "__proto__"`;
          const keptOdd = (await sql.raw(KEEP_PREPARED + odd).execute(database.engine.db)).rows;
          const onceOdd = (await sql.raw(odd).execute(database.engine.db)).rows;
          assert.deepStrictEqual(keptOdd, onceOdd, odd);
          assert.deepEqual(Object.getOwnPropertyNames(keptOdd[0]), ['__proto__', 'x'], odd);
          assert.equal(Object.getPrototypeOf(keptOdd[0]), Object.getPrototypeOf(onceOdd[0]), odd);
        }
      }
    });

    if (engine.name === 'postgres') {
      test('run with their generic plan, planned once per connection; unnamed statements are planned for their values (issue 28)', async () => {
        // One connection, so that pg_prepared_statements and the settings read are the statements'.
        const single = openEngine(database.url, { poolSize: 1 });
        after(() => single.close());
        const db = single.db;
        // An array parameter, as in the key's look-up: under `auto` PostgreSQL plans such a
        // statement afresh on every run (its generic plan counts ten elements, the run one).
        const byTaxIds = preparedQuery((d, p) =>
          d
            .selectFrom('companies')
            .select('company_name')
            .where(sql<boolean>`tax_id_norm = ANY(${p(0)}::text[])`),
        );
        const unnamedMode = async () =>
          (await sql<{ mode: string }>`SELECT current_setting('plan_cache_mode') AS mode, ${1}::int AS one`.execute(db)).rows[0]!.mode;
        const keptPlans = async () =>
          (
            await sql<{ generic: number; custom: number }>`SELECT generic_plans::int AS generic, custom_plans::int AS custom
              FROM pg_prepared_statements WHERE statement LIKE '%tax_id_norm = ANY%' AND name LIKE 'rlk_%'`.execute(db)
          ).rows;
        for (let i = 0; i < 8; i++) assert.deepEqual(await byTaxIds(db, [['1234567890']]), [{ company_name: 'Kaya Lojistik A.Ş.' }]);
        assert.deepEqual(await keptPlans(), [{ generic: 8, custom: 0 }]);
        // An unnamed statement with values between two kept ones: planned for its values.
        assert.equal(await unnamedMode(), 'auto');
        await byTaxIds(db, [['1234567890']]);
        assert.equal(await unnamedMode(), 'auto');
        // A rollback undoes the setting made in its transaction: the next kept statement sets it again.
        await assert.rejects(
          db.transaction().execute(async (trx) => {
            await byTaxIds(trx, [['1234567890']]);
            throw new Error('rolled back');
          }),
          /rolled back/,
        );
        await byTaxIds(db, [['1234567890']]);
        await db.transaction().execute(async (trx) => {
          await byTaxIds(trx, [['1234567890']]);
          await sql`SAVEPOINT s`.execute(trx);
          await byTaxIds(trx, [['1234567890']]);
          await sql`ROLLBACK TO SAVEPOINT s`.execute(trx);
          await byTaxIds(trx, [['1234567890']]);
        });
        assert.deepEqual(await keptPlans(), [{ generic: 14, custom: 0 }]);
        assert.equal(await unnamedMode(), 'auto');
        // A transaction that a failed statement aborted: its COMMIT is a ROLLBACK, which undoes
        // the switch made in it. The next kept statement switches again.
        await sql`BEGIN`.execute(db);
        await byTaxIds(db, [['1234567890']]);
        // Without values: no switch is sent before it.
        await assert.rejects(sql.raw(`SELECT 1 / 0`).execute(db), /division by zero/);
        await sql`COMMIT`.execute(db);
        await byTaxIds(db, [['1234567890']]);
        // The run in the aborted transaction counts too.
        assert.deepEqual(await keptPlans(), [{ generic: 16, custom: 0 }]);
      });

      test('what the server sets on its connections, by the pooler in front of PostgreSQL (RISKLOOKUP_DB_POOLER)', async () => {
        // What a transaction pooler hands the next client is the server connection as it is: a
        // setting made on it outside a transaction would reach that client. A pooler of either
        // mode refuses the timeout as a startup parameter.
        const settings = async (pooler: 'none' | 'session' | 'transaction') => {
          const single = openEngine(database.url, { poolSize: 1, pooler, statementTimeoutMs: 4321 });
          try {
            const byTaxIds = preparedQuery((d, p) =>
              d
                .selectFrom('companies')
                .select('company_name')
                .where(sql<boolean>`tax_id_norm = ANY(${p(0)}::text[])`),
            );
            // The pool's first statement: the timeout is there before it.
            const { rows: first } = await sql<{ timeout: string }>`SELECT current_setting('statement_timeout') AS timeout`.execute(single.db);
            assert.deepEqual(await byTaxIds(single.db, [['1234567890']]), [{ company_name: 'Kaya Lojistik A.Ş.' }]);
            // A statement without values: the server sends no SET before it.
            const { rows } = await sql<{ mode: string }>`SELECT current_setting('plan_cache_mode') AS mode`.execute(single.db);
            return { mode: rows[0]!.mode, timeout: first[0]!.timeout };
          } finally {
            await single.close();
          }
        };
        // What a connection that sets nothing gets: the server's, the role's or the database's.
        const plain = new pg.Client({ connectionString: database.url });
        await plain.connect();
        const serverTimeout = (await plain.query<{ t: string }>(`SELECT current_setting('statement_timeout') AS t`)).rows[0]!.t;
        await plain.end();
        assert.deepEqual(await settings('none'), { mode: 'force_generic_plan', timeout: '4321ms' });
        assert.deepEqual(await settings('session'), { mode: 'force_generic_plan', timeout: '4321ms' });
        assert.deepEqual(await settings('transaction'), { mode: 'auto', timeout: serverTimeout });
      });
    }
  });
}
