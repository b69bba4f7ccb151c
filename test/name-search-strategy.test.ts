/**
 * Name search at scale takes shortcuts (few candidates → rank them all; many → prefix matches,
 * then a bounded walk in rank order; a short walk → the exact query). Whatever path runs, the
 * answer must be exactly the D8/D10 answer: the same companies in the same order as the one
 * query that ranks every match. Each tuning below forces one path on every query.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { findCompaniesByName, nameSearchQuery, NAME_SEARCH_TUNING, type NameSearch, type NameSearchTuning } from '../src/companies/companies.repository.ts';
import { parseNameQuery } from '../src/companies/name-key.ts';
import { NameSample, trigramsOf } from '../src/search/name-sample.ts';

const WORDS = ['anadolu', 'lojistik', 'tekstil', 'gida', 'demir', 'celik', 'nakliyat', 'ambalaj', 'ege', 'yilmaz', 'yilmazlar', 'ab'];

/** A small deterministic generator (the data must be the same on every run). */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const TUNINGS: Record<string, NameSearchTuning> = {
  'rank every candidate': { candidateCap: 1_000_000, walkWindow: 1 },
  'prefix + full walk': { candidateCap: 0, walkWindow: 1_000_000 },
  'prefix + short walk, then the exact query': { candidateCap: 0, walkWindow: 3 },
  'production tuning': NAME_SEARCH_TUNING,
  // Looking up only part of each word selects a superset; the words are checked after.
  'first trigram of each word': { ...NAME_SEARCH_TUNING, indexTerm: (w) => trigramsOf(w)[0]! },
  'first trigram, a tiny cap (whole words on retry, then the walk)': { candidateCap: 3, walkWindow: 1_000_000, indexTerm: (w) => trigramsOf(w)[0]! },
};

// Other orders of names that exist (D8 rank class 1), a word twice (no such class), six words,
// words split in two (the whole name when joined, rank class 0).
const QUERIES = [
  'ana dolu',
  'ana dolu lojistik',
  'yil maz lar',
  'lojis tik anadolu',
  'demir ce lik',
  'anadolu',
  'lojistik',
  'anadolu lojistik',
  'lojistik anadolu',
  'yilmaz',
  'yilmazlar',
  'ege ab',
  'demir celik',
  'celik',
  'gida nakliyat ege',
  'zzz',
  'ambalaj anadolu ab',
  'celik demir',
  'ab ege',
  'nakliyat gida',
  'lojistik lojistik',
  'ege gida demir celik lojistik anadolu',
];

for (const engine of ENGINES) {
  describe(`name search shortcuts give the exact answer [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      const next = random(42);
      const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
      const rows = Array.from({ length: 1500 }, (_, i) => {
        const words = Array.from({ length: 1 + Math.floor(next() * 3) }, pick);
        // Many companies share a name, so ties on name and report count are decided by id.
        const core = i % 7 === 0 ? 'anadolu lojistik' : words.join(' ');
        const key = i % 3 === 0 ? `${core} ltd sti` : core;
        return {
          company_name: key,
          tax_id: String(2_000_000_000 + i),
          tax_id_norm: String(2_000_000_000 + i),
          country: i % 5 === 0 ? 'DE' : 'TR',
          city: 'X',
          name_key: key,
          name_core: core,
          // A quarter hidden (no visible report), the rest with 1–4.
          visible_report_count: Math.floor(next() * 5),
          updated_at: 0,
        };
      });
      for (let i = 0; i < rows.length; i += 300)
        await database.engine.db
          .insertInto('companies')
          .values(rows.slice(i, i + 300))
          .execute();
      await sql`ANALYZE`.execute(database.engine.db);
    });
    after(async () => {
      await database?.drop();
    });

    const sample = new NameSample();
    const tunings = (): Record<string, NameSearchTuning> => ({
      ...TUNINGS,
      'rarest sampled trigram of each word, sampled estimates': {
        ...NAME_SEARCH_TUNING,
        indexTerm: sample.rarest,
        estimatedMatches: sample.estimatedMatches,
        estimatedPrefixMatches: sample.estimatedPrefixMatches,
      },
      // As the search plans it (search.service.ts): the estimates and the size, so density decides.
      'sampled estimates and size, a small cap': {
        candidateCap: 40,
        walkWindow: 30_000,
        indexTerm: sample.rarest,
        estimatedMatches: sample.estimatedMatches,
        estimatedPrefixMatches: sample.estimatedPrefixMatches,
        estimatedCompanies: sample.estimatedCompanies,
      },
      'estimated many, whatever the truth': { ...NAME_SEARCH_TUNING, estimatedMatches: () => Infinity, estimatedPrefixMatches: () => Infinity },
      'estimated many, short walks': { candidateCap: 2000, walkWindow: 3, estimatedMatches: () => Infinity, estimatedPrefixMatches: () => Infinity },
    });

    test('the trigram sample sees the names', async () => {
      await sample.refresh(database.engine.db);
      // 'lojistik' is in many names, 'yilmazlar' in few: its rarest trigram is one 'yilmaz' lacks.
      assert.notEqual(sample.rarest('lojistik'), sample.rarest('yilmazlar'));
      assert.ok(['azl', 'zla', 'lar'].includes(sample.rarest('yilmazlar')), sample.rarest('yilmazlar'));
      assert.equal(sample.rarest('qqq'), 'qqq');
      // 1 500 companies, one in seven named 'anadolu lojistik' (and others contain the words).
      const estimate = sample.estimatedMatches(['anadolu', 'lojistik']);
      assert.ok(estimate >= 150 && estimate <= 600, String(estimate));
      assert.equal(sample.estimatedMatches(['zzzz']), 0);
      // Near-match look-ups: a trigram in 1 of 7 names ('lojistik') is left out beside two never
      // seen, kept beside one (that one alone could hold more names than are scored).
      const common = sample.rarest('lojistik');
      assert.deepEqual(sample.lookupTerms(['lojistik', 'qqq', 'xxw']).sort(), ['qqq', 'xxw']);
      assert.deepEqual(sample.lookupTerms(['lojistik', 'qqq']).sort(), [common, 'qqq'].sort());
      assert.deepEqual(sample.lookupTerms(['lojistik']), [common]);
    });

    test('the same words in another order rank above prefixes and the rest (D8)', async () => {
      const { db, seam } = database.engine;
      const search: NameSearch = { indexedWords: ['lojistik', 'anadolu'], otherWords: [], core: 'lojistik anadolu', country: null, limit: 1000 };
      const all = (await nameSearchQuery(db, seam, search).execute()).map((r) => r.name_core);
      // The whole name first (random names hold it too), then the other order.
      const cores = all.slice(all.findIndex((c) => c !== 'lojistik anadolu'));
      assert.ok(all.slice(0, all.length - cores.length).every((c) => c === 'lojistik anadolu'));
      const firstOther = cores.findIndex((c) => c !== 'anadolu lojistik');
      assert.ok(firstOther > 10, `only ${firstOther} names in the other order first`);
      assert.ok(cores.slice(firstOther).every((c) => c !== 'anadolu lojistik'));
      // Then the names that start with the query (the test data has some), then the rest.
      const prefixed = cores.slice(firstOther).filter((c) => c.startsWith('lojistik anadolu'));
      assert.deepEqual(cores.slice(firstOther, firstOther + prefixed.length), prefixed);
    });

    test('a word split in two still finds the whole name first (D8)', async () => {
      const { db, seam } = database.engine;
      const search: NameSearch = { indexedWords: ['ana', 'dolu', 'lojistik'], otherWords: [], core: 'ana dolu lojistik', country: null, limit: 20 };
      const cores = (await nameSearchQuery(db, seam, search).execute()).map((r) => r.name_core);
      assert.deepEqual(cores, Array(20).fill('anadolu lojistik'));
    });

    for (const name of Object.keys(tunings())) {
      test(name, async () => {
        const tuning = tunings()[name]!;
        const { db, seam } = database.engine;
        let nonEmpty = 0;
        for (const q of QUERIES) {
          for (const country of [null, 'TR', 'DE']) {
            for (const limit of [1, 11, 50]) {
              const parsed = parseNameQuery(q);
              assert.ok(parsed.ok);
              const search: NameSearch = {
                indexedWords: parsed.words.filter((w) => w.length >= 3),
                otherWords: parsed.words.filter((w) => w.length < 3),
                core: parsed.core,
                country,
                limit,
              };
              const exact = (await nameSearchQuery(db, seam, search).execute()).map((r) => Number(r.id));
              const fast = (await findCompaniesByName(db, seam, search, tuning)).map((r) => Number(r.id));
              assert.deepEqual(fast, exact, `q=${q} country=${country} limit=${limit}`);
              if (exact.length > 0) nonEmpty++;
            }
          }
        }
        // The comparison means something only if most queries find companies.
        assert.ok(nonEmpty >= 80, `only ${nonEmpty} non-empty answers`);
      });
    }
  });
}
