import { sql, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { DialectSeam } from '../db/dialect-seam.ts';
import { COMPANY_ROW_COLUMNS, type CompaniesTable, type Database } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { preparedQuery, runKeptPrepared } from '../db/prepared.ts';
import { FILLER_WORDS } from './name-key.ts';
import { otherOrders, RANK_CLASS, RANK_TIES, RANK_TIES_OF_COMPANIES, reorderedCondition, wholeNameForms } from './name-rank.ts';

export type CompanyRow = Selectable<CompaniesTable>;

/** Companies under any of the canonical tax IDs (all countries), for the import's look-up. */
export async function findCompaniesByTaxIds(db: Db, taxIdNorms: readonly string[]): Promise<CompanyRow[]> {
  if (taxIdNorms.length === 0) return [];
  return db.selectFrom('companies').selectAll().where('tax_id_norm', 'in', taxIdNorms).execute();
}

/** The companies among `ids` (any order, any visibility). */
export async function findCompaniesById(db: Db, seam: DialectSeam, ids: readonly number[]): Promise<CompanyRow[]> {
  if (ids.length === 0) return [];
  return companiesByIdQuery(db, [seam.idList(ids)], seam);
}

/** Every fresh name search's shown rows (the index of names): kept compiled, one parameter whatever the count. */
const companiesByIdQuery = preparedQuery((db, p, seam: DialectSeam) =>
  db
    .selectFrom('companies')
    .select(COMPANY_ROW_COLUMNS)
    .where(seam.idInList(p(0))),
);

export async function updateCompany(db: Db, id: number, changes: Updateable<CompaniesTable>): Promise<void> {
  await db.updateTable('companies').set(changes).where('id', '=', id).execute();
}

export async function countCompanies(db: Db): Promise<number> {
  const row = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NameSearch {
  /** Query words of 3+ characters: answered by the substring index. */
  indexedWords: string[];
  /** Shorter query words: checked on the rows the index found. */
  otherWords: string[];
  /** The query's words joined, compared with `name_core` for ranking (D8). */
  core: string;
  country: string | null;
  limit: number;
}

/**
 * The D8 name query that ranks every match, best first (D8, D10): the reference answer, and
 * the last resort of `findCompaniesByName`. Only companies with a visible report are candidates.
 */
export function nameSearchQuery(db: Db, seam: DialectSeam, search: NameSearch) {
  return rankedQuery(matchesAll(db, search).selectAll().where(VISIBLE_NOT_FROM_INDEX).where(seam.nameKeyContainsAll(search.indexedWords)), search.core).limit(
    search.limit,
  );
}

export interface NameSearchTuning {
  /**
   * Fewer candidates than this: rank them all. More: the matches are dense enough that the
   * first ones in rank order turn up within a short walk of the rank index.
   */
  candidateCap: number;
  /** How far the rank-order walk goes (index entries) before the exact query takes over. */
  walkWindow: number;
  /** The part of a word to look up in the substring index (see name-sample.ts); all of it when absent. */
  indexTerm?: (word: string) => string;
  /** Companies matching every word, estimated; far above the cap skips straight to step 2. */
  estimatedMatches?: (words: readonly string[]) => number;
  /** Which of a word's trigrams its look-up among the names' words asks for (all when absent). */
  wordTrigrams?: (word: string) => string[];
  /** Companies whose name starts with the query, estimated; far above the cap walks for them too. */
  estimatedPrefixMatches?: (core: string) => number;
  /** Companies in all, estimated: how dense the prefix matches are along the rank index. */
  estimatedCompanies?: () => number;
  /**
   * Every character a name key may hold but the space (the names' words' letters and digits,
   * which include the fillers' `a`–`z`): a query word of two characters is then looked up in the
   * substring index too, as the trigrams that can hold it (db/dialect-seam.ts, TwoLetterLookup).
   * Absent: such a word is only checked on the rows the others found.
   */
  keyCharacters?: () => Iterable<string>;
}

/**
 * A kept-prepared statement stays on each connection for good: the ranking of candidates is kept
 * so only for queries of at most this many words (a few SQL texts per word count: country or
 * not, a word repeated or not).
 */
const MAX_KEPT_WORDS = 6;

/**
 * A two-character query word that more than this share of names hold (`su`: ~13 % at 10^6) is
 * not looked up beside a rarer one: its ~45 trigrams' doclists cost more than they narrow.
 */
const COMMON_SHORT_WORD_SHARE = 0.05;

/** Measured at 10^6 companies (docs/benchmarks.md): each path stays within a few ms. */
export const NAME_SEARCH_TUNING: NameSearchTuning = { candidateCap: 2000, walkWindow: 30_000 };

/**
 * The conditions every result meets: all words (D8) and the country filter; with `indexedHeld`,
 * the caller's rows are known to hold the indexed words and only the others are checked.
 */
function matchesAll(db: Db, search: NameSearch, indexedHeld = false) {
  let query = db.selectFrom('companies');
  for (const word of [...(indexedHeld ? [] : search.indexedWords), ...search.otherWords]) query = query.where('name_key', 'like', `%${word}%`);
  // `country || ''` keeps both planners from answering the filter from an index on country:
  // nearly all companies share one country, so the name index must lead (checked in a test).
  if (search.country) query = query.where(sql<string>`country || ''`, '=', search.country);
  return query;
}

/**
 * Shown at all (D12), written so that no planner answers it from the partial indexes (they
 * hold every visible company, most of the table) instead of the name index or the ids given.
 */
const VISIBLE_NOT_FROM_INDEX = sql<boolean>`visible_report_count + 0 > 0`;

/**
 * The D8 name search, best first (D8, D10), without ranking every match of a common word:
 * 1. few candidates in the substring index → check and rank them all (common words beside a
 *    two-letter word: the names that hold the two letters too, `shortWordCandidates`);
 * 2. many (or surely many, by the name sample's estimate) → whole-name and prefix matches
 *    (headMatches), then the other matches in rank order from the rank index, walking at most
 *    `walkWindow` entries;
 * 3. a walk that ends short (the matches are mostly prefixes, or hidden) → the candidates of the
 *    two-letter words if not tried and few, else the exact query.
 * Every path returns the same rows as `nameSearchQuery`; tests compare them.
 */
export async function findCompaniesByName(db: Db, seam: DialectSeam, search: NameSearch, tuning: NameSearchTuning = NAME_SEARCH_TUNING): Promise<CompanyRow[]> {
  const words = [...search.indexedWords, ...search.otherWords];
  const surelyMany = walkPays(tuning.estimatedMatches?.(words) ?? 0, search, tuning);
  let candidates: Array<{ id: number }> = [];
  // One word: the word index (migration 0012) finds exactly the companies holding it, from the
  // few name words that hold it, where its rarest trigram is in thousands of names (each row
  // then checked: at 10^6, SQLite's CPU for a fresh distinctive word 5.3 → 3.1 ms, median of
  // 100). Several words: each word's rarest trigram, intersected in the substring index, is as
  // cheap or cheaper (whole names in-process: 2.5 ms of CPU against 4.8 through the words).
  // Null: the word index cannot answer (a legal-form piece, too many name words).
  const oneWord = search.indexedWords.length === 1 && !surelyMany && wordIndexAnswers(search.indexedWords);
  const byWords = oneWord ? await seam.wordCandidateIds(db, search.indexedWords, tuning.candidateCap + 1, tuning.wordTrigrams) : null;
  // Whether the candidates hold every indexed word (the word index; PostgreSQL's seam checks them).
  let exact = byWords !== null || !seam.indexTermOverSelects;
  if (byWords !== null) candidates = byWords.map((id) => ({ id }));
  else if (!surelyMany) {
    ({ rows: candidates } = await seam.nameCandidateIds(search.indexedWords, tuning.candidateCap + 1, tuning.indexTerm).execute(db));
  }
  // Common words beside a two-letter one (`pk film`): the names holding the two letters too,
  // unless the walk should meet enough matches (`ok guvenlik`: ~600 at 10^6).
  let narrowFirst = false;
  if (!surelyMany && candidates.length > tuning.candidateCap) {
    narrowFirst = !walkMayFind(tuning.estimatedMatches?.(words) ?? 0, search, tuning);
    const narrowed = narrowFirst ? await shortWordCandidates(db, seam, search, tuning) : null;
    if (narrowed !== null) [candidates, exact] = [narrowed, false];
    // Rare trigrams over-select; when that crosses the cap, the whole words may still be few.
    else if (byWords === null && tuning.indexTerm && seam.indexTermOverSelects) {
      ({ rows: candidates } = await seam.nameCandidateIds(search.indexedWords, tuning.candidateCap + 1).execute(db));
    }
  }
  if (!surelyMany && candidates.length <= tuning.candidateCap) return rankCandidates(db, seam, search, candidates, exact);
  const exactAnswer = async () => {
    // The last resort, when the walk found too few: the candidates of the two-letter words when
    // few (a walk past names that hold `pk` found none: ~5 ms, then the exact query 15–80 ms
    // at 10^6), else the exact query.
    const narrowed = narrowFirst ? null : await shortWordCandidates(db, seam, search, tuning);
    return narrowed !== null ? rankCandidates(db, seam, search, narrowed, false) : nameSearchQuery(db, seam, search).execute();
  };
  const head = await headMatches(db, seam, search, tuning);
  if (head === null) return exactAnswer();
  const wanted = search.limit - head.length;
  if (wanted === 0) return head;
  const tail = await walkFor(db, seam, search, 'rest', wanted, tuning.walkWindow);
  return tail ? [...head, ...tail] : exactAnswer();
}

/** Whether `estimated` matches are dense enough along the rank index for the walk to meet a page of them within its window. */
function walkMayFind(estimated: number, search: NameSearch, tuning: NameSearchTuning): boolean {
  return estimated * tuning.walkWindow >= search.limit * (tuning.estimatedCompanies?.() ?? Infinity);
}

/**
 * Ranks candidates that hold every match (D8 order), checking the words on their rows; with
 * `exact`, the candidates are known to hold the indexed words and only the others are checked.
 */
async function rankCandidates(db: Db, seam: DialectSeam, search: NameSearch, candidates: ReadonlyArray<{ id: number }>, exact: boolean): Promise<CompanyRow[]> {
  if (candidates.length === 0) return [];
  // PostgreSQL's candidates hold every indexed word already (the seam checks them whole): the
  // ranking then depends on no LIKE pattern, and its plan (the ids by primary key) is kept
  // prepared, made once per connection (the statement log put parsing and planning at over
  // half its time for a distinctive name at 10^6), for the few shapes of a query of up to 6
  // words of 3+ characters; others stay unnamed. SQLite's rare trigrams over-select: its words are checked here.
  const ranked = rankedQuery(
    matchesAll(db, search, exact)
      // Named columns, as every kept statement: `*` would change with a migration that adds one.
      .select(COMPANY_ROW_COLUMNS)
      .where(VISIBLE_NOT_FROM_INDEX)
      .where(seam.idIn(candidates.map((r) => Number(r.id)))),
    search.core,
  ).limit(search.limit);
  const fewShapes = search.otherWords.length === 0 && search.core.split(' ').length <= MAX_KEPT_WORDS;
  return exact && fewShapes ? runKeptPrepared(db, ranked) : ranked.execute();
}

/**
 * Up to the cap of candidates for a query with two-letter words, from the substring index:
 * the other words' pieces (their `indexTerm`s) and, for each such word, one of the trigrams that
 * can hold it (TwoLetterLookup); a superset of the matches. The rarest two-letter word by the
 * sample is looked up, and the others unless common. Null: no characters to make them with, no such
 * word, or more than the cap (the caller goes on as before).
 */
async function shortWordCandidates(db: Db, seam: DialectSeam, search: NameSearch, tuning: NameSearchTuning): Promise<Array<{ id: number }> | null> {
  const short = [...new Set(search.otherWords.filter((w) => [...w].length === 2))];
  if (!tuning.keyCharacters || short.length === 0) return null;
  const held = (w: string) => tuning.estimatedMatches?.([w]) ?? 0;
  const common = COMMON_SHORT_WORD_SHARE * (tuning.estimatedCompanies?.() ?? 0);
  const looked = short.sort((a, b) => held(a) - held(b)).filter((w, i) => i === 0 || held(w) <= common);
  const characters = [...tuning.keyCharacters()];
  const { rows } = await seam.nameCandidateIds(search.indexedWords, tuning.candidateCap + 1, tuning.indexTerm, { words: looked, characters }).execute(db);
  return rows.length > tuning.candidateCap ? null : rows;
}

/**
 * Whether the word index (migration 0012) finds exactly the names holding these words: it holds
 * the words of `name_core`, so not a word that is part of a legal-form or filler word (`imi` of
 * `limited`), which `name_key` holds and `name_core` does not.
 */
export function wordIndexAnswers(words: readonly string[]): boolean {
  return words.every((w) => !FILLERS.some((f) => f.includes(w)));
}
const FILLERS = [...FILLER_WORDS];

/**
 * Whole-name, other-order and prefix matches, best first; null when the other orders are too
 * many to look up. The whole-name and other-order matches come from the index by equality.
 * Thousands of names share a prefix like `anadolu` (ranking them all took 13 ms at 10^7): then
 * the prefix matches come from a walk in rank order.
 */
async function headMatches(db: Db, seam: DialectSeam, search: NameSearch, tuning: NameSearchTuning): Promise<CompanyRow[] | null> {
  const orders = otherOrders(search.core);
  if (orders === null) return null;
  const fewPrefixes = !walkPays(tuning.estimatedPrefixMatches?.(search.core) ?? 0, search, tuning);
  // One word: its whole name is one of its prefixes, ranked first by the prefix query (one
  // statement fewer for a common word).
  if (fewPrefixes && orders.length === 0 && wholeNameForms(search.core).length === 1) return prefixMatchesQuery(db, seam, search).execute();
  const visible = () => matchesAll(db, search).selectAll().where('visible_report_count', '>', 0);
  const whole = await rankedQuery(visible().where('name_core', 'in', wholeNameForms(search.core)), null)
    .limit(search.limit)
    .execute();
  const reordered =
    orders.length === 0
      ? []
      : await rankedQuery(visible().where('name_core', 'in', orders), null)
          .limit(search.limit)
          .execute();
  const head = [...whole, ...reordered].slice(0, search.limit);
  const withPrefixes = async () => {
    const prefixed = (await prefixMatchesQuery(db, seam, search).execute()).filter((r) => r.name_core !== search.core);
    return [...head, ...prefixed].slice(0, search.limit);
  };
  if (fewPrefixes) return withPrefixes();
  const wanted = search.limit - head.length;
  if (wanted === 0) return head;
  const prefixed = await walkFor(db, seam, search, 'prefix', wanted, tuning.walkWindow);
  return prefixed ? [...head, ...prefixed] : withPrefixes();
}

/**
 * Whether `estimated` matches are better met by walking the rank index than by ranking them
 * all: when they are more than half the cap and dense enough along the index that the walk
 * should meet three times the wanted number within its window. At 10^6 on PostgreSQL, ranking
 * the ~6,000 names that start with `yilmaz` took 10 ms and collecting the ~2,400 that hold
 * `ozdemiroglu` 10–17 ms, against ~2 ms for a walk (docs/benchmarks.md).
 */
function walkPays(estimated: number, search: NameSearch, tuning: NameSearchTuning): boolean {
  const companies = tuning.estimatedCompanies?.() ?? 0;
  return estimated > tuning.candidateCap / 2 && estimated * tuning.walkWindow >= 3 * search.limit * companies;
}

/** The walk's first `wanted` rows, best first; null when the walk ended before finding them. */
async function walkFor(db: Db, seam: DialectSeam, search: NameSearch, part: WalkPart, wanted: number, window: number): Promise<CompanyRow[] | null> {
  // Kept prepared: the walk's plan is the rank index's order whatever the words (PostgreSQL
  // spent 0.4 ms of its 2 ms for a common word planning it again). It looks for `search.limit`
  // rows, not `wanted`: one statement per shape of query, not one per count still wanted.
  const rows = await runKeptPrepared(db, rankWalkRowsQuery(db, seam, search, search.limit, window, part));
  return rows.length < wanted ? null : rows.slice(0, wanted);
}

/** The rows of the walk's companies in the same statement (a round trip and a plan fewer), best first. */
export function rankWalkRowsQuery(db: Db, seam: DialectSeam, search: NameSearch, wanted: number, window: number, part: WalkPart) {
  return db
    .selectFrom(rankWalkQuery(db, seam, search, wanted, window, part).as('walk'))
    .innerJoin('companies', 'companies.id', 'walk.id')
    .select(COMPANY_ROW_COLUMNS.map((c) => `companies.${c}` as const))
    .orderBy(RANK_TIES_OF_COMPANIES);
}

/** D8 order: whole name, other order, prefix (when `core` is given), then report count, name, id. */
function rankedQuery<Q extends SelectQueryBuilder<Database, 'companies', CompanyRow>>(query: Q, core: string | null): Q {
  const ranked = core === null ? query : query.orderBy(RANK_CLASS(core));
  return ranked.orderBy(RANK_TIES) as Q;
}

/** Whole-name and prefix matches, best first, from the `name_core` prefix index. */
export function prefixMatchesQuery(db: Db, seam: DialectSeam, search: NameSearch) {
  return rankedQuery(matchesAll(db, search).selectAll().where('visible_report_count', '>', 0).where(seam.nameCoreStartsWith(search.core)), search.core).limit(
    search.limit,
  );
}

/** What a walk looks for: names that start with the query but are not it, or the rest. */
type WalkPart = 'prefix' | 'rest';

/**
 * The first `wanted` matches of one rank class in rank order, from a walk of at most `window`
 * entries of the rank index (the words are checked in the index; no table row is read).
 *
 * Written so that PostgreSQL, once it has planned it five times, keeps one plan for it
 * (runKeptPrepared): the limits are literals and the filters are tests whose estimate does not
 * depend on their values (a substring test, a prefix compared by `substr`, the country as an
 * expression; the whole-name and other-order exclusions still use statistics, but as
 * near-certain negations they leave both costs alike). With `LIMIT $n` and LIKE patterns, the plan made without values was costed above
 * the ones made with them, so PostgreSQL planned the walk again on every call (`lojistik` at
 * 10^6: 0.19 ms planning, 0.28 running). The plan has no choice to make either way: the rank
 * index in order, up to `window` entries. SQLite's `instr` is also cheaper than its LIKE.
 */
export function rankWalkQuery(db: Db, seam: DialectSeam, search: NameSearch, wanted: number, window: number, part: WalkPart = 'rest') {
  const walk = db
    .selectFrom('companies')
    .select(['id', 'name_key', 'name_core', 'country', 'visible_report_count'])
    // A literal, so that a plan made once (runKeptPrepared) still proves the rank index's
    // condition and reads it.
    .where(sql<boolean>`visible_report_count > 0`)
    .orderBy(RANK_TIES)
    .limit(sql.lit(wholeNumber(window)));
  let rest = db.selectFrom(walk.as('companies')).select('id');
  for (const word of [...search.indexedWords, ...search.otherWords]) rest = rest.where(seam.nameKeyHolds(word));
  if (search.country) rest = rest.where(sql<string>`country || ''`, '=', search.country);
  const startsWithCore = sql<boolean>`(substr(name_core, 1, ${[...search.core].length}) = ${search.core})`;
  const reordered = reorderedCondition(search.core);
  if (part === 'rest') {
    rest = rest.where(sql<boolean>`NOT ${startsWithCore}`).where('name_core', 'not in', wholeNameForms(search.core));
    if (reordered) rest = rest.where(sql<boolean>`NOT ${reordered}`);
  } else {
    rest = rest.where(startsWithCore).where('name_core', '<>', search.core);
  }
  return rest.orderBy(RANK_TIES).limit(sql.lit(wholeNumber(wanted)));
}

/** A count written into SQL as a literal: a whole number, or a bug upstream. */
function wholeNumber(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`expected a whole number, got ${n}`);
  return n;
}

type TaxIdCandidate = { taxId: string; country: string | null };

/** Values: limit, then each candidate's tax ID and (when it has one) country. Shape: 'n'/'c' per candidate. */
const taxIdQuery = preparedQuery(
  (db, p, shape: string) => {
    let next = 1;
    const candidates = [...shape].map((kind) => ({ country: kind === 'c' ? '' : null }));
    return db
      .selectFrom('companies')
      .select(COMPANY_ROW_COLUMNS)
      .where((eb) =>
        eb.or(
          candidates.map((c) =>
            c.country === null ? eb('tax_id_norm', '=', p(next++)) : eb.and([eb('tax_id_norm', '=', p(next++)), eb('country', '=', p(next++))]),
          ),
        ),
      )
      .where('visible_report_count', '>', 0)
      .orderBy(RANK_TIES)
      .limit(p(0));
  },
  (shape) => shape,
);

/** Companies with a visible report under any of the given canonical IDs (D9). */
export async function findCompaniesByTaxId(db: Db, candidates: readonly TaxIdCandidate[], limit: number): Promise<CompanyRow[]> {
  const values = [limit, ...candidates.flatMap((c) => (c.country === null ? [c.taxId] : [c.taxId, c.country]))];
  return taxIdQuery(db, values, candidates.map((c) => (c.country === null ? 'n' : 'c')).join(''));
}
