/**
 * Near matches (D25) follow every write to the companies, on every engine: a fresh import, an
 * import into a filled database, an approval that makes a company's first report visible, a
 * deactivation that hides its last one, a rename, and a copy into a new SQLite database. On SQLite the candidates come from an
 * index of the visible companies' trigrams of its own (migration 0025, `company_near_fts`):
 * after each step, it must hold exactly the visible companies holding each trigram, and a
 * search must find the company through it; and its word index of its own (migration 0026, `company_near_word_fts`)
 * exactly the visible companies holding each word of `name_core`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport, nextVkn } from './helpers/factories.ts';
import { makeUser } from './helpers/users.ts';
import { approveReport, deactivateReport } from './helpers/use-cases.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines } from '../src/import/import.service.ts';
import { copyDatabase } from '../src/db/copy.ts';
import type { Db } from '../src/db/types.ts';
import { trigramsOf } from '../src/search/name-sample.ts';
import { createCompanySearch, type CompanySearch } from '../src/search/company-search.ts';
import { planSearch } from '../src/search/search.service.ts';
import { NOON_TR } from './helpers/app.ts';

const clock = fixedClock(NOON_TR);
const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;

for (const engine of ENGINES) {
  describe(`near matches follow every write [${engine.name}]`, () => {
    let database: TestDatabase;
    let search: CompanySearch;
    let operator: { userId: number };
    const dumlupinar = nextVkn();
    const hidden = nextVkn();
    /** Every name the companies held, old ones too: the index must hold none of a name gone. */
    const namesSeen = new Set<string>();
    /** Every name_core the companies held: near matches' word index (migration 0026) must hold none of a name gone. */
    const coresSeen = new Set<string>();
    /** The statements of the last search (to see which index answered). */
    let statements: string[] = [];

    const importCompanies = (companies: Array<{ name: string; taxId?: string; status?: string }>) =>
      importLines(
        database.engine,
        companies.map(({ name, taxId, status }) =>
          companyLine({ company_name: name, tax_id: taxId ?? nextVkn(), reports: [makeReport({ ref: `NI-${name}`, status: status ?? 'approved' })] }),
        ),
        'near index',
        { countries, clock },
      );
    const nearMatches = async (q: string, of: CompanySearch = search) => {
      statements = [];
      const outcome = await of.find(planSearch(countries, { q, type: 'name', country: null }));
      assert.deepEqual(outcome.results, [], q);
      return outcome.nearMatches!.map((m) => m.company_name);
    };
    const reportId = async (ref: string) =>
      Number((await database.engine.db.selectFrom('reports').select('id').where('ref', '=', ref).executeTakeFirstOrThrow()).id);

    /** SQLite: for every trigram of every name seen, the index's companies are the visible ones holding it. */
    const assertIndexWhole = async (db: Db = database.engine.db, kind = engine.name) => {
      const companies = await db.selectFrom('companies').select(['id', 'name_key', 'name_core', 'visible_report_count']).execute();
      for (const c of companies) namesSeen.add(c.name_key);
      for (const c of companies) coresSeen.add(c.name_core);
      if (kind !== 'sqlite') return;
      const trigrams = new Set([...namesSeen].flatMap((key) => trigramsOf(key)));
      for (const t of trigrams) {
        const { rows } = await sql<{ id: number }>`SELECT rowid AS id FROM company_near_fts WHERE company_near_fts MATCH ${`"${t}"`} ORDER BY rowid`.execute(
          db,
        );
        const expected = companies
          .filter((c) => Number(c.visible_report_count) > 0 && c.name_key.includes(t))
          .map((c) => Number(c.id))
          .sort((a, b) => a - b);
        assert.deepEqual(
          rows.map((r) => Number(r.id)),
          expected,
          `trigram "${t}"`,
        );
      }
      // Near matches' word index (migration 0026): for every word, the visible companies whose name_core holds it whole.
      const words = new Set([...coresSeen].flatMap((core) => core.split(' ').filter(Boolean)));
      for (const w of words) {
        const { rows } = await sql<{
          id: number;
        }>`SELECT rowid AS id FROM company_near_word_fts WHERE company_near_word_fts MATCH ${`"${w}"`} ORDER BY rowid`.execute(db);
        const expected = companies
          .filter((c) => Number(c.visible_report_count) > 0 && c.name_core.split(' ').includes(w))
          .map((c) => Number(c.id))
          .sort((a, b) => a - b);
        assert.deepEqual(
          rows.map((r) => Number(r.id)),
          expected,
          `word "${w}"`,
        );
      }
    };
    /** SQLite: the last search asked near matches' own index. */
    const askedNearIndex = () => {
      if (engine.name === 'sqlite')
        assert.ok(
          statements.some((s) => s.includes('"company_near_fts"')),
          statements.join('\n'),
        );
    };

    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
      operator = { userId: await makeUser(database.engine.db, { email: 'op@near.test', role: 'operator' }) };
      // Into the empty database: the fresh load, whose index is filled once at its end.
      await importCompanies([
        { name: 'Karabacakoğlu Seramik A.Ş.' },
        { name: 'Dumlupınar Kireç Madencilik A.Ş.', taxId: dumlupinar },
        { name: 'Zeytinlioğlu Mermer A.Ş.', taxId: hidden, status: 'pending' },
        { name: 'Anadolu Seramik Ltd. Şti.' },
      ]);
      search = createCompanySearch({ db: database.engine.db, seam: database.engine.seam, maxResults: 10, cacheEntries: 0 });
      await search.warmUp();
      const executor = database.engine.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
      const original = executor.executeQuery.bind(executor);
      executor.executeQuery = (query, id) => {
        statements.push(query.sql);
        return original(query, id);
      };
    });
    after(async () => {
      await database?.drop();
    });

    // A letter lost of a long word (two edits allowed): the names holding its pieces are asked too.
    test('a fresh import: its visible companies are near matches, a hidden one is not', async () => {
      await assertIndexWhole();
      assert.deepEqual(await nearMatches('Karabacakolu Seramik'), ['Karabacakoğlu Seramik A.Ş.']);
      askedNearIndex();
      assert.deepEqual(await nearMatches('Zeytinliolu Mermer'), []);
    });

    test('an import into a filled database: its new company is a near match', async () => {
      await importCompanies([{ name: 'Kocabıyıkoğlu Tekstil A.Ş.' }, { name: 'Sarıgüzeloğlu Deri A.Ş.', status: 'pending' }]);
      await assertIndexWhole();
      assert.deepEqual(await nearMatches('Kocabiyikolu Tekstil'), ['Kocabıyıkoğlu Tekstil A.Ş.']);
      askedNearIndex();
      assert.deepEqual(await nearMatches('Sariguzelolu Deri'), []);
    });

    test('an approval shows a company among near matches, a deactivation hides it again', async () => {
      const id = await reportId('NI-Zeytinlioğlu Mermer A.Ş.');
      await approveReport({ db: database.engine.db, clock }, operator, id);
      await assertIndexWhole();
      assert.deepEqual(await nearMatches('Zeytinliolu Mermer'), ['Zeytinlioğlu Mermer A.Ş.']);
      askedNearIndex();
      await deactivateReport({ db: database.engine.db, clock }, operator, id, 'filed in error');
      await assertIndexWhole();
      assert.deepEqual(await nearMatches('Zeytinliolu Mermer'), []);
    });

    test('a rename: the new name is a near match, the old one no longer', async () => {
      assert.deepEqual(await nearMatches('Dumlupnar Kireç Madencilik'), ['Dumlupınar Kireç Madencilik A.Ş.']);
      await importCompanies([{ name: 'Çakırbeyoğlu Kireç Madencilik A.Ş.', taxId: dumlupinar }]);
      await assertIndexWhole();
      assert.deepEqual(await nearMatches('Cakirbeyolu Kireç Madencilik'), ['Çakırbeyoğlu Kireç Madencilik A.Ş.']);
      askedNearIndex();
      assert.deepEqual(await nearMatches('Dumlupnar Kireç Madencilik'), []);
    });

    test('a copy into a new SQLite database: row by row, its visible companies are near matches', async () => {
      const target = await sqlite.create();
      try {
        await copyDatabase(database.engine, target.engine);
        const copied = createCompanySearch({ db: target.engine.db, seam: target.engine.seam, maxResults: 10, cacheEntries: 0 });
        await copied.warmUp();
        await assertIndexWhole(target.engine.db, 'sqlite');
        assert.deepEqual(await nearMatches('Kocabiyikolu Tekstil', copied), ['Kocabıyıkoğlu Tekstil A.Ş.']);
        assert.deepEqual(await nearMatches('Sariguzelolu Deri', copied), []);
      } finally {
        await target.drop();
      }
    });
  });
}
