/**
 * The vocabulary of the names' words that a server process keeps for near matches (D25,
 * search/name-vocabulary.ts) stays current: a word that only a name written after the process
 * read its vocabulary holds (a later import, a rename by import, a filing's new company) is
 * corrected to at once. A misspelt word of up to 8 letters is corrected from the vocabulary
 * alone, so a stale one would show no near match.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport, nextVkn } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines } from '../src/import/import.service.ts';
import { findOrCreateCompany } from '../src/reports/filing.repository.ts';
import { toCoreKey, toSearchKey } from '../src/companies/name-key.ts';
import { createCompanySearch, type CompanySearch } from '../src/search/company-search.ts';
import { planSearch } from '../src/search/search.service.ts';
import { NameVocabulary } from '../src/search/name-vocabulary.ts';
import { readDataVersion } from '../src/db/data-version.repository.ts';
import { NOON_TR } from './helpers/app.ts';

const clock = fixedClock(NOON_TR);

for (const engine of ENGINES) {
  describe(`near matches see the names' words written after the server started [${engine.name}]`, () => {
    let database: TestDatabase;
    let search: CompanySearch;
    const akbulut = nextVkn();
    const dumanli = nextVkn();
    const importNames = (names: Array<[string, string]>) =>
      importLines(
        database.engine,
        names.map(([company_name, tax_id]) => companyLine({ company_name, tax_id, reports: [makeReport()] })),
        'vocabulary',
        { countries, clock },
      );
    const nearMatches = async (q: string) => {
      const outcome = await search.find(planSearch(countries, { q, type: 'name', country: null }));
      assert.deepEqual(outcome.results, [], q);
      return outcome.nearMatches!.map((m) => m.company_name);
    };

    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
      await importNames([
        ['Akbulut Lojistik A.Ş.', akbulut],
        ['Karadeniz Nakliyat Ltd. Şti.', nextVkn()],
      ]);
      // As the server: the answer cache on, the vocabulary read before the first request.
      search = createCompanySearch({ db: database.engine.db, seam: database.engine.seam, maxResults: 10, cacheEntries: 100 });
      await search.warmUp();
    });
    after(async () => {
      await database?.drop();
    });

    test('an import: a new company whose word no name held is a near match at once', async () => {
      assert.deepEqual(await nearMatches('Kavaklor Tekstil'), []);
      await importNames([['Kavaklar Tekstil A.Ş.', nextVkn()]]);
      assert.deepEqual(await nearMatches('Kavaklor Tekstil'), ['Kavaklar Tekstil A.Ş.']);
    });

    test('a rename by import: the new name is a near match for a misspelling of its new word', async () => {
      assert.deepEqual(await nearMatches('Saricom Lojistik'), []);
      await importNames([['Sarıçam Lojistik A.Ş.', akbulut]]);
      assert.deepEqual(await nearMatches('Saricom Lojistik'), ['Sarıçam Lojistik A.Ş.']);
    });

    test("a filing's new company: its words are corrected to once it has a visible report", async () => {
      assert.deepEqual(await nearMatches('Dumanlu Gıda'), []);
      const name = 'Dumanlı Gıda';
      await findOrCreateCompany(database.engine.db, {
        company_name: name,
        tax_id: dumanli,
        tax_id_norm: dumanli,
        country: 'TR',
        city: 'İzmir',
        name_key: toSearchKey(name),
        name_core: toCoreKey(name),
        visible_report_count: 0,
        updated_at: clock.now(),
      });
      // Not shown without a visible report (D12); then a report approved for it by import.
      assert.deepEqual(await nearMatches('Dumanlu Gıda'), []);
      await importNames([[name, dumanli]]);
      assert.deepEqual(await nearMatches('Dumanlu Gıda'), [name]);
    });
  });
}

for (const engine of ENGINES) {
  describe(`the vocabulary with the data version a request read [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
      await importLines(database.engine, [companyLine({ company_name: 'Akbulut Lojistik A.Ş.', tax_id: nextVkn(), reports: [makeReport()] })], 'vocabulary', {
        countries,
        clock,
      });
    });
    after(async () => {
      await database?.drop();
    });

    test('at or below the version caught up to, nothing is read; above it, the words written since', async () => {
      const { db, seam } = database.engine;
      const vocabulary = new NameVocabulary();
      await vocabulary.refresh(db, seam);
      const executor = db.getExecutor() as unknown as { executeQuery: (...args: unknown[]) => Promise<unknown> };
      const original = executor.executeQuery;
      let statements = 0;
      executor.executeQuery = function (this: unknown, ...args: unknown[]) {
        statements++;
        return original.apply(this, args);
      };
      try {
        const version = await readDataVersion(db);
        statements = 0;
        await vocabulary.refresh(db, seam, version);
        await vocabulary.refresh(db, seam, version - 1);
        assert.equal(statements, 0);
        assert.ok(!vocabulary.mightHold('kavaklar'));
        await importLines(database.engine, [companyLine({ company_name: 'Kavaklar Tekstil A.Ş.', tax_id: nextVkn(), reports: [makeReport()] })], 'vocabulary', {
          countries,
          clock,
        });
        await vocabulary.refresh(db, seam, await readDataVersion(db));
        assert.ok(vocabulary.mightHold('kavaklar'));
      } finally {
        executor.executeQuery = original;
      }
    });
  });
}
