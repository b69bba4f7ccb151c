/**
 * What near matches (D25, search.service.ts) look up besides scoring, from one of two sources
 * that answer alike: the database (its statements, near-matches.repository.ts), or memory
 * (issue 28): the index of visible names (visible-names.ts) for the candidates and the words of
 * every company's name (all-name-words.ts) for the rest, with only the rows shown read; or the
 * database's with the candidates from the index where the words are not kept (withCandidatesFromMemory).
 *
 * Both score at most `limit` candidates: with more, those with the lowest ids (firstById), one
 * rule, so that memory answers these too and gives what the database would. (The groups looked
 * up, and on SQLite the trigram superset, follow the process's name sample: two processes may
 * still differ now and then.) Before, the database's LIMIT without an order let the engine
 * choose, memory could not know which, and about 2 % of fresh one-word searches at 10^6 went to
 * the database for it: 40–400 ms of PostgreSQL each, docs/benchmarks.md.
 *
 * Memory answers only what it answers exactly; otherwise it throws NotInMemory and the search
 * asks the database, for that search (withCandidatesFromMemory: for that call): a query word held only by names changed since the build,
 * a piece whose first 1,000 holders are not among the first 65,536 names checked in id order
 * (one inside a filler word, or beside another in 10^5 names: visible-names.ts, firstEntries),
 * too many names to check a correction's words on, a row read that no longer is what the index held.
 */
import type { DialectSeam, LookupAdvice } from '../db/dialect-seam.ts';
import type { Db } from '../db/types.ts';
import { findCompaniesById, type CompanyRow } from '../companies/companies.repository.ts';
import type { NearMatchGroup } from './near-match-score.ts';
import { knownWords, lookUpQueryWord, NEAR_MATCH_COLUMNS, nearMatchCandidatesQuery, nearMatchWordCandidatesQuery } from './near-matches.repository.ts';
import type { AllNameWords } from './all-name-words.ts';
import { oneEditAwayWhere, type WordTest } from './near-match-words.ts';
import type { NameMatch, VisibleNames } from './visible-names.ts';

/** A near match's row as shown (D25). */
export type NearMatchRow = Pick<CompanyRow, (typeof NEAR_MATCH_COLUMNS)[number]>;
/** What a candidate is scored and ranked by. */
export type NearMatchCandidate = Pick<CompanyRow, 'id' | 'name_core' | 'visible_report_count'>;

export interface NearMatchCandidateQuery {
  /** Groups whose corrections are looked up as whole words of `name_core` (SQLite's word index). */
  byWords: readonly NearMatchGroup[];
  /** Groups looked up by their pieces in `name_key`. */
  byPieces: readonly NearMatchGroup[];
  country: string | null;
  /** Candidates scored at most: with more, the `limit` with the lowest ids (firstById). */
  limit: number;
}

export interface NearMatchLookups {
  /**
   * A word's one-edit strings that may be its corrections, each as the words it stands for: those
   * whose every word may be a word of names (near-match-words.ts, oneEditAwayWhere, with the
   * letters of every name word where known). Exactly the corrections where `exact`.
   */
  variants(word: string): string[][];
  /** `variants` gives only words company_name_words holds (memory): no look-up of them is needed. */
  readonly exact: boolean;
  /**
   * Whether some company's `name_key` holds `word`, and which of `words()` company_name_words
   * holds (the database asks both in one statement; memory makes the list only for a word no name holds).
   */
  lookUpQueryWord(word: string, words: () => readonly string[]): Promise<{ present: boolean; known: Set<string> }>;
  /** Which of `words` company_name_words holds (`words` may repeat one). */
  knownWords(words: readonly string[]): Promise<Set<string>>;
  /** The companies with a visible report (in the country) that the groups lead to, each once. */
  candidates(query: NearMatchCandidateQuery): Promise<NearMatchCandidate[]>;
  /** The rows of the candidates shown, in their order. */
  rowsOf(shown: readonly NearMatchCandidate[]): Promise<NearMatchRow[]>;
}

/** Names holding a group's shared pieces, or an alternative's own, listed at most this many times the candidates scored. */
const WIDE = 4;

/** Memory cannot answer this search exactly: the database does. */
export class NotInMemory extends Error {}

/** The near matches' rule for "more candidates than are scored": the `limit` with the lowest ids, in id order. */
export function firstById<T extends { id: number | string }>(candidates: readonly T[], limit: number): T[] {
  return [...candidates].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, limit);
}

interface DatabaseSource {
  db: Db;
  seam: DialectSeam;
  /** The name sample's advice on what to ask the substring index for. */
  advice: LookupAdvice | null;
  /** The vocabulary's letters and filter (name-vocabulary.ts), refreshed by the caller; null: none. */
  vocabulary: { letters(): string[]; mightHoldUnits: WordTest } | null;
  sampleLetters: (() => readonly string[]) | null;
}

/** Today's statements (near-matches.repository.ts). */
export function databaseLookups({ db, seam, advice, vocabulary, sampleLetters }: DatabaseSource): NearMatchLookups {
  return {
    variants: (word) =>
      vocabulary ? oneEditAwayWhere(word, vocabulary.letters(), vocabulary.mightHoldUnits) : oneEditAwayWhere(word, sampleLetters?.() ?? [], () => true),
    exact: false,
    lookUpQueryWord: (word, words) => lookUpQueryWord(db, seam, word, words(), advice ?? undefined),
    knownWords: (words) => knownWords(db, seam, words),
    async candidates({ byWords, byPieces, country, limit }) {
      const found = [
        ...(byWords.length > 0 ? await nearMatchWordCandidatesQuery(db, seam, byWords, country, limit)!.execute() : []),
        ...(byPieces.length > 0
          ? await nearMatchCandidatesQuery(db, seam, { groups: [...byPieces], country, limit, ...(advice ? { advice } : {}) }).execute()
          : []),
      ];
      // Each statement gave its own `limit` lowest ids: the lowest of their union are among them.
      const seen = new Set<number>();
      return firstById(
        found.filter((c) => !seen.has(Number(c.id)) && seen.add(Number(c.id))),
        limit,
      );
    },
    // The shown ones' rows (at most 5), as scored: a company changed since the candidates were
    // read makes the caller ask again (search.service.ts), so that an answer is of one moment.
    rowsOf: (shown) => rowsAsScored(db, seam, shown, () => new CandidateChanged('a near match changed since its candidates were read')),
  };
}

interface MemorySource {
  db: Db;
  seam: DialectSeam;
  advice: LookupAdvice | null;
  index: VisibleNames;
  words: AllNameWords;
}

/**
 * The same answers from memory. The candidates are those the database's statements return, by
 * the same tests: on SQLite, whose substring index is asked for the pieces' rare trigrams and
 * returns every name holding them (the caller scores that superset), names holding those
 * trigrams; on PostgreSQL, which checks each piece whole, names holding the pieces; and names
 * holding a correction's words as whole words of `name_core` (SQLite's word index).
 */
export function memoryLookups({ db, seam, advice, index, words }: MemorySource): NearMatchLookups {
  const terms = lookupTerms(seam, advice);
  const known = (list: readonly string[]) => new Set(list.filter((w) => words.isKnown(w)));
  return {
    variants: (word) => oneEditAwayWhere(word, words.letters(), words.holdsKnown),
    exact: true,
    lookUpQueryWord(word, list) {
      const present = words.holdsSubstring(word);
      if (present === null) throw new NotInMemory(`only names changed since the build hold ${word}`);
      return Promise.resolve({ present, known: present ? new Set<string>() : known(list()) });
    },
    knownWords: (list) => Promise.resolve(known(list)),
    candidates: memoryCandidates(index, terms),
    // Changed since the index caught up: the database answers the whole search.
    rowsOf: (shown) => rowsAsScored(db, seam, shown, () => new NotInMemory('a candidate changed since the index caught up')),
  };
}

/** The pieces' terms the database's substring index is asked for (on SQLite, the rare trigrams the name sample advises). */
function lookupTerms(seam: DialectSeam, advice: LookupAdvice | null): (pieces: readonly string[]) => string[] {
  return seam.indexTermOverSelects && advice ? (pieces) => [...new Set(advice.lookupTerms(pieces))] : (pieces) => [...pieces];
}

/** The candidates from the index of visible names, as the database's statements give them; NotInMemory where it cannot list them. */
function memoryCandidates(index: VisibleNames, terms: (pieces: readonly string[]) => string[]): NearMatchLookups['candidates'] {
  return ({ byWords, byPieces, country, limit }) => {
    const found = new Map<number, NameMatch>();
    const add = (matches: NameMatch[] | null, keep: (m: NameMatch) => boolean = () => true) => {
      if (matches === null) throw new NotInMemory('the index cannot list these candidates');
      for (const m of matches) if (keep(m)) found.set(m.id, m);
    };
    // The index's cost is finding each piece's words (visible-names.ts): the pieces every
    // alternative of a group shares are looked up once when few names hold them, and each
    // alternative is then those names that hold its own pieces too, checked on them
    // (`hatari deminsoy catering` at 10^6: 17 ms of CPU as one look-up per alternative).
    for (const g of byWords) {
      const corrections = g.corrections ?? [];
      const holding = g.all.length > 0 ? index.matchAll(g.all, country, WIDE * limit) : null;
      if (holding !== null) {
        // Up to 4,000 names, each tested for dozens of corrections: by the words' ids where the
        // index can (no name made and split per test: 50–100 ms of CPU for a long hidden name).
        const ids = corrections.map((c) => index.coreWordIds(c));
        add(holding, (m) => corrections.some((c, i) => (ids[i] ? m.coreHoldsWords?.(ids[i]) : undefined) ?? holdsWords(m.nameCore, c)));
      } else {
        // All of them (up to 4,000), then checked: the first `limit` of those holding the
        // pieces need not be the first of those holding the words too.
        for (const c of corrections) add(index.matchAll([...g.all, ...c], country, WIDE * limit), (m) => holdsWords(m.nameCore, c));
      }
    }
    for (const g of byPieces) {
      const common = g.all.length > 0 ? terms(g.all) : [];
      if (g.any.length === 0) {
        if (common.length > 0) add(index.matchFirst(common, country, limit));
        continue;
      }
      // The names holding the shared pieces, each alternative's own checked on them (no match
      // made for a name none keeps).
      const holdingToo = common.length > 0 ? index.amongMatches(common, country, WIDE * limit) : null;
      for (const list of g.any) {
        const own = terms(list).filter((t) => !common.includes(t));
        if (holdingToo) add(holdingToo(own));
        else add(index.matchFirst([...new Set([...common, ...terms(list)])], country, limit));
      }
    }
    const first = firstById([...found.values()], limit);
    return Promise.resolve(first.map((m) => ({ id: m.id, name_core: m.nameCore, visible_report_count: m.visibleReportCount })));
  };
}

/**
 * The database's look-ups with the candidates from the index of visible names where it can list
 * them (else the database's statement, for that call), for a process that keeps the index but
 * not the words of every name (SQLite's default): at 10^7 companies the candidates' statement was
 * most of a near-match search (5 ms of CPU a fresh whole name; search.service.ts says from what
 * size). The shown rows are read as the database's are (a change since: CandidateChanged).
 */
export function withCandidatesFromMemory(database: NearMatchLookups, { seam, advice, index }: Omit<MemorySource, 'words' | 'db'>): NearMatchLookups {
  const fromMemory = memoryCandidates(index, lookupTerms(seam, advice));
  return {
    ...database,
    async candidates(query) {
      try {
        return await fromMemory(query);
      } catch (error) {
        if (error instanceof NotInMemory) return database.candidates(query);
        throw error;
      }
    },
  };
}

/** A near match read as shown is no longer what its candidate was (a change committed in between): the search is asked again. */
export class CandidateChanged extends Error {}

/** The rows of `shown`, in order, each as it was scored (`name_core`, `visible_report_count`); otherwise `changed()` is thrown. */
async function rowsAsScored(db: Db, seam: DialectSeam, shown: readonly NearMatchCandidate[], changed: () => Error): Promise<NearMatchRow[]> {
  if (shown.length === 0) return [];
  const rows = new Map(
    (
      await findCompaniesById(
        db,
        seam,
        shown.map((c) => Number(c.id)),
      )
    ).map((r) => [Number(r.id), r]),
  );
  return shown.map((c) => {
    const row = rows.get(Number(c.id));
    if (!row || row.name_core !== c.name_core || Number(row.visible_report_count) !== Number(c.visible_report_count)) throw changed();
    return row;
  });
}

/** Whether every one of `words` is a whole word of `nameCore` (SQLite's word index, migration 0012). */
function holdsWords(nameCore: string, words: readonly string[]): boolean {
  const own = nameCore.split(' ');
  return words.every((w) => own.includes(w));
}
