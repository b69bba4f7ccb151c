import { sql } from 'kysely';
import type { DialectSeam, LookupAdvice } from '../db/dialect-seam.ts';
import type { Db } from '../db/types.ts';
import type { NearMatchGroup } from './near-match-score.ts';
import { wordIndexAnswers } from '../companies/companies.repository.ts';

export interface NearMatchCandidateSearch {
  /** Any one group's pieces in the name (near-match-score.ts). */
  groups: NearMatchGroup[];
  country: string | null;
  /** At most this many candidates are scored. */
  limit: number;
  /** What to ask the substring index for (the name sample's); the pieces whole when absent. */
  advice?: LookupAdvice;
}

/** What near matches show of a company (search.service.ts): read for the shown ones only (near-match-lookups.ts). */
export const NEAR_MATCH_COLUMNS = ['id', 'company_name', 'tax_id', 'country', 'city', 'name_core', 'visible_report_count'] as const;

/**
 * What a candidate is scored and ranked by: read for each of up to 1,000 candidates (a
 * distinctive word's near matches at 10^6: ~800 a statement), the shown ones' other columns
 * after. Each column read is a value made from the record and a string made in JavaScript.
 */
export const NEAR_MATCH_CANDIDATE_COLUMNS = ['id', 'name_core', 'visible_report_count'] as const;

/**
 * Companies with a visible report (D12) whose name holds the pieces of some group: the
 * names worth scoring for near matches (D25), from the substring index. With more than
 * `limit`, those with the lowest ids (near-match-lookups.ts, firstById: memory's rule too).
 */
export function nearMatchCandidatesQuery(db: Db, seam: DialectSeam, search: NearMatchCandidateSearch) {
  const lookup = seam.nearMatchIndexQuery(search.groups, search.advice);
  if (lookup !== null) {
    // SQLite: the index drives a loop that joins each match to its company's row, keeps those
    // with a visible report (and in the country) and stops at `limit`: each row read once. As
    // `id IN (…)` of that loop, every candidate was read twice (a whole name's 684 candidates at
    // 10^6: 6.2 ms, 5.6 so, of which the index's own work is ~2).
    let query = db
      .selectFrom(sql.table(lookup.index).as('f'))
      .innerJoin('companies as v', (join) => join.on(sql<boolean>`v.id = f.rowid`))
      .select(NEAR_MATCH_CANDIDATE_COLUMNS.map((c) => `v.${c}` as const))
      .where(sql<boolean>`${sql.table(lookup.index)} MATCH ${lookup.match}`)
      .where(sql<boolean>`v.visible_report_count + 0 > 0`);
    if (search.country) query = query.where(sql<string>`v.country || ''`, '=', search.country);
    // The lowest ids (near-match-lookups.ts, firstById): FTS5 gives its rows in rowid order, so
    // the loop still stops at `limit`, with no sort.
    return query.orderBy(sql`f.rowid`).limit(search.limit);
  }
  let query = db
    .selectFrom('companies')
    .select(NEAR_MATCH_CANDIDATE_COLUMNS)
    .where(seam.nameKeyContainsAny(search.groups, { limit: search.limit, country: search.country }, search.advice))
    // As in the name search: neither the partial indexes nor the country index may lead.
    .where(sql<boolean>`visible_report_count + 0 > 0`);
  if (search.country) query = query.where(sql<string>`country || ''`, '=', search.country);
  // The lowest ids (near-match-lookups.ts, firstById). PostgreSQL picks its plan by the pieces:
  // the primary key's order, stopping at `limit`, for a common one (`tas`, 110,361 names: 21–29
  // ms, 35–47 without the order), else the trigram index and a sort (`ferha`: 68–70 ms, 36–91).
  return query.orderBy('id').limit(search.limit);
}

/**
 * SQLite: companies with a visible report (D12), in `country` when given, that hold one of a
 * group's corrections as words (the visible companies' word index, migration 0026) and every piece of its `all`:
 * the candidates of groups whose corrections few names hold (search.service.ts). One SELECT per
 * group, each stopping at `limit`. Null on an engine without a word index (dialect-seam.ts).
 */
export function nearMatchWordCandidatesQuery(db: Db, seam: DialectSeam, groups: readonly NearMatchGroup[], country: string | null, limit: number) {
  const selects = groups.map((g) => {
    const match = seam.nearMatchWordQuery(g.corrections ?? []);
    if (match === null) return null;
    // The postings drive the loop (few names), each row read once by its id. The visible
    // companies' own word index (migration 0026): no hidden company's row read to be dropped.
    let query = db
      .selectFrom(sql`company_near_word_fts`.as('f'))
      .innerJoin('companies as v', (join) => join.on(sql<boolean>`v.id = f.rowid`))
      .select(NEAR_MATCH_CANDIDATE_COLUMNS.map((c) => `v.${c}` as const))
      .where(sql<boolean>`company_near_word_fts MATCH ${match}`)
      .where(sql<boolean>`v.visible_report_count + 0 > 0`);
    for (const piece of g.all) query = query.where(seam.nameKeyHolds(piece));
    if (country) query = query.where(sql<string>`v.country || ''`, '=', country);
    // The group's lowest ids, as nearMatchCandidatesQuery's.
    return query.orderBy(sql`f.rowid`).limit(limit);
  });
  if (selects.some((q) => q === null) || selects.length === 0) return null;
  const [first, ...rest] = selects as Array<NonNullable<(typeof selects)[number]>>;
  return rest.reduce((all, q) => all.unionAll(db.selectFrom(q.as('g')).selectAll()), db.selectFrom(first!.as('g0')).selectAll());
}

/** Which of `words` company_name_words holds (one statement; none looked up when there are none). */
export async function knownWords(db: Db, seam: DialectSeam, list: readonly string[]): Promise<Set<string>> {
  // Each once in the statement (the caller may repeat them: memory needs no such pass).
  const words = [...new Set(list)];
  if (words.length === 0) return new Set();
  const { rows } = await seam.queryWordLookup(words[0]!, null, words).execute(db);
  const { known } = rows[0]!;
  return new Set((typeof known === 'string' ? JSON.parse(known) : known) as string[]);
}

/**
 * Whether some company's `name_key` holds `word` (SQLite's word index; else the substring index,
 * asked for the advice's rarest trigram), and which of `words` some company's `name_core` holds as a word
 * (company_name_words, migration 0007): one statement.
 */
export async function lookUpQueryWord(
  db: Db,
  seam: DialectSeam,
  word: string,
  words: readonly string[],
  advice?: Pick<LookupAdvice, 'rarest' | 'rarestTrigrams'>,
): Promise<{ present: boolean; known: Set<string> }> {
  // SQLite's word index says whether a name holds the word from the few name words that hold
  // it: the substring index read every name holding its rarest trigram when none held the word
  // (`kakyazi` at 10^6: 5.5 ms). A word that is present needs no corrections (`known`).
  const held = wordIndexAnswers([word]) ? await seam.wordCandidateIds(db, [word], 1, advice?.rarestTrigrams) : null;
  if (held !== null && held.length > 0) return { present: true, known: new Set() };
  const indexTerm = held !== null ? null : advice ? advice.rarest(word) : word;
  const { rows } = await seam.queryWordLookup(word, indexTerm, words).execute(db);
  const { present, known } = rows[0]!;
  return { present: Boolean(present), known: new Set((typeof known === 'string' ? JSON.parse(known) : known) as string[]) };
}
