/**
 * Near matches (D25) in the search service, on every engine: a misspelt name finds no result
 * but lists the close companies with a visible report, best first, at most 5, never D8
 * matches, with the country filter; tax-ID searches have none.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { countries, makeClaimants, makeCompanies, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { planSearch, runSearch, type SearchDeps } from '../src/search/search.service.ts';

for (const engine of ENGINES) {
  describe(`near matches [${engine.name}]`, () => {
    let database: TestDatabase;
    let deps: SearchDeps;
    const search = (q: string, country: string | null = null, type: 'name' | 'tax_id' = 'name') => runSearch(deps, planSearch(countries, { q, type, country }));

    before(async () => {
      database = await engine.create();
      const clock = fixedClock(Date.UTC(2026, 5, 1));
      await makeClaimants(database.engine.db, clock);
      await makeCompanies(database.engine, clock, [
        { company_name: 'Öztürk Lojistik Ltd. Şti.', city: 'Bursa', reports: [makeReport(), makeReport()] },
        { company_name: 'Öztürk Lojistik Gıda A.Ş.', reports: [makeReport()] },
        { company_name: 'Öztürkler Lojistik A.Ş.', reports: [makeReport()] },
        { company_name: 'Öztürk Lojistik GmbH', country: 'DE', tax_id: 'DE123456788', reports: [makeReport()] },
        { company_name: 'Yılmaz Lojistik A.Ş.' },
        { company_name: 'Anadolu Demir Çelik San. ve Tic. A.Ş.' },
        // Hidden: its only report is pending (D12), so it is never a near match either.
        { company_name: 'Başaran Tekstil A.Ş.', reports: [makeReport({ status: 'pending' })] },
        ...Array.from({ length: 8 }, (_, i) => ({ company_name: `Karadeniz Nakliyat ${i + 1} A.Ş.` })),
        // A hidden company one edit from a query word (`akcakoclix`), a shown one two edits from it.
        { company_name: 'Akcakocliy Gıda A.Ş.', reports: [makeReport({ status: 'pending' })] },
        { company_name: 'Akçakocalı Tarım A.Ş.' },
        // Letters that keys keep (no decomposition to a–z).
        { company_name: 'Wrocław Meble sp. z o.o.', country: 'DE', tax_id: 'DE129273398' },
        { company_name: 'Strøm Handel AS', country: 'DE', tax_id: 'DE136695976' },
      ]);
      deps = { db: database.engine.db, seam: database.engine.seam, maxResults: 10, names: null };
    });
    after(async () => {
      await database?.drop();
    });

    test('one letter missing: no result, the company first among near matches, no reports', async () => {
      const outcome = await search('Öztrk Lojistik');
      assert.deepEqual(outcome.results, []);
      const [best, ...rest] = outcome.nearMatches!;
      assert.ok(best);
      assert.deepEqual(Object.keys(best).sort(), ['city', 'company_name', 'country', 'report_count', 'similarity', 'tax_id', 'threat_level']);
      assert.equal(best.company_name, 'Öztürk Lojistik Ltd. Şti.');
      assert.equal(best.city, 'Bursa');
      assert.equal(best.report_count, 2);
      assert.equal(best.threat_level, 'normal');
      assert.ok(best.similarity > 0.7 && best.similarity < 1, String(best.similarity));
      assert.equal(Math.round(best.similarity * 100), best.similarity * 100);
      // The longer names that hold the same words follow, less similar.
      assert.ok(rest.length >= 1 && rest.every((m) => m.similarity <= best.similarity));
      assert.ok(rest.some((m) => m.company_name === 'Öztürk Lojistik Gıda A.Ş.'));
      // A misspelt word is compared with whole words: `öztrk` is not `öztürkler`.
      assert.ok(!outcome.nearMatches!.some((m) => m.company_name.startsWith('Öztürkler')));
    });

    test('swapped letters, an extra letter, words run together', async () => {
      for (const q of ['Öztrük Lojistik', 'Öztürkk Lojistik', 'ÖztürkLojistik', 'Anadolu Demri Çelik', 'anadoludemir']) {
        const outcome = await search(q);
        assert.deepEqual(outcome.results, [], q);
        assert.ok(outcome.nearMatches!.length > 0, q);
      }
      assert.equal((await search('anadoludemir')).nearMatches![0]!.company_name, 'Anadolu Demir Çelik San. ve Tic. A.Ş.');
    });

    test('a name that only shares its sector word is not close; a hidden company never shows', async () => {
      assert.deepEqual((await search('Kılıçaslan Lojistik')).nearMatches, []);
      assert.deepEqual((await search('Başaram Tekstil')).nearMatches, []);
    });

    test('the country filter applies', async () => {
      const de = await search('Öztrk Lojistik', 'DE');
      assert.deepEqual(
        de.nearMatches!.map((m) => m.company_name),
        ['Öztürk Lojistik GmbH'],
      );
    });

    test('two edits are looked for when one-edit corrections do not fill the list, whatever hidden companies hold', async () => {
      const near = (await search('Akcakoclix Tarım')).nearMatches!;
      assert.deepEqual(
        near.map((m) => m.company_name),
        ['Akçakocalı Tarım A.Ş.'],
      );
    });

    test('a letter an ASCII query lacks (ł, ø) is one edit', async () => {
      assert.equal((await search('Wroclaw Meble')).nearMatches![0]?.company_name, 'Wrocław Meble sp. z o.o.');
      assert.equal((await search('Strom Handel')).nearMatches![0]?.company_name, 'Strøm Handel AS');
    });

    test('at most 5; [] when there are results; null for a tax-ID search', async () => {
      assert.equal((await search('Karadeniz Nakliyt')).nearMatches!.length, 5);
      const hit = await search('Öztürk Lojistik');
      assert.ok(hit.results.length > 0);
      assert.deepEqual(hit.nearMatches, []);
      assert.equal((await search('1234567890', null, 'tax_id')).nearMatches, null);
    });
  });
}
