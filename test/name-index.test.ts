/** D8 name search is answered from the substring index, never a table scan. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { nameSearchQuery, prefixMatchesQuery, rankWalkQuery, rankWalkRowsQuery } from '../src/companies/companies.repository.ts';
import { openEngine } from '../src/db/connect.ts';
import { runKeptPrepared } from '../src/db/prepared.ts';
import { seamFor } from '../src/db/dialect-seam.ts';
import { nearMatchGroups } from '../src/search/near-match-score.ts';
import { lookUpQueryWord, nearMatchCandidatesQuery } from '../src/search/near-matches.repository.ts';

for (const engine of ENGINES) {
  describe(`name search plan [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      // A realistic spread: thousands of companies, nearly all in one country, so that the
      // planner has statistics to choose with.
      const words = ['anadolu', 'lojistik', 'tekstil', 'gida', 'insaat', 'nakliyat', 'metal', 'tarim', 'enerji', 'ambalaj'];
      const rows = Array.from({ length: 3000 }, (_, i) => {
        const name = `${words[i % 10]} ${words[(i * 7) % 10]} ${i}`;
        return {
          company_name: name,
          tax_id: String(1_000_000_000 + i),
          tax_id_norm: String(1_000_000_000 + i),
          country: i % 50 === 0 ? 'DE' : 'TR',
          city: 'X',
          name_key: name,
          name_core: name,
          visible_report_count: i % 2,
          updated_at: 0,
        };
      });
      for (let i = 0; i < rows.length; i += 500) {
        await database.engine.db
          .insertInto('companies')
          .values(rows.slice(i, i + 500))
          .execute();
      }
      // PostgreSQL: VACUUM too, as autovacuum would, so that index-only scans are costed as such.
      await sql.raw(engine.name === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(database.engine.db);
    });
    after(async () => {
      await database?.drop();
    });

    const search = (country: string | null) => ({
      indexedWords: ['demir', 'lojistik'],
      otherWords: ['ab'],
      core: 'demir lojistik ab',
      country,
      limit: 11,
    });

    /** The plan of a query as the engine will run it, one line per step. */
    async function planOf(compiled: { sql: string; parameters: readonly unknown[] }): Promise<string> {
      const { db } = database.engine;
      const query = inline(compiled.sql, compiled.parameters);
      if (engine.name === 'sqlite') {
        const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(db);
        return plan.rows.map((r) => r.detail).join('\n');
      }
      // At 3 000 rows a sequential scan is honestly the cheapest plan; forbid it (in one
      // transaction, so on one connection) to see which index is chosen.
      const plan = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        return sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx);
      });
      return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    }

    for (const country of [null, 'TR']) {
      test(`the exact query uses the trigram index, not a scan of companies (country ${country})`, async () => {
        const { db, seam } = database.engine;
        const text = await planOf(nameSearchQuery(db, seam, search(country)).compile());
        if (engine.name === 'sqlite') {
          assert.match(text, /SCAN company_name_fts VIRTUAL TABLE INDEX/);
          assert.match(text, /SEARCH companies USING INTEGER PRIMARY KEY/);
          assert.doesNotMatch(text, /SCAN companies/);
        } else {
          assert.match(text, /companies_name_key_trgm/);
          assert.doesNotMatch(text, /Seq Scan on companies/);
        }
      });

      test(`prefix matches come from the name_core index (country ${country})`, async () => {
        const { db, seam } = database.engine;
        const text = await planOf(prefixMatchesQuery(db, seam, search(country)).compile());
        assert.match(text, /companies_name_core_visible/);
        assert.doesNotMatch(text, /SCAN companies\b(?! USING)|Seq Scan/);
      });

      for (const part of ['prefix', 'rest'] as const)
        test(`the rank walk for ${part} matches reads the rank index in order, never the table (country ${country})`, async () => {
          const { db, seam } = database.engine;
          const text = await planOf(rankWalkQuery(db, seam, search(country), 5, 30_000, part).compile());
          if (engine.name === 'sqlite') {
            assert.match(text, /USING COVERING INDEX companies_rank_visible/);
            assert.doesNotMatch(text, /TEMP B-TREE/);
          } else {
            assert.match(text, /Index (Only )?Scan using companies_rank_visible/);
            assert.doesNotMatch(text, /Sort/);
          }
        });
    }

    if (engine.name === 'postgres')
      test('the rank walk kept prepared: its plan made once for any words still reads the rank index in order', async () => {
        const { db, seam } = database.engine;
        const compiled = rankWalkRowsQuery(db, seam, search('TR'), 5, 30_000, 'rest').compile();
        const values = compiled.parameters.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`));
        const plan = await db.transaction().execute(async (trx) => {
          // The plan PostgreSQL keeps for a named statement once it stops planning per call.
          await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
          await sql.raw(`PREPARE walk_generic AS ${compiled.sql}`).execute(trx);
          const explained = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE walk_generic(${values.join(', ')})`).execute(trx);
          await sql`DEALLOCATE walk_generic`.execute(trx);
          return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        assert.match(plan, /Index (Only )?Scan using companies_rank_visible/);
        assert.match(plan, /Index Scan using companies_pkey/);
        assert.doesNotMatch(plan, /Seq Scan/);
      });

    if (engine.name === 'postgres')
      test('the rank walk is planned once per connection, not on every call', async () => {
        // One connection: the statements are prepared on it once.
        const single = openEngine(database.url, { poolSize: 1 });
        after(() => single.close());
        const { db } = single;
        const seam = seamFor('postgres');
        const words = ['lojistik', 'tekstil', 'gida', 'insaat', 'nakliyat', 'metal', 'tarim', 'enerji', 'ambalaj', 'anadolu'];
        for (const word of words) {
          const one = { indexedWords: [word], otherWords: [], core: word, country: 'TR', limit: 11 };
          for (const part of ['prefix', 'rest'] as const) await runKeptPrepared(db, rankWalkRowsQuery(db, seam, one, 11, 30_000, part));
        }
        const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`SELECT generic_plans::int, custom_plans::int
          FROM pg_prepared_statements WHERE statement LIKE '%as "walk"%' ORDER BY statement`.execute(db);
        // A kept statement runs with its generic plan from its first run (db/plan-cache-mode.ts):
        // never planned for its values. (Under `auto`, PostgreSQL plans it with its values 5
        // times, then keeps the plan made without them unless that one is costed higher, as the
        // walk's was at 10^6 with LIMIT $n and LIKE patterns.)
        const once = { generic_plans: words.length, custom_plans: 0 };
        assert.deepEqual(rows, [once, once]);
      });

    for (const country of [null, 'TR'])
      test(`near-match candidates: each alternative is one look-up with all its pieces, never a filter of many rows (D25, country ${country})`, async () => {
        const { db, seam } = database.engine;
        // 'lojistik' intact, 'anadoxlu' misspelt: one group, an alternative per damaged position.
        const groups = nearMatchGroups(['lojistik', 'anadoxlu'], 1);
        const alternatives = groups.flatMap((g) => g.any.map((list) => [...g.all, ...list]));
        assert.ok(alternatives.length >= 3);
        const text = await planOf(nearMatchCandidatesQuery(db, seam, { groups, country, limit: 1000 }).compile());
        if (engine.name === 'sqlite') {
          // The index drives a loop over its matches that joins each to its company (and stops
          // at the limit), instead of listing every match first.
          assert.match(text, /SCAN f VIRTUAL TABLE INDEX[^\n]*\nSEARCH v USING INTEGER PRIMARY KEY/);
          assert.doesNotMatch(text, /SCAN (companies|v)\b(?! USING)/);
        } else {
          // Asked as one condition with ORs, the planner looked up only 'lojistik' and
          // filtered every row holding it (10^4 at 10^6 companies).
          const looked = text.split('\n').filter((line) => /Index Cond: .*~~/.test(line));
          assert.equal(looked.length, alternatives.length, text);
          looked.forEach((line, i) => assert.equal(line.match(/~~/g)!.length, alternatives[i]!.length, line));
        }
      });

    for (const country of [null, 'TR'])
      test(`near-match candidates of one alternative: one look-up with all its pieces, each row read once (D25, country ${country})`, async () => {
        const { db, seam } = database.engine;
        // 'anadoxlu' misspelt at its last letters, corrected to 'anadolu': one group, one alternative.
        const groups = [{ all: ['anadolu', 'lojistik'], any: [] }];
        const text = await planOf(nearMatchCandidatesQuery(db, seam, { groups, country, limit: 1000 }).compile());
        if (engine.name === 'sqlite') {
          assert.match(text, /SCAN f VIRTUAL TABLE INDEX[^\n]*\nSEARCH v USING INTEGER PRIMARY KEY/);
        } else {
          const looked = text.split('\n').filter((line) => /Index Cond: .*~~/.test(line));
          assert.equal(looked.length, 1, text);
          assert.equal(looked[0]!.match(/~~/g)!.length, 2, text);
          // Not the IN (SELECT id …) of several alternatives: no second read of the rows by id.
          assert.doesNotMatch(text, /companies_pkey/, text);
        }
      });

    test('whether a name holds a misspelt word: the index is asked for one trigram, the word checked whole on its rows (D25)', async () => {
      const { db, seam } = database.engine;
      const text = await planOf(seam.queryWordLookup('anadoxlu', 'dox', ['anadolu', 'anadoxu']).compile(db));
      if (engine.name === 'sqlite') {
        assert.match(text, /SCAN f VIRTUAL TABLE INDEX[^\n]*\nSEARCH c USING INTEGER PRIMARY KEY/);
      } else {
        const looked = text.split('\n').filter((line) => /Index Cond: .*~~/.test(line));
        assert.equal(looked.length, 1, text);
        assert.match(looked[0]!, /'%dox%'/, text);
        assert.doesNotMatch(text, /anadoxlu[^\n]*~~|~~[^\n]*anadoxlu/, text);
      }
    });

    test('whether a name holds a query word: exact, and on SQLite from the word index, not every name holding a trigram (D25)', async () => {
      const { db, seam } = database.engine;
      const executor = db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
      const original = executor.executeQuery;
      const statements: string[] = [];
      executor.executeQuery = function (this: unknown, q, id) {
        statements.push(q.sql);
        return original.call(this, q, id);
      };
      try {
        // No name holds 'anadoxlu'; 'anadolu' is a name word, 'anadoxu' is not.
        const absent = await lookUpQueryWord(db, seam, 'anadoxlu', ['anadolu', 'anadoxu']);
        assert.deepEqual({ present: absent.present, known: [...absent.known] }, { present: false, known: ['anadolu'] });
        // 'ojist' is in every 'lojistik' name.
        assert.equal((await lookUpQueryWord(db, seam, 'ojist', ['lojist'])).present, true);
        // A piece of a legal-form word ('imit' of 'limited') is in no name here.
        assert.equal((await lookUpQueryWord(db, seam, 'imit', [])).present, false);
      } finally {
        executor.executeQuery = original;
      }
      if (engine.name === 'sqlite') {
        // The names' words (name_word_trigrams) and the word index, not the substring index,
        // which read every name holding the word's trigram when none held the word.
        const bySubstrings = statements.filter((s) => s.includes('company_name_fts'));
        assert.equal(bySubstrings.length, 1, statements.join('\n'));
        assert.match(bySubstrings[0]!, /instr\(c\.name_key/);
      }
    });

    test('the candidate count comes from the trigram index', async () => {
      const { db, seam } = database.engine;
      const text = await planOf(seam.nameCandidateIds(['demir', 'lojistik'], 2001).compile(db));
      assert.match(text, engine.name === 'sqlite' ? /SCAN company_name_fts VIRTUAL TABLE INDEX/ : /companies_name_key_trgm/);
    });
  });
}

/** Inlines parameters so that EXPLAIN sees the query exactly (values are plain strings here). */
function inline(text: string, parameters: readonly unknown[]): string {
  let i = 0;
  return text.replace(/\?|\$\d+/g, () => {
    const value = parameters[i++];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}
