/**
 * A name search answered from the index of names (issue 28) reads its shown rows by id; on
 * PostgreSQL their reports come in the same statement (search/shown-rows.repository.ts), a
 * round trip fewer. The answer must be the database path's to the byte: the same companies, the
 * same visible reports (D12) in the same order (filed_at, then id, descending), every field.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { countries, makeClaimants, makeCompanies, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { openEngine } from '../src/db/connect.ts';
import { planSearch, runSearch, type SearchDeps } from '../src/search/search.service.ts';
import { VisibleNamesKeeper } from '../src/search/visible-names-keeper.ts';
import { findShownRows, reportsReadWith } from '../src/search/shown-rows.repository.ts';
import { listActiveReports } from '../src/reports/reports.repository.ts';
import { readDataVersion } from '../src/db/data-version.repository.ts';

const claim = (member: number, overrides: Record<string, unknown> = {}) =>
  makeReport({ type: 'unpaid_debt', reported_by: `M-CLAIM-${member}`, amount: 100 + member, currency: 'TRY', ...overrides });

for (const engine of ENGINES) {
  describe(`a name search's shown rows and their reports from the index of names [${engine.name}]`, () => {
    let database: TestDatabase;
    let keeper: VisibleNamesKeeper;
    before(async () => {
      database = await engine.create();
      const clock = fixedClock(Date.UTC(2026, 5, 1));
      await makeClaimants(database.engine.db, clock);
      const same = '2026-03-01 09:15:00';
      await makeCompanies(database.engine, clock, [
        {
          company_name: 'Kestane Kargo A.Ş.',
          reports: [
            makeReport({
              type: 'enforcement_judgment',
              filed_at: same,
              amount: 1234.5,
              currency: 'TRY',
              court_decision_date: '2026-02-20',
              case: { enforcement_office: 'Bursa 3. İcra', file_number: '2026/11', date: '2026-02-25' },
            }),
            // Filed at the same second: newest id first.
            makeReport({ type: 'bounced_cheque', filed_at: same, case: { prosecutor_office: 'Bursa CBS', investigation_number: '2026/77' } }),
            makeReport({
              type: 'debt_assigned',
              filed_at: same,
              case: { assignment_date: '2026-03-30', contract_number: 'C-1', collection_company: 'X Varlık' },
            }),
            makeReport({ type: 'concordat', filed_at: '2025-01-01 00:00:00', concordat_start: '2024-12-01', concordat_end: '2025-12-01' }),
            makeReport({ type: 'court_decision', filed_at: '2025-02-01 00:00:00', court_decision_date: '2025-01-15' }),
            makeReport({ status: 'pending', description: 'not yet' }),
            // Newer than the rest (the factory's own date depends on how many reports came before).
            claim(1, { filed_at: '2026-04-01 10:00:00' }),
          ],
        },
        { company_name: 'Kestane Nakliyat Ltd. Şti.', reports: [claim(1), claim(2), claim(3)] },
        { company_name: 'Kestane Gıda Ltd. Şti.', reports: [claim(1), claim(2), makeReport({ type: 'enforcement_bill', description: 'çek "ve" \\ senet' })] },
        { company_name: 'Kestanelik Lojistik A.Ş.', reports: [claim(1), claim(2), claim(3, { status: 'rejected' }), makeReport()] },
        { company_name: 'Kestane Pendingonly A.Ş.', reports: [makeReport({ status: 'pending' })] },
        ...Array.from({ length: 12 }, (_, i) => ({
          company_name: `Kestane Transport ${i}`,
          reports: Array.from({ length: 1 + (i % 7) }, (_, j) => makeReport({ filed_at: `2026-0${1 + (j % 3)}-10 10:00:00` })),
        })),
      ]);
      // D33: a disputed report with the company's statement.
      await sql`UPDATE reports SET disputed = 1, dispute_statement = ${'Borç ödendi.'} WHERE type = 'bounced_cheque'`.execute(database.engine.db);
      keeper = new VisibleNamesKeeper(database.engine.db, database.engine.seam);
      keeper.start();
      await keeper.loaded();
    });
    after(async () => {
      await database?.drop();
    });

    const depsOf = (db: SearchDeps['db'], visibleNames: VisibleNamesKeeper | null, dataVersion?: number): SearchDeps => ({
      db,
      seam: database.engine.seam,
      maxResults: 10,
      names: null,
      visibleNames,
      ...(dataVersion === undefined ? {} : { dataVersion }),
    });

    test('the answer is the database path’s: companies, visible reports in order, every field', async () => {
      const queries = ['kestane', 'kestane kargo', 'kestane gida', 'kestanelik', 'kestane nakliyat', 'transport kestane', 'kestane transport 3', 'pendingonly'];
      let reportsSeen = 0;
      for (const q of queries) {
        const plan = planSearch(countries, { q, type: 'name', country: null });
        const fromMemory = await runSearch(depsOf(database.engine.db, keeper), plan);
        const fromDatabase = await runSearch(depsOf(database.engine.db, null), plan);
        assert.deepStrictEqual(fromMemory, fromDatabase, q);
        reportsSeen += fromMemory.results.reduce((n, r) => n + r.reports.length, 0);
      }
      assert.ok(reportsSeen > 40, String(reportsSeen));
      const kargo = await runSearch(depsOf(database.engine.db, keeper), planSearch(countries, { q: 'kestane kargo', type: 'name', country: null }));
      assert.deepEqual(
        kargo.results[0]!.reports.map((r) => [r.type, r.disputed]),
        [
          // An official file makes the claim visible (D12).
          ['unpaid_debt', false],
          ['debt_assigned', false],
          ['bounced_cheque', true],
          ['enforcement_judgment', false],
          ['court_decision', false],
          ['concordat', false],
        ],
      );
      const many = await runSearch(depsOf(database.engine.db, keeper), planSearch(countries, { q: 'kestane', type: 'name', country: null }));
      assert.equal(many.truncated, true);
      assert.equal(many.results.length, 10);
    });

    test('on PostgreSQL one statement reads the shown rows and their reports; SQLite reads them apart', async () => {
      // The search's own connection, its statements counted (the index of names reads through another).
      const single = openEngine(database.url, { poolSize: 1 });
      after(() => single.close());
      const texts: string[] = [];
      const executor = single.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
      const run = executor.executeQuery.bind(executor);
      executor.executeQuery = (query, id) => {
        texts.push(query.sql);
        return run(query, id);
      };
      const version = await readDataVersion(database.engine.db);
      texts.length = 0;
      const outcome = await runSearch(depsOf(single.db, keeper, version), planSearch(countries, { q: 'kestane nakliyat', type: 'name', country: null }));
      assert.equal(outcome.results[0]?.report_count, 3);
      assert.equal(texts.length, engine.name === 'postgres' ? 1 : 2, texts.join('\n'));
    });

    test('findShownRows: the reports of the ids asked for, as listActiveReports returns them; none of the others', async () => {
      const { rows } = await sql<{ id: number }>`SELECT id FROM companies ORDER BY id`.execute(database.engine.db);
      const ids = rows.map((r) => Number(r.id));
      const withReports = ids.slice(0, 5);
      const shown = await findShownRows(database.engine.db, database.engine.seam, [...ids, 999_999], withReports);
      assert.deepEqual(
        shown.map((r) => Number(r.id)).sort((a, b) => a - b),
        ids,
      );
      for (const row of shown) {
        const read = reportsReadWith(row);
        if (engine.name === 'sqlite' || !withReports.includes(Number(row.id))) {
          assert.equal(read, null);
          continue;
        }
        assert.deepStrictEqual(read, await listActiveReports(database.engine.db, [Number(row.id)]));
      }
    });
  });
}
