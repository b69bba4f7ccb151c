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

/** What near matches need of a candidate: its score's inputs and what is shown (search.service.ts). */
export const NEAR_MATCH_COLUMNS = ['id', 'company_name', 'tax_id', 'country', 'city', 'name_core', 'visible_report_count'] as const;

/**
 * Companies with a visible report (D12) whose name holds the pieces of some group: the
 * names worth scoring for near matches (D25), from the substring index. Unordered: with more
 * than `limit` candidates, which ones are scored is the engine's choice.
 */
export function nearMatchCandidatesQuery(db: Db, seam: DialectSeam, search: NearMatchCandidateSearch) {
  const match = seam.nearMatchIndexQuery(search.groups, search.advice);
  if (match !== null) {
    // SQLite: the index drives a loop that joins each match to its company's row, keeps those
    // with a visible report (and in the country) and stops at `limit`: each row read once. As
    // `id IN (…)` of that loop, every candidate was read twice (a whole name's 684 candidates at
    // 10^6: 6.2 ms, 5.6 so, of which the index's own work is ~2).
    let query = db
      .selectFrom(sql`company_name_fts`.as('f'))
      .innerJoin('companies as v', (join) => join.on(sql<boolean>`v.id = f.rowid`))
      .select(NEAR_MATCH_COLUMNS.map((c) => `v.${c}` as const))
      .where(sql<boolean>`company_name_fts MATCH ${match}`)
      .where(sql<boolean>`v.visible_report_count + 0 > 0`);
    if (search.country) query = query.where(sql<string>`v.country || ''`, '=', search.country);
    return query.limit(search.limit);
  }
  let query = db
    .selectFrom('companies')
    .select(NEAR_MATCH_COLUMNS)
    .where(seam.nameKeyContainsAny(search.groups, { limit: search.limit, country: search.country }, search.advice))
    // As in the name search: neither the partial indexes nor the country index may lead.
    .where(sql<boolean>`visible_report_count + 0 > 0`);
  if (search.country) query = query.where(sql<string>`country || ''`, '=', search.country);
  return query.limit(search.limit);
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
