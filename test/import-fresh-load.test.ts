/**
 * An import into an empty database (a fresh load, db/write-session.ts) takes shortcuts: it looks
 * up only the tax IDs and refs it may have written itself (import/written-filter.ts), builds the
 * deferred indexes, (PostgreSQL) foreign keys and name words once at its end. What a user sees
 * must not change: a company or ref repeated far apart in the file still applies in order, every
 * name is searchable by its words, and the schema afterwards is the schema before, on success and
 * on failure alike.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport, nextVkn } from './helpers/factories.ts';
import { NOON_TR } from './helpers/app.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines, ImportFailed } from '../src/import/import.service.ts';
import { WrittenFilter } from '../src/import/written-filter.ts';
import type { Db } from '../src/db/types.ts';

/** Every index, trigger and constraint of the tables an import writes, as the database states them. */
async function schemaOf(db: Db, kind: string): Promise<string[]> {
  if (kind === 'sqlite') {
    const { rows } = await sql<{ d: string }>`SELECT type || ' ' || name || ' ' || coalesce(sql, '') AS d FROM sqlite_master ORDER BY name`.execute(db);
    return rows.map((r) => r.d);
  }
  const { rows } = await sql<{ d: string }>`
    SELECT 'index ' || indexname || ' ' || indexdef AS d FROM pg_indexes WHERE schemaname = current_schema()
    UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace
    UNION ALL SELECT 'trigger ' || tgname || ' ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    ORDER BY 1`.execute(db);
  return rows.map((r) => r.d);
}

test('the written filter: never says no to what was added, and says no to most of the rest', () => {
  const filter = new WrittenFilter();
  const added = Array.from({ length: 50_000 }, (_, i) => `G1-${i}-${i % 7}`);
  for (const ref of added) filter.add(ref);
  assert.ok(added.every((ref) => filter.mayHave(ref)));
  const others = Array.from({ length: 50_000 }, (_, i) => `H1-${i}-${i % 7}`);
  assert.ok(others.filter((ref) => filter.mayHave(ref)).length < 50, 'at most 0.1 % looked up for nothing');
});

for (const engine of ENGINES) {
  describe(`import into an empty database [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
    });
    after(async () => {
      await database?.drop();
    });

    test('a failed fresh load leaves the schema as it was and writes nothing', async () => {
      const schema = await schemaOf(database.engine.db, engine.name);
      const lines = [
        companyLine({ company_name: 'Vazgeçen Lojistik A.Ş.' }),
        companyLine({ company_name: 'Kötü A.Ş.', reports: [makeReport({ type: 'rumour' })] }),
      ];
      await assert.rejects(importLines(database.engine, lines, 'test', { countries, clock }), ImportFailed);
      assert.deepEqual(await schemaOf(database.engine.db, engine.name), schema);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM companies`.execute(database.engine.db);
      assert.equal(Number(rows[0]!.n), 0);
    });

    test('a company and a ref repeated batches apart apply in order; names are found by their words; the schema is unchanged', async () => {
      const schema = await schemaOf(database.engine.db, engine.name);
      const taxId = nextVkn();
      const claims = [1, 2, 3].map((i) => makeReport({ ref: `FAR-${i}`, type: 'unpaid_debt', reported_by: `M-CLAIM-${i}`, status: 'pending' }));
      const filler = Array.from({ length: 1_200 }, (_, i) => companyLine({ company_name: `Dolgu ${i} Tekstil A.Ş.` }));
      const lines = [
        companyLine({ company_name: 'Uzakbaşlayan Gıda A.Ş.', tax_id: taxId, reports: claims }),
        ...filler.slice(0, 600),
        // 600 lines on (a batch holds 500): the company and its first ref again, changed.
        companyLine({ company_name: 'Uzakbitiren Gıda A.Ş.', tax_id: taxId, reports: [{ ...claims[0]!, status: 'approved' }] }),
        ...filler.slice(600),
        companyLine({ company_name: 'Uzakbitiren Gıda A.Ş.', tax_id: taxId, reports: claims.slice(1).map((c) => ({ ...c, status: 'approved' })) }),
      ];
      const summary = await importLines(database.engine, lines, 'test', { countries, clock });
      assert.deepEqual([summary.companiesAdded, summary.companiesUpdated, summary.reportsAdded, summary.reportsUpdated], [1_201, 1, 1_203, 3]);
      const db = database.engine.db;
      const company = await db.selectFrom('companies').selectAll().where('tax_id_norm', '=', taxId).executeTakeFirstOrThrow();
      assert.equal(company.company_name, 'Uzakbitiren Gıda A.Ş.');
      assert.equal(Number(company.visible_report_count), 3, 'three approved claims from three members');
      const history = await db
        .selectFrom('report_status_changes as c')
        .innerJoin('reports as r', 'r.id', 'c.report_id')
        .select(['r.ref', 'c.to_status'])
        .where('r.ref', 'like', 'FAR-%')
        .orderBy('c.id')
        .execute();
      assert.equal(
        history
          .filter((h) => h.ref === 'FAR-1')
          .map((h) => h.to_status)
          .join(','),
        'pending,approved',
      );
      const words = await db.selectFrom('company_name_words').select('word').where('word', 'in', ['uzakbitiren', 'dolgu', 'tekstil', '1199']).execute();
      assert.deepEqual(words.map((w) => w.word).sort(), ['1199', 'dolgu', 'tekstil', 'uzakbitiren']);
      assert.deepEqual(await schemaOf(db, engine.name), schema);
    });
  });
}
