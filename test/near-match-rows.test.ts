/**
 * Near matches from the database (D25) read of each candidate only what it is scored and ranked
 * by (id, name_core, visible_report_count), and the shown ones' rows after (issue 28: a
 * distinctive word's near matches read ~800 candidates a statement at 10^6). A shown company
 * changed between the two reads (another process's commit) makes the search ask again: an
 * answer is of one moment, as when one statement read both.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport, nextVkn } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines } from '../src/import/import.service.ts';
import { createCompanySearch, type CompanySearch } from '../src/search/company-search.ts';
import { planSearch } from '../src/search/search.service.ts';
import { NOON_TR } from './helpers/app.ts';

const clock = fixedClock(NOON_TR);

for (const engine of ENGINES) {
  describe(`near matches' rows read for the shown ones only [${engine.name}]`, () => {
    let database: TestDatabase;
    let search: CompanySearch;
    let statements: string[] = [];
    /** Run once before the next statement that reads shown rows by id. */
    let beforeShownRows: (() => Promise<void>) | null = null;

    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
      await importLines(
        database.engine,
        ['Karabacakoğlu Seramik A.Ş.', 'Anadolu Seramik Ltd. Şti.'].map((name) =>
          companyLine({ company_name: name, tax_id: nextVkn(), city: 'Kütahya', reports: [makeReport({ ref: `NR-${name}`, status: 'approved' })] }),
        ),
        'near rows',
        { countries, clock },
      );
      // The database's near matches on both engines (no index of names, no names' words in memory).
      search = createCompanySearch({ db: database.engine.db, seam: database.engine.seam, maxResults: 10, cacheEntries: 0, nameIndex: false, nameWords: false });
      await search.warmUp();
      const executor = database.engine.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
      const original = executor.executeQuery.bind(executor);
      executor.executeQuery = async (query, id) => {
        statements.push(query.sql);
        if (beforeShownRows && /"tax_id_norm"/.test(query.sql)) {
          const run = beforeShownRows;
          beforeShownRows = null;
          await run();
        }
        return original(query, id);
      };
    });
    after(async () => {
      await database?.drop();
    });

    const nearMatches = async (q: string) => {
      statements = [];
      const outcome = await search.find(planSearch(countries, { q, type: 'name', country: null }));
      assert.deepEqual(outcome.results, [], q);
      return outcome.nearMatches!;
    };
    /** The statements that listed near matches' candidates: those reading `name_core` without the shown columns' tax ID. */
    const candidateStatements = () => statements.filter((s) => /"name_core"/.test(s) && /"visible_report_count"/.test(s) && !/"tax_id_norm"/.test(s));

    test('the candidates are read without the columns shown; the shown one is read whole', async () => {
      const [match, ...rest] = await nearMatches('Karabacakolu Seramik');
      assert.deepEqual(rest, []);
      assert.equal(match!.company_name, 'Karabacakoğlu Seramik A.Ş.');
      assert.equal(match!.city, 'Kütahya');
      assert.equal(match!.report_count, 1);
      const listed = candidateStatements();
      assert.ok(listed.length > 0, statements.join('\n'));
      for (const s of listed) for (const column of ['"company_name"', '"tax_id"', '"city"']) assert.ok(!s.includes(column), `${column} in ${s}`);
      // SQLite: the misspelt word's correction looked up in the visible companies' own word index (migration 0026).
      if (engine.name === 'sqlite')
        assert.ok(
          listed.some((s) => s.includes('company_near_word_fts MATCH')),
          listed.join('\n'),
        );
    });

    test('a shown company changed after its candidates were read: the search asks again, and answers as it is now', async () => {
      beforeShownRows = async () => {
        // Another process's commit, between the two reads: a second visible report counted.
        await database.engine.db.updateTable('companies').set({ visible_report_count: 2 }).where('name_core', 'like', 'karabacakoglu%').execute();
      };
      const [match] = await nearMatches('Karabacakolu Seramik');
      assert.equal(beforeShownRows, null, 'the shown rows were read');
      assert.equal(match!.company_name, 'Karabacakoğlu Seramik A.Ş.');
      assert.equal(match!.report_count, 2);
      assert.ok(candidateStatements().length >= 2, 'the candidates were read again');
    });
  });
}
