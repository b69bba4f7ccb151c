/**
 * A query word of one or two letters (`PK FİLM`, `HU Alışveriş Merkezleri`) matches by D8 as a
 * substring anywhere in the key, like any other word. Beside common words, the name search looks
 * it up in the substring index as the trigrams that can hold it (the two letters and the
 * character after them, or before them at the key's end, made with every character of the
 * names' words; on PostgreSQL as one regular expression for pg_trgm): whatever the path, the
 * answer must be exactly the reference query's, which checks every match on its row. The names
 * below hold `pk` in every place a trigram can see it: the key's start and end, inside a word,
 * after a digit and after letters only the vocabulary knows (`ł`, `ø`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { findCompaniesByName, nameSearchQuery, NAME_SEARCH_TUNING, type NameSearch, type NameSearchTuning } from '../src/companies/companies.repository.ts';
import { coreOfKey, parseNameQuery, toSearchKey } from '../src/companies/name-key.ts';
import type { DialectSeam } from '../src/db/dialect-seam.ts';
import { NameSample } from '../src/search/name-sample.ts';
import { NameVocabulary } from '../src/search/name-vocabulary.ts';

/** Names that hold both `pk` and `film` (or `enerji`), each in its own place; and near misses. */
const NAMED = [
  'PK Film Ltd. Şti.',
  'Film PK',
  'Topkapı Film A.Ş.',
  'Film Topk',
  'Filmpk',
  'Pkfilm Yapım',
  'Film 9pk',
  'Film Ołpk Ltd. Şti.',
  'Film Ølpk',
  'Enerji Łpk',
  'Pk Su Film',
  'Su Film Pk',
  'Hu Enerji Lojistik',
  'Enerji Lojistik Hu',
  'Ahu Enerji',
  // No `pk` as a substring of the key: never a match for it.
  'P K Film',
  'Kp Film',
  'Film P',
  'Film Ltd. Şti.',
];
/** Common words, so that `film` and `enerji` alone find more candidates than the caps below. */
const FILLERS = ['Film', 'Enerji', 'Film Yapım', 'Enerji Lojistik', 'Film Su Ürünleri', 'Enerji Hukuk'];

const QUERIES = [
  'pk film',
  'film pk',
  'PK FİLM Sanayi ve Ticaret Limited Şirketi',
  'pk su film',
  'su pk film',
  'pk enerji',
  'łp film',
  'hu enerji',
  'hu enerji lojistik',
  'p film',
  'su film',
  'kp film',
  'pk yapim film',
];

/** A small deterministic generator (the data must be the same on every run). */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

for (const engine of ENGINES) {
  describe(`a two-letter query word finds exactly D8's matches [${engine.name}]`, () => {
    let database: TestDatabase;
    const sample = new NameSample();
    const vocabulary = new NameVocabulary();
    before(async () => {
      database = await engine.create();
      const next = random(7);
      const names = [...NAMED, ...NAMED, ...Array.from({ length: 400 }, (_, i) => FILLERS[i % FILLERS.length]!)];
      const rows = names.map((name, i) => {
        const key = toSearchKey(name);
        return {
          company_name: name,
          tax_id: String(3_000_000_000 + i),
          tax_id_norm: String(3_000_000_000 + i),
          country: i % 4 === 0 ? 'DE' : 'TR',
          city: 'X',
          name_key: key,
          name_core: coreOfKey(key),
          // The named ones are shown; a fifth of the rest hidden.
          visible_report_count: i < 2 * NAMED.length ? 1 + (i % 3) : Math.floor(next() * 5) % 4,
          updated_at: 0,
        };
      });
      for (let i = 0; i < rows.length; i += 200)
        await database.engine.db
          .insertInto('companies')
          .values(rows.slice(i, i + 200))
          .execute();
      await sql`ANALYZE`.execute(database.engine.db);
      await sample.refresh(database.engine.db);
      await vocabulary.refresh(database.engine.db, database.engine.seam);
    });
    after(async () => {
      await database?.drop();
    });

    const keyCharacters = () => vocabulary.keyCharacters();
    const tunings = (): Record<string, NameSearchTuning> => ({
      // Few matches by the estimate: the two letters are looked up before any walk.
      'two-letter words first': { candidateCap: 20, walkWindow: 30_000, estimatedMatches: () => 0, estimatedCompanies: () => 1000, keyCharacters },
      'two-letter words first, rare trigrams of the others': {
        candidateCap: 20,
        walkWindow: 30_000,
        indexTerm: sample.rarest,
        estimatedMatches: () => 0,
        estimatedCompanies: () => 1000,
        keyCharacters,
      },
      // Many by the estimate: a walk too short to find them, then the two letters' candidates.
      'a short walk, then two-letter words': {
        candidateCap: 20,
        walkWindow: 3,
        estimatedMatches: () => Infinity,
        estimatedPrefixMatches: () => Infinity,
        estimatedCompanies: () => 1000,
        keyCharacters,
      },
      // As the search plans it (search.service.ts), with a cap this data crosses.
      'sampled estimates and the vocabulary': {
        ...NAME_SEARCH_TUNING,
        candidateCap: 20,
        indexTerm: sample.rarest,
        estimatedMatches: sample.estimatedMatches,
        estimatedPrefixMatches: sample.estimatedPrefixMatches,
        estimatedCompanies: sample.estimatedCompanies,
        wordTrigrams: sample.rarestTrigrams,
        keyCharacters,
      },
    });

    test('the vocabulary knows every character of the keys', () => {
      assert.ok(keyCharacters().includes('ł') && keyCharacters().includes('ø') && keyCharacters().includes('9'));
    });

    for (const name of Object.keys(tunings())) {
      test(name, async () => {
        const tuning = tunings()[name]!;
        const { db } = database.engine;
        // Counts the look-ups narrowed by a two-letter word's trigrams: the path must run.
        let narrowed = 0;
        const seam: DialectSeam = {
          ...database.engine.seam,
          nameCandidateIds: (words, limit, indexTerm, twoLetter) => {
            if (twoLetter && twoLetter.words.length > 0) narrowed++;
            return database.engine.seam.nameCandidateIds(words, limit, indexTerm, twoLetter);
          },
        };
        let found = 0;
        for (const q of QUERIES) {
          for (const country of [null, 'TR']) {
            for (const limit of [1, 11, 50]) {
              const parsed = parseNameQuery(q);
              assert.ok(parsed.ok, q);
              const search: NameSearch = {
                indexedWords: parsed.words.filter((w) => w.length >= 3),
                otherWords: parsed.words.filter((w) => w.length < 3),
                core: parsed.core,
                country,
                limit,
              };
              const reference = (await nameSearchQuery(db, seam, search).execute()).map((r) => r.company_name);
              const fast = (await findCompaniesByName(db, seam, search, tuning)).map((r) => r.company_name);
              assert.deepEqual(fast, reference, `q=${q} country=${country} limit=${limit}`);
              if (limit === 50 && country === null) found += reference.length;
            }
          }
        }
        // Every place of `pk` is found (both copies of each named company), and the look-up ran.
        assert.ok(found >= 60, `only ${found} matches`);
        assert.ok(narrowed >= QUERIES.length, `narrowed ${narrowed} times`);
      });
    }

    test('each place of a two-letter word in a key is found', async () => {
      const { db, seam } = database.engine;
      const parsed = parseNameQuery('pk film');
      assert.ok(parsed.ok);
      const search: NameSearch = { indexedWords: ['film'], otherWords: ['pk'], core: parsed.core, country: null, limit: 50 };
      const names = new Set((await findCompaniesByName(db, seam, search, tunings()['two-letter words first'])).map((r) => r.company_name));
      assert.deepEqual(
        [...names].sort(),
        [
          'Film 9pk',
          'Film Ołpk Ltd. Şti.',
          'Film PK',
          'Film Topk',
          'Film Ølpk',
          'Filmpk',
          'PK Film Ltd. Şti.',
          'Pk Su Film',
          'Pkfilm Yapım',
          'Su Film Pk',
          'Topkapı Film A.Ş.',
        ].sort(),
      );
    });
  });
}
