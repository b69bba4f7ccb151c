/**
 * Near matches (D25) against their reference, on every engine: every company with a visible
 * report scored (near-match-score.ts), best first, the first 5 at or above the threshold. The
 * search looks at far fewer: a misspelt word's corrections one edit away from the names' words
 * (company_name_words), else the names holding pieces of it. Over the quality set's damaged
 * variants (scripts/bench/quality-names.ts) and names of no company, the two must agree.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { countries } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { vknCheckDigit } from '../src/generate/check-digits.ts';
import { seededRandom } from '../src/generate/random.ts';
import { importLines } from '../src/import/import.service.ts';
import { NameSample } from '../src/search/name-sample.ts';
import { NameVocabulary } from '../src/search/name-vocabulary.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD, nearQueryWords, scoreNearMatch, shownSimilarity } from '../src/search/near-match-score.ts';
import { planSearch, runSearch, type SearchDeps } from '../src/search/search.service.ts';
import { absentNames, qualityCompanies, VARIANTS } from '../scripts/bench/quality-names.ts';

const companies = qualityCompanies(600, 5);
const taxIds = companies.map((_, i) => {
  const stem = String(200_000_000 + i * 41);
  return stem + vknCheckDigit(stem);
});

/** Damaged variants of every 4th company, and names of no company. */
function queries(): string[] {
  const r = seededRandom(9);
  const out: string[] = [];
  companies.forEach((company, i) => {
    if (i % 4 !== 0) return;
    for (const { kind, make } of Object.values(VARIANTS)) {
      const q = kind === 'damaged' ? make(company, r) : null;
      if (q !== null) out.push(q);
    }
  });
  return [...out, ...absentNames(companies, 150)];
}

for (const engine of ENGINES) {
  describe(`near matches against scoring every company [${engine.name}]`, () => {
    let database: TestDatabase;
    let deps: SearchDeps;
    let everyone: Array<{ tax_id: string; name_core: string; visible_report_count: number; id: number }>;

    before(async () => {
      database = await engine.create();
      const r = seededRandom(3);
      const lines = companies.map((c, i) =>
        JSON.stringify({
          company_name: c.name,
          tax_id: taxIds[i],
          country: 'TR',
          city: 'Ankara',
          reports: Array.from({ length: 1 + r.int(3) }, (_, j) => ({
            ref: `NM-${i}-${j}`,
            type: 'enforcement_plain',
            status: i % 9 === 0 ? 'pending' : 'approved',
            filed_at: '2026-01-05 10:00:00',
            description: 'reference set',
          })),
        }),
      );
      await importLines(database.engine, lines, 'reference', { countries, clock: fixedClock(Date.UTC(2026, 5, 1)) });
      deps = { db: database.engine.db, seam: database.engine.seam, maxResults: 10, names: new NameSample(), vocabulary: new NameVocabulary() };
      everyone = (
        await database.engine.db
          .selectFrom('companies')
          .select(['id', 'tax_id', 'name_core', 'visible_report_count'])
          .where('visible_report_count', '>', 0)
          .execute()
      ).map((c) => ({ ...c, id: Number(c.id), visible_report_count: Number(c.visible_report_count) }));
    });
    after(async () => {
      await database?.drop();
    });

    const reference = (q: string) => {
      const words = nearQueryWords(q);
      return everyone
        .map((company) => ({ company, score: scoreNearMatch(words, company.name_core) }))
        .filter((c): c is { company: (typeof everyone)[number]; score: number } => c.score !== null && c.score >= DEFAULT_NEAR_MATCH_THRESHOLD)
        .sort(
          (a, b) =>
            b.score - a.score ||
            b.company.visible_report_count - a.company.visible_report_count ||
            (a.company.name_core < b.company.name_core ? -1 : a.company.name_core > b.company.name_core ? 1 : a.company.id - b.company.id),
        )
        .slice(0, 5)
        .map(({ company, score }) => `${company.tax_id} ${shownSimilarity(score)}`);
    };

    test('the same near matches as scoring every company, for misspelt names and names of no company', async () => {
      const all = queries();
      assert.ok(all.length > 400, String(all.length));
      const differ: string[] = [];
      let withNear = 0;
      for (const q of all) {
        const outcome = await runSearch(deps, planSearch(countries, { q, type: 'name', country: null }));
        const expected = outcome.results.length > 0 ? [] : reference(q);
        const actual = outcome.nearMatches!.map((m) => `${m.tax_id} ${m.similarity}`);
        if (actual.length > 0) withNear++;
        if (JSON.stringify(actual) !== JSON.stringify(expected)) differ.push(`${q}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
      }
      assert.deepEqual(differ, []);
      // The set exercises the search: most damaged names find their company.
      assert.ok(withNear > 250, String(withNear));
    });
  });
}
