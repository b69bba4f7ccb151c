/**
 * Everything that differs between SQLite and PostgreSQL at run time, in one small seam (STYLE:
 * "two engines, one code path"): how a name query uses the name-search index, the bulk-load
 * steps of a write session, and the copy's fix-ups. Runtime fragments only: the migrations hold
 * their own DDL (frozen), so editing this file never changes an existing schema.
 */
import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from './types.ts';
import type { NearMatchGroup } from '../search/near-match-score.ts';

export type EngineKind = 'sqlite' | 'postgres';

/** The name sample's advice on what to ask the substring index for (search/name-sample.ts). */
export interface LookupAdvice {
  /** The piece's trigram found in the fewest sampled names. */
  readonly rarest: (piece: string) => string;
  /** For names holding every piece: the pieces' rarest trigrams, the common ones left out while two rarer ones remain. */
  readonly lookupTerms: (pieces: readonly string[]) => string[];
  /** A few of the word's rarest trigrams: what the look-up among the names' distinct words asks for. */
  readonly rarestTrigrams: (word: string) => string[];
}

/** An FTS5 query of near matches' candidates and the index that answers it (SQLite). */
export interface NearMatchIndexQuery {
  readonly index: 'company_near_fts' | 'company_name_fts';
  readonly match: string;
}

/**
 * Query words of two characters for `nameCandidateIds` to look up too: a trigram index cannot
 * find two letters, but a key that holds them and a word of 3+ characters is longer than them,
 * so one of its trigrams holds them: the two and the character after, or, at the key's end, the
 * character before and the two. `characters`: every character a key may hold but the space
 * (search/name-vocabulary.ts). The candidates are then those holding each of `words` too.
 */
export interface TwoLetterLookup {
  readonly words: readonly string[];
  readonly characters: readonly string[];
}

/** SQLite: the trigrams that can hold `word` (two characters) in a key longer than it (TwoLetterLookup). */
export function piecesHolding(word: string, characters: Iterable<string>): string[] {
  const pieces = new Set<string>();
  for (const c of [' ', ...characters]) pieces.add(word + c).add(c + word);
  return [...pieces];
}

/**
 * PostgreSQL: the same trigrams as one regular expression with a class of the characters, which
 * pg_trgm turns into index look-ups ANDed with the other words' in one scan (as ~74 `LIKE`s
 * ORed, the planner filtered on them row by row for `hu alışveriş merkezleri`: 139 ms, 8 so).
 * Keys hold only letters, digits and single spaces: none is special in a class. Null when the
 * word or a character is something else (the word is then checked on the rows only).
 */
function holdingPattern(word: string, characters: readonly string[]): string | null {
  const plain = /^[\p{L}\p{N}]$/u;
  if (![...word].every((c) => plain.test(c))) return null;
  const others = [' ', ...characters.filter((c) => plain.test(c))].join('');
  return `(${word}[${others}]|[${others}]${word})`;
}

/** What near-match candidates the caller keeps (nameKeyContainsAny). */
export interface NearMatchBounds {
  limit: number;
  country: string | null;
}

export interface DialectSeam {
  readonly kind: EngineKind;
  /**
   * Whether `nameCandidateIds` with an `indexTerm` returns a superset of the matches (SQLite),
   * or always exactly the companies holding every word (PostgreSQL), which callers may rely on.
   */
  readonly indexTermOverSelects: boolean;
  /**
   * A condition on `companies` that holds when every word (each 3+ characters, D8) occurs in
   * `companies.name_key`, written so that the engine answers it from the index.
   */
  nameKeyContainsAll(words: readonly string[]): Expression<SqlBool>;
  /**
   * Ids of up to `limit` companies (visible or not) whose `name_key` holds every word, straight
   * from the substring index: how many there are decides the name search's strategy. With
   * `indexTerm`, only that part of each word (a rare trigram) is looked up in the index: on
   * SQLite a superset of the matches, which the caller checks against the whole words;
   * PostgreSQL checks them itself (indexTermOverSelects).
   */
  nameCandidateIds(words: readonly string[], limit: number, indexTerm?: (word: string) => string, twoLetter?: TwoLetterLookup): RawBuilder<{ id: number }>;
  /**
   * Ids of up to `limit` companies (visible or not) whose `name_core` holds, for every word, a
   * word of the names that contains it: the names' words holding each query word come from a
   * trigram index over the distinct words (company_name_words), the companies from the word
   * index (migration 0012). Exactly the companies whose `name_key` holds every word, provided
   * no word is part of a legal-form or filler word (those are not in `name_core`: the caller
   * takes another path). A word no name's word holds: none. `trigrams`: which of a word's
   * trigrams to look its name words up by (all when absent). Null when a word is held by more
   * than MAX_NAME_WORDS_PER_QUERY_WORD of the names' words (take the substring index instead),
   * and always on PostgreSQL, which has no word index (migration 0012 says why).
   */
  wordCandidateIds(db: Db, words: readonly string[], limit: number, trigrams?: (word: string) => string[]): Promise<number[] | null>;
  /**
   * A condition on `companies` that holds when, for at least one group, `name_key` holds every
   * piece of `all` and every piece of one list in `any` (pieces: 3+ letters or digits), answered
   * from the substring index: the candidates of near matches (D25), of which the caller takes
   * at most `bounds.limit` with a visible report, in `bounds.country` when given (the lowest
   * ids: the caller orders by id, and each part of the condition that stops early takes its
   * own lowest ids). With the
   * name sample's `advice`, the index is asked for rare trigrams only: SQLite, whose FTS5 reads
   * a common trigram's whole doclist, for `lookupTerms` and returns that superset, which the
   * caller scores anyway; PostgreSQL, whose index intersects posting lists itself while a wider
   * bitmap costs heap reads, for each piece's `rarest`, and checks each piece whole.
   */
  nameKeyContainsAny(groups: readonly NearMatchGroup[], bounds: NearMatchBounds, advice?: LookupAdvice): Expression<SqlBool>;
  /**
   * SQLite: the same look-up as `nameKeyContainsAny`, as an FTS5 query and the index to ask it
   * of, to join the companies' rows to (search/near-matches.repository.ts: each candidate's row is
   * then read once, not once to check it and again by id): `company_near_fts` (the visible
   * companies' trigrams, migration 0025) when every term is one trigram (with the name sample's
   * advice), else `company_name_fts` (a longer piece is a phrase, which only it answers); the
   * same names with a visible report either way. PostgreSQL: null (its condition already reads
   * each row once).
   */
  nearMatchIndexQuery(groups: readonly NearMatchGroup[], advice?: LookupAdvice): NearMatchIndexQuery | null;
  /**
   * SQLite: the FTS5 query of the word index (company_word_fts, migration 0012) for the names
   * holding, as whole words, every word of one of `corrections` (a misspelt word's corrections,
   * search/near-match-score.ts): near-match candidates from those few names' postings instead of
   * the trigram doclists of every name holding a piece of them. PostgreSQL: null (no word index).
   */
  nearMatchWordQuery(corrections: ReadonlyArray<readonly string[]>): string | null;
  /**
   * The names' words (company_name_words) with ids larger than `afterId`, by id, at most `limit`,
   * and the largest id there is: how each process's vocabulary (search/name-vocabulary.ts)
   * catches up. Words are only added, each with a larger id than every word before it
   * (SQLite: the rowid of name_word_trigrams, migration 0012; PostgreSQL: migration 0020's id).
   */
  vocabularySince(db: Db, afterId: number, limit: number): Promise<{ rows: Array<{ id: number; word: string }>; maxId: number }>;
  /** How many words company_name_words holds. */
  vocabularySize(db: Db): Promise<number>;
  /**
   * One row: `present`, whether some `name_key` holds `word`, and `known`, those of `words` that
   * company_name_words holds (one parameter, any count: a misspelt word has ~800 one-edit
   * variants), as an array (PostgreSQL) or its JSON (SQLite). The substring index is asked for
   * `indexTerm` (the word's rarest trigram), and the names it returns are checked for the whole
   * word: asked for the whole word, PostgreSQL read the posting lists of all its trigrams
   * (`ozdemroglu`: 1.1 ms, 0.32 with `emr`). `indexTerm` null: the caller knows no name holds
   * the word (the word index said so), and `present` is false without a look-up.
   */
  queryWordLookup(word: string, indexTerm: string | null, words: readonly string[]): RawBuilder<{ present: unknown; known: unknown }>;
  /**
   * A condition that holds when `name_key` (of the query's row source) holds `text`: a plain
   * substring test that no index answers and no planner estimates from the column's statistics,
   * for filters on rows read in another order (the rank walk).
   */
  nameKeyHolds(text: string): Expression<SqlBool>;
  /** A condition that holds when `companies.id` is one of `ids` (one parameter, any count). */
  idIn(ids: readonly number[]): Expression<SqlBool>;
  /** idIn with its one parameter given: `idList(ids)`, or a prepared query's placeholder for it (db/prepared.ts). */
  idInList(list: unknown): Expression<SqlBool>;
  /** `ids` as the one parameter of idIn binds them. */
  idList(ids: readonly number[]): unknown;
  /**
   * PostgreSQL: a column of a select from `companies` that holds, when `companies.id` is in
   * `wanted` (one parameter, as idList binds it), the company's approved reports, newest first
   * (filed_at, then id, descending), each as a JSON array of `columns` in order (an empty array
   * for none); otherwise null. A name search then reads its shown rows and their reports in one
   * statement: a round trip fewer (search/shown-rows.repository.ts). SQLite: none (a statement
   * is a call in-process, two cost no round trip).
   */
  readonly activeReportsWith: ((wanted: unknown, columns: readonly string[]) => RawBuilder<unknown>) | null;
  /**
   * A condition that holds when `companies.name_core` starts with `core` (keys hold only
   * letters, digits and single spaces), answered from the prefix index.
   */
  nameCoreStartsWith(core: string): Expression<SqlBool>;
  /**
   * The indexes on `tables` that no constraint needs, each with the statement that creates it
   * again exactly (a fresh import drops them and builds them once at the end).
   */
  secondaryIndexes(db: Db, tables: readonly string[]): Promise<Array<{ name: string; sql: string }>>;
  /**
   * After a large load: the planner's statistics and (PostgreSQL) the visibility map, so that
   * name search plans on the indexes and reads them index-only. Without them PostgreSQL planned
   * the rank walk at 10^5 companies as a sort of the table: 930 ms instead of 0.4 ms.
   */
  refreshStatistics(db: Db, tables: readonly string[]): Promise<void>;
  /** After rows were inserted with explicit ids: the next generated id follows the largest. */
  resetIdSequences(db: Db, tables: readonly string[]): Promise<void>;
  /**
   * The triggers on `tables` a fresh load drops (db/write-session.ts), each with its table and
   * the statement that creates it again exactly: SQLite's per-row ones but the name words' on
   * a rename (it only adds words, and a fresh load's rename must add them too). PostgreSQL's run
   * once per statement: the name words' on insert, which rebuildNameIndex stands in for, and
   * the data version's, which the session's close bumps once.
   */
  perRowTriggers(db: Db, tables: readonly string[]): Promise<Array<{ name: string; table: string; sql: string }>>;
  /**
   * Sets or clears the bulk-load marker (SQLite: the `fts_bulk_load` row, seen only inside the
   * transaction) that keeps the per-row triggers quiet. Only db/write-session.ts calls this.
   */
  markBulkLoad(db: Db, active: boolean): Promise<void>;
  /**
   * Builds the name-search index again from `companies` (SQLite's FTS table; PostgreSQL's is an
   * ordinary index), and adds the names' words to company_name_words. Only after a fresh load
   * (PostgreSQL's ordinary index needs no rebuild, and its words' trigger was dropped for it).
   * `words`: every word of the names the load inserted, when the bulk writer kept them (SQLite:
   * then they are not split out of every name again). SQLite's indexes end compacted (compactNameIndexes).
   * `built`: puts in place SQLite's indexes a thread built from every company meanwhile and names
   * them (db/fresh-name-indexes.ts); those are not rebuilt.
   */
  rebuildNameIndex(db: Db, words: readonly string[] | null, built?: () => Promise<readonly string[]>): Promise<void>;
  /** Throws when the name-search index does not match `companies` (after a copy; PostgreSQL's cannot drift). */
  checkNameIndex(db: Db): Promise<void>;
  /**
   * SQLite: merges each FTS5 index of the names into one segment (FTS5's `optimize`), after a load
   * that wrote many of them (a fresh load, a copy): a query term is looked up in every segment,
   * and a load of 10^6 names left 6–9 (docs/benchmarks.md, "The name indexes in one segment").
   * PostgreSQL: nothing (its name index is a GIN index).
   */
  compactNameIndexes(db: Db): Promise<void>;
  /**
   * A queue's claim (src/webhooks/deliveries.repository.ts): the SELECT passes over rows another
   * transaction holds and locks those it returns until commit (PostgreSQL `FOR UPDATE SKIP
   * LOCKED`), so processes claiming at once never take the same row. SQLite has one writer at a
   * time (BEGIN IMMEDIATE) and nothing to skip: the query is left as it is.
   */
  claimRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
}

/** Near-match candidates hold a group's `all` pieces and one of its `any` lists: each such list of pieces. */
const alternativesOf = (groups: readonly NearMatchGroup[]) => groups.flatMap((g) => (g.any.length > 0 ? g.any.map((list) => [...g.all, ...list]) : [g.all]));

/** Whether every term of `a` is in `b`. */
const isSubset = (a: readonly string[], b: readonly string[]) => a.every((t) => b.includes(t));

/**
 * A word of a query held by more of the names' words than this (a short common piece: `kar`
 * is in thousands) is better served by the substring index of the names: the word index would
 * OR the postings of every one of them.
 */
export const MAX_NAME_WORDS_PER_QUERY_WORD = 200;

/** SQLite: the name words that may hold `w` (all its trigrams), checked whole. */
const sqliteWordsHolding = (w: string, i: number, trigrams: readonly string[]) =>
  sql`SELECT ${i} AS i, word FROM name_word_trigrams WHERE name_word_trigrams MATCH ${trigramMatch(trigrams)} AND instr(word, ${w}) > 0`;
/**
 * For each query word, the names' words that hold it (one statement: `select(word, i)` per word,
 * each a superset limited to one more than the bound); null when one word has too many.
 */
async function namesWordsHolding(
  db: Db,
  words: readonly string[],
  select: (word: string, i: number, trigrams: readonly string[]) => RawBuilder<unknown>,
  trigrams: (word: string) => string[] = allTrigrams,
): Promise<string[][] | null> {
  const bound = MAX_NAME_WORDS_PER_QUERY_WORD + 1;
  const { rows } = await sql<{ i: number; word: string }>`${sql.join(
    words.map((w, i) => sql`SELECT * FROM (${select(w, i, trigrams(w))} LIMIT ${bound}) AS w${sql.raw(String(i))}`),
    sql` UNION ALL `,
  )}`.execute(db);
  const byWord = words.map((): string[] => []);
  for (const r of rows) byWord[Number(r.i)]!.push(r.word);
  return byWord.some((list) => list.length >= bound) ? null : byWord;
}

/** Every trigram of a word (3+ characters), once, by code point. */
const allTrigrams = (word: string) => {
  const chars = [...word];
  return [...new Set(Array.from({ length: chars.length - 2 }, (_, i) => chars.slice(i, i + 3).join('')))];
};

/** SQLite: an FTS5 query for the words of name_word_trigrams holding all `trigrams` (detail none: no phrases). */
const trigramMatch = (trigrams: readonly string[]) => trigrams.map((t) => `"${t}"`).join(' AND ');

/**
 * SQLite: adds the words of the `name_core` of the companies `where` selects (as `c`) to
 * company_name_words (migration 0007), for loads that keep its per-row trigger quiet.
 */
export const sqliteAddNameWords = (where: string) =>
  // Keys hold only letters, digits and single spaces: the JSON array needs no escaping.
  `INSERT OR IGNORE INTO company_name_words (word) SELECT DISTINCT j.value FROM companies c,
    json_each('["' || replace(c.name_core, ' ', '","') || '"]') j WHERE j.value <> '' AND ${where}`;

/**
 * SQLite: adds the keys of the companies `where` selects (as `c`) that have a visible report to
 * near matches' index (migration 0025), for loads that keep its per-row trigger quiet. In id
 * order (`+ 0`: not by a partial index in name order), which FTS5 takes several times faster.
 */
export const sqliteAddNearMatchKeys = (where: string) =>
  `INSERT INTO company_near_fts (rowid, name_key) SELECT c.id, c.name_key FROM companies c WHERE c.visible_report_count + 0 > 0 AND ${where} ORDER BY c.id`;

/** SQLite: the same for near matches' word index (migration 0026): the visible companies' `name_core`, in id order. */
export const sqliteAddNearMatchWords = (where: string) =>
  `INSERT INTO company_near_word_fts (rowid, name_core) SELECT c.id, c.name_core FROM companies c WHERE c.visible_report_count + 0 > 0 AND ${where} ORDER BY c.id`;

/** vocabularySince's rows: the words, then one row of the largest id (NULL word). */
function vocabularyRows(rows: ReadonlyArray<{ id: number | string | null; word: string | null }>) {
  const words = rows.filter((r) => r.word !== null).map((r) => ({ id: Number(r.id), word: r.word! }));
  const last = rows[rows.length - 1];
  return { rows: words, maxId: last && last.word === null ? Number(last.id ?? 0) : 0 };
}

/** Name words a statement when a fresh load's words are added from a list (SQLite). */
const WORDS_PER_STATEMENT = 10_000;

/** SQLite: every FTS5 index of the names (migrations 0001, 0007, 0012, 0025, 0026). */
export const SQLITE_NAME_INDEXES = ['company_name_fts', 'company_word_fts', 'company_near_fts', 'company_near_word_fts', 'name_word_trigrams'] as const;

/**
 * SQLite: FTS5's settings while a fresh load builds the name indexes (issue 28). A 64 MB table of
 * pending terms instead of FTS5's 1 MB, so the build writes far fewer segments, and no merging
 * while it writes them (automerge 0): the `optimize` that ends the build merges them, once. At
 * 10^6 names the builds with their optimize took 11.1–12.1 s against 13.8–15.8 s (three
 * alternating pairs, docs/benchmarks.md). Its cost is memory while the load ends: pending terms
 * are written out when they pass the size, at the `optimize` or at the commit, so the indexes'
 * tables may all be filled at once (an import's peak at 10^6 in docs/benchmarks.md).
 * Both are kept in each index's config table, so they are set back to FTS5's defaults after the
 * optimize: a later write to an index merges and flushes as before.
 */
export const FTS5_BUILD_SETTINGS = { hashsize: 64 * 1024 * 1024, automerge: 0 } as const;
const FTS5_DEFAULT_SETTINGS = { hashsize: 1024 * 1024, automerge: 4 } as const;

async function setNameIndexSettings(db: Db, settings: { hashsize: number; automerge: number }): Promise<void> {
  for (const index of SQLITE_NAME_INDEXES) {
    for (const [name, value] of Object.entries(settings)) {
      // Literals: FTS5 takes an integer only, and a bound JavaScript number arrives as a real.
      await sql`INSERT INTO ${sql.table(index)} (${sql.ref(index)}, rank) VALUES (${sql.lit(name)}, ${sql.raw(String(Math.trunc(value)))})`.execute(db);
    }
  }
}

/**
 * SQLite: the name indexes from `companies` after a fresh load (rebuildNameIndex), and the names'
 * words (their trigrams by trigger). Those that depend on no other thread first: `built` waits for
 * the indexes a thread builds meanwhile (db/fresh-name-indexes.ts) and puts them in place; the
 * others are rebuilt here.
 */
async function buildSqliteNameIndexes(db: Db, words: readonly string[] | null, built: () => Promise<readonly string[]>): Promise<void> {
  await sql`INSERT INTO company_near_fts (company_near_fts) VALUES ('delete-all')`.execute(db);
  await sql.raw(sqliteAddNearMatchKeys('1')).execute(db);
  await sql`INSERT INTO company_near_word_fts (company_near_word_fts) VALUES ('delete-all')`.execute(db);
  await sql.raw(sqliteAddNearMatchWords('1')).execute(db);
  if (words === null) await sql.raw(sqliteAddNameWords('1')).execute(db);
  else {
    // Sorted, a chunk per statement: 0.8 s of CPU at 10^5 names split in SQL (json_each, then
    // a sort for DISTINCT) against ~0.1 s (docs/benchmarks.md).
    for (let i = 0; i < words.length; i += WORDS_PER_STATEMENT) {
      const chunk = words.slice(i, i + WORDS_PER_STATEMENT);
      await sql`INSERT OR IGNORE INTO company_name_words (word) SELECT value FROM json_each(${JSON.stringify(chunk)})`.execute(db);
    }
  }
  const installed = await built();
  if (!installed.includes('company_name_fts')) await sql`INSERT INTO company_name_fts (company_name_fts) VALUES ('rebuild')`.execute(db);
  if (!installed.includes('company_word_fts')) await sql`INSERT INTO company_word_fts (company_word_fts) VALUES ('rebuild')`.execute(db);
}

const sqliteSeam: DialectSeam = {
  kind: 'sqlite',
  indexTermOverSelects: true,
  nameKeyContainsAll(words) {
    // Keys hold only letters, digits and single spaces, so a quoted phrase needs no escaping.
    const match = words.map((w) => `"${w}"`).join(' AND ');
    return sql<SqlBool>`companies.id IN (SELECT rowid FROM company_name_fts WHERE company_name_fts MATCH ${match})`;
  },
  nameCandidateIds(words, limit, indexTerm = (w) => w, twoLetter) {
    // Keys hold only letters, digits and single spaces: a quoted piece needs no escaping.
    const oneOf = (twoLetter?.words ?? []).map(
      (w) =>
        `(${piecesHolding(w, twoLetter!.characters)
          .map((p) => `"${p}"`)
          .join(' OR ')})`,
    );
    const match = [...words.map((w) => `"${indexTerm(w)}"`), ...oneOf].join(' AND ');
    return sql`SELECT rowid AS id FROM company_name_fts WHERE company_name_fts MATCH ${match} LIMIT ${limit}`;
  },
  async wordCandidateIds(db, words, limit, trigrams) {
    const byWord = await namesWordsHolding(db, words, sqliteWordsHolding, trigrams);
    if (byWord === null || byWord.some((list) => list.length === 0)) return byWord === null ? null : [];
    // Keys hold only letters, digits and single spaces: a quoted word needs no escaping.
    const match = byWord.map((list) => `(${list.map((w) => `"${w}"`).join(' OR ')})`).join(' AND ');
    const found = await sql<{ id: number }>`SELECT rowid AS id FROM company_word_fts WHERE company_word_fts MATCH ${match} LIMIT ${limit}`.execute(db);
    return found.rows.map((r) => Number(r.id));
  },
  nameKeyContainsAny(groups, { limit, country }, advice) {
    const { index, match } = sqliteSeam.nearMatchIndexQuery(groups, advice)!;
    // The index drives the loop and stops at `limit` kept candidates: as `id IN (MATCH)`, SQLite
    // first listed every match (a misspelt generic word at 10^6: 36,807, 8.7 ms against 3.8).
    const inCountry = country ? sql<SqlBool>` AND v.country || '' = ${country}` : sql<SqlBool>``;
    return sql<SqlBool>`companies.id IN (SELECT f.rowid FROM ${sql.table(index)} f JOIN companies v ON v.id = f.rowid
      WHERE ${sql.table(index)} MATCH ${match} AND v.visible_report_count + 0 > 0${inCountry} ORDER BY f.rowid LIMIT ${limit})`;
  },
  nearMatchIndexQuery(groups, advice) {
    // Each group once, its `all` terms outside its alternatives: FTS5 reads a term's doclist
    // once per place it is named, and written as one AND per alternative, a misspelt word's ten
    // corrections read the other words' doclists ten times (`ehisan enerji` at 10^6: 11 ms).
    const lookupTerms = advice ? advice.lookupTerms : (pieces: readonly string[]) => [...pieces];
    const terms = (pieces: readonly string[]) => [...new Set(lookupTerms(pieces))].sort();
    const and = (ts: readonly string[]) => ts.map((t) => `"${t}"`).join(' AND ');
    const parts = new Set<string>();
    let phrases = false;
    for (const g of groups) {
      const common = g.all.length > 0 ? terms(g.all) : [];
      const lists = g.any.map((list) => terms(list).filter((t) => !common.includes(t)));
      // A list whose terms `all` already asks for: the group is `all` alone.
      const minimal = lists.some((l) => l.length === 0)
        ? []
        : lists.filter((a, i) => !lists.some((b, j) => j !== i && isSubset(b, a) && (b.length < a.length || j < i)));
      const or = minimal.map((l) => (l.length === 1 ? `"${l[0]}"` : `(${and(l)})`)).join(' OR ');
      if (common.length === 0 && or === '') continue;
      parts.add(common.length === 0 ? `(${or})` : or === '' ? `(${and(common)})` : `(${and(common)} AND (${or}))`);
      for (const t of [...common, ...minimal.flat()]) if ([...t].length !== 3) phrases = true;
    }
    // Trigrams only: the visible companies' index (migration 0025), whose doclists are less than
    // half as long and hold no hidden company to read and drop (docs/benchmarks.md, sqlnear28).
    return { index: phrases ? 'company_name_fts' : 'company_near_fts', match: [...parts].join(' OR ') };
  },
  nearMatchWordQuery(corrections) {
    // Keys hold only letters, digits and single spaces: a quoted word needs no escaping.
    return corrections.map((words) => (words.length === 1 ? `"${words[0]}"` : `(${words.map((w) => `"${w}"`).join(' AND ')})`)).join(' OR ');
  },
  async vocabularySince(db, afterId, limit) {
    // The words' trigram table (filled by a trigger on every word added) numbers them in the
    // order they came, read by rowid range. The CAST: FTS5 ignores a rowid bound bound as a
    // double (as better-sqlite3 binds a number) and reads every word (68 ms at 10^6, 0.05 so).
    const { rows } = await sql<{ id: number; word: string | null }>`SELECT * FROM (SELECT rowid AS id, word FROM name_word_trigrams
      WHERE rowid > CAST(${afterId} AS INTEGER) ORDER BY rowid LIMIT ${limit}) UNION ALL SELECT (SELECT rowid FROM name_word_trigrams ORDER BY rowid DESC LIMIT 1), NULL`.execute(
      db,
    );
    return vocabularyRows(rows);
  },
  async vocabularySize(db) {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM company_name_words`.execute(db);
    return Number(rows[0]!.n);
  },
  queryWordLookup(word, indexTerm, words) {
    // The list drives the join (json_each, then the primary key): 0.49 ms for 770 words, 0.67
    // as `IN (SELECT …)`. Keys hold only letters, digits and spaces: a quoted phrase needs no escaping.
    const present =
      indexTerm === null
        ? sql`0`
        : sql`EXISTS (SELECT 1 FROM company_name_fts f JOIN companies c ON c.id = f.rowid
      WHERE company_name_fts MATCH ${`"${indexTerm}"`} AND instr(c.name_key, ${word}) > 0)`;
    const known = sql`(SELECT json_group_array(w.word) FROM json_each(${JSON.stringify(words)}) j JOIN company_name_words w ON w.word = j.value)`;
    return sql<{ present: unknown; known: unknown }>`SELECT ${present} AS present, ${known} AS known`;
  },
  nameKeyHolds: (text) => sql<SqlBool>`instr(name_key, ${text}) > 0`,
  idIn: (ids) => sql<SqlBool>`companies.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  idInList: (list) => sql<SqlBool>`companies.id IN (SELECT value FROM json_each(${list}))`,
  idList: (ids) => JSON.stringify(ids),
  activeReportsWith: null,
  nameCoreStartsWith(core) {
    // A range the index answers (SQLite's LIKE folds case, so it cannot), then the exact test;
    // U+10FFFF is the largest code point, so the range holds every key that starts with core.
    return sql<SqlBool>`(companies.name_core >= ${core} AND companies.name_core < ${`${core}\u{10FFFF}`} AND substr(companies.name_core, 1, ${[...core].length}) = ${core})`;
  },
  async secondaryIndexes(db, tables) {
    // sql is NULL for the indexes behind UNIQUE and PRIMARY KEY constraints.
    const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
      WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${sql.join(tables)}) ORDER BY name`.execute(db);
    return rows;
  },
  // SQLite plans without statistics (the name search's plans were tuned so, and tested).
  refreshStatistics: async () => {},
  // AUTOINCREMENT already follows the largest id inserted.
  resetIdSequences: async () => {},
  async perRowTriggers(db, tables) {
    const { rows } = await sql<{ name: string; table: string; sql: string }>`SELECT name, tbl_name AS "table", sql FROM sqlite_master
      WHERE type = 'trigger' AND tbl_name IN (${sql.join(tables)}) AND name <> 'companies_update_name_words' ORDER BY name`.execute(db);
    return rows;
  },
  async markBulkLoad(db, active) {
    await (active ? sql`INSERT INTO fts_bulk_load (active) VALUES (1)` : sql`DELETE FROM fts_bulk_load`).execute(db);
  },
  async rebuildNameIndex(db, words, built = () => Promise.resolve([])) {
    await setNameIndexSettings(db, FTS5_BUILD_SETTINGS);
    await buildSqliteNameIndexes(db, words, built);
    await sqliteSeam.compactNameIndexes(db);
    await setNameIndexSettings(db, FTS5_DEFAULT_SETTINGS);
  },
  async compactNameIndexes(db) {
    // One segment an index, at FTS5's top level. The old segments' pages become free pages of
    // the file, which later writes reuse (at 10^6: 1,698 of 459,956, ~7 MB).
    for (const index of SQLITE_NAME_INDEXES) await sql`INSERT INTO ${sql.table(index)} (${sql.ref(index)}) VALUES ('optimize')`.execute(db);
  },
  async checkNameIndex(db) {
    await sql`INSERT INTO company_name_fts(company_name_fts) VALUES ('integrity-check')`.execute(db);
    await sql`INSERT INTO company_word_fts(company_word_fts) VALUES ('integrity-check')`.execute(db);
    await sql`INSERT INTO company_near_fts(company_near_fts) VALUES ('integrity-check')`.execute(db);
    await sql`INSERT INTO company_near_word_fts(company_near_word_fts) VALUES ('integrity-check')`.execute(db);
  },
  claimRows: (query) => query,
};

const postgresSeam: DialectSeam = {
  kind: 'postgres',
  indexTermOverSelects: false,
  nameKeyContainsAll(words) {
    // Keys hold only letters, digits and spaces: no LIKE metacharacter can reach the pattern.
    const parts = words.map((w) => sql<SqlBool>`companies.name_key LIKE ${`%${w}%`}`);
    return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
  },
  nameCandidateIds(words, limit, indexTerm, twoLetter) {
    // With `indexTerm`, the index is asked for one rare trigram per word and each word is then
    // checked whole, outside the index: every trigram of every word made the index intersect
    // the posting lists of common ones (`ogl`, `glu` of every -oğlu name): the whole search
    // for `ozdemiroglu iplik` at 10^6 took 8.0 ms in-process, now 3.0. Exact either way.
    const looked = words.map((w) => sql<SqlBool>`name_key LIKE ${`%${indexTerm ? indexTerm(w) : w}%`}`);
    const whole = indexTerm ? words.map((w) => sql<SqlBool>`strpos(name_key, ${w}) > 0`) : [];
    const patterns = (twoLetter?.words ?? []).map((w) => holdingPattern(w, twoLetter!.characters)).filter((p) => p !== null);
    const held = patterns.map((p) => sql<SqlBool>`name_key ~ ${p}`);
    return sql`SELECT id FROM companies WHERE ${sql.join([...looked, ...held, ...whole], sql` AND `)} LIMIT ${limit}`;
  },
  // No word index on PostgreSQL (migration 0012 says why): the substring index answers.
  wordCandidateIds: () => Promise.resolve(null),
  nearMatchIndexQuery: () => null,

  nameKeyContainsAny(groups, { limit, country }, advice) {
    const lookupTerms = (pieces: readonly string[]) => (advice ? pieces.map(advice.rarest) : [...pieces]);
    // One SELECT per alternative (a group's pieces with one of its `any` lists), so that each is
    // one scan of the trigram index for all its terms. Written as one condition with ORs, the
    // planner looked up only the pieces every alternative shares and filtered the rest row by
    // row (a misspelt name at 10^6: 14,692 rows, 10,766 heap blocks, 18 ms). The index is asked
    // for each piece's rarest trigram (the name sample's: a common trigram's posting list
    // costs most), and each piece is then checked whole, outside the index; each
    // SELECT stops at `limit` (a generic word's alternatives hold 10^5 names).
    // Alternatives asking the index for the same terms share one SELECT.
    const byTerms = new Map<string, { terms: string[]; alternatives: string[][] }>();
    for (const pieces of alternativesOf(groups)) {
      const terms = [...new Set(lookupTerms(pieces))].sort();
      const entry = byTerms.get(terms.join(' ')) ?? { terms, alternatives: [] };
      entry.alternatives.push(pieces);
      byTerms.set(terms.join(' '), entry);
    }
    // As in the name search: neither the partial indexes nor the country index may lead.
    const bounded = [sql<SqlBool>`visible_report_count + 0 > 0`, ...(country ? [sql<SqlBool>`country || '' = ${country}`] : [])];
    const conditions = [...byTerms.values()].map(({ terms, alternatives }) => {
      const looked = terms.map((t) => sql<SqlBool>`name_key LIKE ${`%${t}%`}`);
      const whole = alternatives.map(
        (pieces) =>
          sql<SqlBool>`(${sql.join(
            pieces.map((p) => sql<SqlBool>`strpos(name_key, ${p}) > 0`),
            sql` AND `,
          )})`,
      );
      return [...looked, sql<SqlBool>`(${sql.join(whole, sql` OR `)})`];
    });
    // One SELECT: the condition itself (the caller bounds and limits it), which spares reading
    // each candidate twice, once to check it and once by id (0.93 → 0.73 ms for `ozdemiroglu iplik`).
    if (conditions.length === 1) return sql<SqlBool>`(${sql.join(conditions[0]!, sql` AND `)})`;
    // Each its lowest ids (near-match-lookups.ts, firstById), as the caller orders the whole.
    const selects = conditions.map((c) => sql`(SELECT id FROM companies WHERE ${sql.join([...c, ...bounded], sql` AND `)} ORDER BY id LIMIT ${limit})`);
    return sql<SqlBool>`companies.id IN (${sql.join(selects, sql` UNION ALL `)})`;
  },
  nearMatchWordQuery: () => null,
  async vocabularySince(db, afterId, limit) {
    const { rows } = await sql<{ id: string; word: string | null }>`SELECT * FROM (SELECT id, word FROM company_name_words
      WHERE id > ${afterId} ORDER BY id LIMIT ${limit}) AS w UNION ALL SELECT (SELECT max(id) FROM company_name_words), NULL`.execute(db);
    return vocabularyRows(rows);
  },
  async vocabularySize(db) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM company_name_words`.execute(db);
    return Number(rows[0]!.n);
  },
  queryWordLookup(word, indexTerm, words) {
    // The list as a join, sent as one string (words hold no space): 0.53 ms for 881 words, 0.72
    // as a text[] parameter, 1.15 as `= ANY(…)` (a round trip alone: 0.06).
    const present =
      indexTerm === null ? sql`false` : sql`EXISTS (SELECT 1 FROM companies WHERE name_key LIKE ${`%${indexTerm}%`} AND strpos(name_key, ${word}) > 0)`;
    const known = sql`ARRAY(SELECT word FROM unnest(string_to_array(${words.join(' ')}, ' ')) AS v(word) JOIN company_name_words USING (word))`;
    return sql<{ present: unknown; known: unknown }>`SELECT ${present} AS present, ${known} AS known`;
  },
  nameKeyHolds: (text) => sql<SqlBool>`strpos(name_key, ${text}) > 0`,
  idIn: (ids) => sql<SqlBool>`companies.id = ANY(${ids}::bigint[])`,
  idInList: (list) => sql<SqlBool>`companies.id = ANY(${list}::bigint[])`,
  idList: (ids) => ids,
  activeReportsWith: (wanted, columns) =>
    sql`CASE WHEN companies.id = ANY(${wanted}::bigint[]) THEN COALESCE((SELECT json_agg(json_build_array(${sql.join(columns.map((c) => sql.ref(`r.${c}`)))}) ORDER BY r.filed_at DESC, r.id DESC) FROM reports r WHERE r.company_id = companies.id AND r.status = 'approved'), '[]'::json) END`,
  // Keys hold no LIKE metacharacter.
  nameCoreStartsWith: (core) => sql<SqlBool>`companies.name_core LIKE ${`${core}%`}`,
  async secondaryIndexes(db, tables) {
    const { rows } = await sql<{ name: string; sql: string }>`SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename IN (${sql.join(tables)})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)
      ORDER BY i.indexname`.execute(db);
    return rows;
  },
  async refreshStatistics(db, tables) {
    // Outside any transaction (VACUUM refuses one); autovacuum may be late, or off.
    await sql.raw(`VACUUM (ANALYZE) ${tables.join(', ')}`).execute(db);
  },
  async resetIdSequences(db, tables) {
    for (const table of tables) {
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), COALESCE((SELECT MAX(id) FROM ${sql.table(table)}), 0) + 1, false)`.execute(db);
    }
  },
  // Its triggers run once per statement, but the name words' one, once per COPY of 500 rows,
  // inserted each chunk's words into the words' b-tree (a fifth of the companies' COPY at
  // 2×10^5): a fresh load adds them all at its end instead (rebuildNameIndex). The data
  // version's updated its one row once per COPY: in one transaction each update walks every
  // earlier version of that row (6,000 updates: 1.5 s); the session's close bumps it once.
  async perRowTriggers(db, tables) {
    if (!tables.includes('companies')) return [];
    const { rows } = await sql<{
      name: string;
      table: string;
      sql: string;
    }>`SELECT tgname AS name, tgrelid::regclass::text AS "table", pg_get_triggerdef(oid) AS sql FROM pg_trigger
      WHERE tgrelid::regclass::text IN (${sql.join(tables)})
        AND tgname IN ('companies_insert_name_words', 'companies_data_version', 'reports_data_version', 'companies_insert_changes',
          'companies_update_changes', 'companies_delete_changes', 'companies_truncate_changes') ORDER BY tgname`.execute(db);
    return rows;
  },
  // The change log's triggers (migration 0021) read this transaction-local setting; the others
  // run once per statement and stay on.
  async markBulkLoad(db, active) {
    await sql`SELECT set_config('risklookup.bulk_load', ${active ? 'on' : 'off'}, true)`.execute(db);
  },
  async rebuildNameIndex(db, words) {
    // Only after a fresh load (perRowTriggers): the words of every name, as migration 0007 adds them.
    if (words === null) {
      await sql`INSERT INTO company_name_words (word) SELECT DISTINCT w FROM companies, unnest(string_to_array(name_core, ' ')) AS w
        WHERE w <> '' ORDER BY w ON CONFLICT DO NOTHING`.execute(db);
      return;
    }
    // The bulk writer's list, sorted: no scan of every name, no sort for DISTINCT (docs/benchmarks.md).
    for (let i = 0; i < words.length; i += WORDS_PER_STATEMENT) {
      const chunk = words.slice(i, i + WORDS_PER_STATEMENT);
      await sql`INSERT INTO company_name_words (word) SELECT unnest(${chunk}::text[]) ON CONFLICT DO NOTHING`.execute(db);
    }
  },
  checkNameIndex: () => Promise.resolve(),
  compactNameIndexes: () => Promise.resolve(),
  claimRows: (query) => query.forUpdate().skipLocked(),
};

export function seamFor(kind: EngineKind): DialectSeam {
  return kind === 'sqlite' ? sqliteSeam : postgresSeam;
}
