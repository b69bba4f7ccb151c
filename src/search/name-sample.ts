/**
 * A random sample of company names, for the estimates a name search plans with:
 * - which 3-character piece of a query word the fewest names contain: the search looks up one
 *   such trigram per word instead of every trigram of every word (an FTS5 phrase reads the
 *   position lists of all of them; PostgreSQL's index intersected the posting lists of common
 *   ones). At 10^7 companies on SQLite, `ozdemiroglu iplik` took 68 ms as phrases and 6 ms as
 *   two rare trigrams;
 * - how many companies hold all the query's words: a common word goes straight to the
 *   rank-order walk instead of first collecting thousands of candidates.
 * Estimates only choose a path; every path returns the exact answer (companies/companies.repository.ts),
 * so a poor sample costs time, never a wrong answer.
 */
import type { Db } from '../db/types.ts';

/** Names sampled: runs of consecutive ids (one page read serves many) at random places. */
const RUNS = 20;
const RUN_LENGTH = 250;
const REFRESH_MS = 30 * 60_000;
const MAX_ESTIMATES = 10_000;
/**
 * A trigram in more than this share of sampled names narrows a look-up little and its posting
 * list costs most (`ogl`, `glu` of every -oğlu name: ~18 %; `ipl` of İPLİK: ~1.5 %).
 */
const COMMON_TRIGRAM_SHARE = 0.05;

/** The trigrams of a word, by code point (as FTS5's trigram tokenizer cuts them). */
export function trigramsOf(word: string): string[] {
  const chars = [...word];
  return Array.from({ length: Math.max(0, chars.length - 2) }, (_, i) => chars.slice(i, i + 3).join(''));
}

export class NameSample {
  private names: string[] = [];
  private counts = new Map<string, number>();
  private wordCounts = new Map<string, number>();
  private wholeWords = new Map<string, number>();
  private companies = 0;
  private sampledAt = -Infinity;
  private estimates = new Map<string, number>();
  /** Per trigram, the sampled names (their indexes, ascending) holding it within a word. */
  private holders = new Map<string, number[]>();
  private seenLetters: string[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Samples names when it has none or they are old (~5 000 names, a few ms warm). */
  async refresh(db: Db): Promise<void> {
    if (this.now() - this.sampledAt < REFRESH_MS) return;
    // Two look-ups at the ends of the primary key (min and max in one SELECT scan the table).
    const lo = Number((await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirst())?.id ?? 0);
    const hi = Number((await db.selectFrom('companies').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id ?? 0);
    const names: string[] = [];
    if (hi > 0) {
      for (let run = 0; run < RUNS; run++) {
        const start = lo + Math.floor(Math.random() * Math.max(1, hi - lo + 1 - RUN_LENGTH));
        const rows = await db
          .selectFrom('companies')
          .select('name_key')
          .where('id', '>=', start)
          .where('id', '<', start + RUN_LENGTH)
          .execute();
        names.push(...rows.map((r) => r.name_key));
      }
    }
    const counts = new Map<string, number>();
    const holders = new Map<string, number[]>();
    for (const [i, name] of names.entries()) {
      for (const trigram of new Set(name.split(' ').flatMap(trigramsOf))) {
        counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
        const list = holders.get(trigram);
        if (list) list.push(i);
        else holders.set(trigram, [i]);
      }
    }
    // The same, counted over the sample's distinct words: how many of the names' words hold a
    // trigram, which is what a look-up among the words (rarestTrigrams) reads.
    const wordCounts = new Map<string, number>();
    for (const word of new Set(names.flatMap((name) => name.split(' ')))) {
      for (const trigram of new Set(trigramsOf(word))) wordCounts.set(trigram, (wordCounts.get(trigram) ?? 0) + 1);
    }
    // How many sampled names hold each word whole (the word index's postings, estimated).
    const wholeWords = new Map<string, number>();
    for (const name of names) for (const word of new Set(name.split(' '))) wholeWords.set(word, (wholeWords.get(word) ?? 0) + 1);
    this.names = names;
    this.counts = counts;
    this.holders = holders;
    this.wholeWords = wholeWords;
    this.wordCounts = wordCounts;
    this.seenLetters = [...new Set(names.flatMap((name) => [...name]))].filter((c) => c !== ' ');
    this.estimates.clear();
    this.sampledAt = this.now();
    this.companies = hi > 0 ? hi - lo + 1 : 0;
  }

  /** The word's trigram found in the fewest sampled names (one never seen is rarest). */
  readonly rarest = (word: string): string => {
    let best = word;
    let bestCount = Infinity;
    for (const trigram of trigramsOf(word)) {
      const count = this.counts.get(trigram) ?? 0;
      if (count < bestCount) [best, bestCount] = [trigram, count];
    }
    return best;
  };

  /**
   * The word's `n` trigrams found in the fewest of the sample's distinct words (all of them when
   * it has fewer): what the look-up among the names' distinct words asks for
   * (db/dialect-seam.ts). At 10^6 (396,000 words) ANDing all trigrams of `karataslar` read
   * 2,000–31,000 words per trigram, 4.3 ms; its two rarest 0.05 ms.
   */
  readonly rarestTrigrams = (word: string, n = 3): string[] =>
    [...new Set(trigramsOf(word))].sort((a, b) => (this.wordCounts.get(a) ?? 0) - (this.wordCounts.get(b) ?? 0)).slice(0, n);

  /**
   * What to ask the substring index for names holding every piece: each piece's rarest
   * trigram, without the common ones while two rarer ones remain (a superset of the names, for
   * callers that check or score what comes back). A misspelt name's alternatives at 10^6 on
   * SQLite: 1.7 ms each with `ogl` or `glu` beside `ozd` and `ipl`, 0.8 ms without.
   */
  readonly lookupTerms = (pieces: readonly string[]): string[] => {
    const terms = [...new Set(pieces.map(this.rarest))];
    const common = (t: string) => (this.counts.get(t) ?? 0) > COMMON_TRIGRAM_SHARE * this.names.length;
    const rare = terms.filter((t) => !common(t));
    // One rare trigram alone may hold 10^4 names at 10^6 (`ozd`): more than are scored.
    return rare.length >= 2 ? rare : terms;
  };

  /** The letters and digits of the sampled names (near matches make corrections with them). */
  readonly letters = (): readonly string[] => this.seenLetters;

  /** Companies in all (from the ids' range; 0 when nothing sampled). */
  readonly estimatedCompanies = (): number => this.companies;

  /** Companies whose key starts with `core`, extrapolated from the sample (0 when nothing sampled). */
  readonly estimatedPrefixMatches = (core: string): number => this.estimate(`prefix ${core}`, (name) => name.startsWith(core));

  /** Companies whose key holds every word, extrapolated from the sample (0 when nothing sampled). */
  readonly estimatedMatches = (words: readonly string[]): number =>
    this.estimate(
      `words ${words.join(' ')}`,
      (name) => words.every((w) => name.includes(w)),
      () => this.namesHoldingTrigrams(words),
    );

  /**
   * The sampled names that can hold every word (3+ characters): those holding the rarest
   * trigram of the word whose rarest is rarest (a word has no space: it lies inside one word of
   * a name that holds it, so the name holds its trigrams). Null when no word has a trigram.
   */
  private namesHoldingTrigrams(words: readonly string[]): readonly number[] | null {
    let fewest: readonly number[] | null = null;
    for (const word of words) {
      for (const trigram of trigramsOf(word)) {
        const list = this.holders.get(trigram) ?? [];
        if (fewest === null || list.length < fewest.length) fewest = list;
      }
    }
    return fewest;
  }

  /** Companies whose key holds every one of `words` as a whole word, extrapolated (at most the rarest word's; 0 when nothing sampled). */
  readonly estimatedWordMatches = (words: readonly string[]): number =>
    this.names.length === 0 ? 0 : (Math.min(...words.map((w) => this.wholeWords.get(w) ?? 0)) / this.names.length) * this.companies;

  /**
   * Scanning the sample costs ~0.15 ms (6 % of a fresh name search): remember the answers, and
   * test only the names that `candidates` gives (null: every name).
   */
  private estimate(key: string, matches: (name: string) => boolean, candidates?: () => readonly number[] | null): number {
    let estimate = this.estimates.get(key);
    if (estimate === undefined) {
      const some = this.names.length === 0 ? null : (candidates?.() ?? null);
      const held = some === null ? this.names.filter(matches).length : some.reduce((n, i) => (matches(this.names[i]!) ? n + 1 : n), 0);
      estimate = this.names.length === 0 ? 0 : (held / this.names.length) * this.companies;
      if (this.estimates.size >= MAX_ESTIMATES) this.estimates.clear();
      this.estimates.set(key, estimate);
    }
    return estimate;
  }
}
