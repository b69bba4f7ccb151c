/**
 * The searchable names of one server process, in memory (issue 28): every company with a
 * visible report (D12), packed, with the words of its `name_key` and what D8 ranks by. Pure: no
 * I/O; visible-names-keeper.ts loads it and keeps it current.
 *
 * Layout (typed arrays and one string, no object per company or word; 35 MB at 10^6, all of it
 * outside V8's heap but the 1.7 MB string of the words):
 * - a vocabulary of the distinct words of the names' keys (`words`, packed-words.ts), each
 *   marked filler or not, with a trigram → words index over it;
 * - per company (an *entry*, in id order): its id, visible report count, country, and its
 *   key's word ids in order (`name_key` is those words joined by spaces, `name_core` the
 *   non-filler ones, kept aside where the stored one differs);
 * - postings: for each non-filler word, the entries holding it;
 * - per entry a byte of scratch (seen in this query step) and an int32 of scratch (a query's
 *   candidates): a query allocates no array for them.
 *
 * A query word has no space, so `name_key LIKE '%w%'` holds iff some word of the key contains
 * `w`: the words containing `w` (the rarest of its trigrams' words, each checked) lead to the
 * entries holding it (their postings). A filler word (`sanayi`, `ltd`) has no postings: a query
 * word inside one is answered by checking other words' candidates, or, for the first few
 * matches only (matchFirst), by checking the names in id order; else not at all (null).
 *
 * Changes after the build go to an overlay: the old entry is marked dead and the company's new
 * state, if visible, is kept whole beside it and checked on every query.
 */
import { FILLER_WORDS } from '../companies/name-key.ts';
import { ChunkedIntList, PackedWordsBuilder, TYPED_ARRAY_OVERHEAD, type PackedWords } from './packed-words.ts';

/** One company as the index sees it: what D8 matches and ranks by. */
export interface VisibleName {
  id: number;
  nameKey: string;
  nameCore: string;
  country: string;
  visibleReportCount: number;
}

/** How many companies have a visible report, and how many words their keys hold (spaces + 1 each). */
export interface VisibleNamesCount {
  companies: number;
  words: number;
}

/** A company that matched, with what D8 ranks it by. */
export interface NameMatch {
  readonly id: number;
  readonly nameCore: string;
  readonly visibleReportCount: number;
  /**
   * Known without building `nameCore` (the index's packed entries): its length in UTF-16 units
   * and whether it starts with a text. D8's rank class needs no more for most matches
   * (name-rank-order.ts), and a distinctive word's hundreds of names were each made a string.
   */
  readonly coreLength?: number;
  coreStartsWith?(text: string): boolean;
  /**
   * Whether `nameCore`'s words include every one of these (ids from VisibleNames.coreWordIds),
   * without making it; undefined when only the name can tell (its stored core is not its key's).
   */
  coreHoldsWords?(ids: readonly number[]): boolean | undefined;
}

/** A packed entry's match: its `nameCore` is made only when asked for (then kept). */
class PackedMatch implements NameMatch {
  private core: string | undefined = undefined;
  constructor(
    /** The index and entry it came from (VisibleNames.among reads the entry's words without a search by id). */
    readonly index: VisibleNames,
    readonly entry: number,
    readonly id: number,
    readonly visibleReportCount: number,
  ) {}
  get nameCore(): string {
    return (this.core ??= this.index.coreOfEntry(this.entry));
  }
  get coreLength(): number {
    return this.core === undefined ? this.index.coreLengthOfEntry(this.entry) : this.core.length;
  }
  coreStartsWith(text: string): boolean {
    return this.core === undefined ? this.index.coreStartsWith(this.entry, text) : this.core.startsWith(text);
  }
  coreHoldsWords(ids: readonly number[]): boolean | undefined {
    return this.index.entryCoreHoldsWords(this.entry, ids);
  }
}

/** A company of the overlay as a match. */
const overlayMatch = (c: VisibleName): NameMatch => ({ id: c.id, nameCore: c.nameCore, visibleReportCount: c.visibleReportCount });

/**
 * Entries read per query at most, before a word is judged too common to answer from memory: a
 * share of the names held, at least 100,000 (the bound of 10^6 companies, whose 453,476 visible
 * names it keeps), where a second word's postings narrow the first's (matchAll). Reading a posting
 * costs a few ns; the database's substring statement that answers a declined query grows with the
 * data too: at 10^7 (4.5 million visible names) `kara market` took 94.8 ms of CPU there, where
 * memory reads the two words' postings in a few ms (docs/benchmarks.md, 10^7).
 */
const MIN_POSTINGS_READ = 100_000;
const POSTINGS_READ_SHARE = 0.22;

/** VisibleNames' bound on the postings a query reads, for an index of `entries` names. */
export const postingsReadBound = (entries: number): number => Math.max(MIN_POSTINGS_READ, Math.round(entries * POSTINGS_READ_SHARE));
/** Entries whose words are checked for the other query words at most (a query with a common word and a rare piece: the database). */
const MAX_CHECKED = 20_000;
/**
 * matchFirst only (firstEntries): names checked in id order, a chunk at a time, until `limit`
 * hold every word; beyond this many checked the database answers. Checking a name costs ~0.3
 * µs a word: `haliay` at 10^6 (`hal` in 2 % of the names, ~47,000 checked) took 14–31 ms of the
 * serving thread, where its database statements took 71–136 ms of PostgreSQL (`nayokon`: 9–10
 * against 244–354; docs/benchmarks.md).
 */
const MAX_SCANNED = 65_536;
const SCAN_CHUNK = 4_096;
/**
 * Query words whose holders are kept (a word's vocabulary words and their postings never change
 * after the build): the common words of names (`gida`, `urunleri`) come back in most queries, and
 * finding their holders scans a trigram's words (0.1–0.2 ms each at 10^6). Cleared when full.
 */
const MAX_HOLDERS_KEPT = 4096;
/** And at most this many bytes of their word ids (a three-letter word can be inside thousands of words). */
const MAX_HOLDERS_BYTES = 2 * 1024 * 1024;

/** A view of a trigram's list of words: its object only, the ids are the index's. */
const HELD_VIEW_BYTES = 96;

/** The vocabulary's words holding a query word, and how many entries they post (a filler among them: Infinity). */
interface Holders {
  held: ArrayLike<number>;
  postings: number;
}

/** A core length that coreLengths cannot hold, or a core kept aside (coreExceptions). */
const LONG_OR_ODD = 0xffff;

const coreOf = (words: readonly string[]) => words.filter((w) => w !== '' && !FILLER_WORDS.has(w)).join(' ');

/** Builds a VisibleNames from companies given in ascending id order. */
export class VisibleNamesBuilder {
  private readonly words = new PackedWordsBuilder();
  private readonly ids: ChunkedIntList;
  private readonly counts: ChunkedIntList;
  private readonly countryOf: ChunkedIntList<Uint16Array>;
  private readonly countries: string[] = [];
  private readonly entryWordStart: ChunkedIntList;
  private readonly entryWords: ChunkedIntList;
  private readonly coreExceptions = new Map<number, string>();
  private lastId = -Infinity;

  /** @param expected how many companies and words of their keys will come, when known (a count): nothing is then grown. */
  constructor(expected: VisibleNamesCount = { companies: 0, words: 0 }) {
    const int32 = (n: number) => new Int32Array(n);
    this.ids = new ChunkedIntList(int32, expected.companies);
    this.counts = new ChunkedIntList(int32, expected.companies);
    this.countryOf = new ChunkedIntList((n) => new Uint16Array(n), expected.companies);
    this.entryWordStart = new ChunkedIntList(int32, expected.companies + 1);
    this.entryWords = new ChunkedIntList(int32, expected.words);
    this.entryWordStart.push(0);
  }

  add(company: VisibleName): void {
    if (company.visibleReportCount <= 0) return;
    if (!(company.id > this.lastId) || !Number.isSafeInteger(company.id) || company.id > 0x7fffffff) {
      throw new RangeError(`companies must come in ascending id order, as int32 (got ${company.id} after ${this.lastId})`);
    }
    this.lastId = company.id;
    const entry = this.ids.length;
    this.ids.push(company.id);
    this.counts.push(Math.min(company.visibleReportCount, 0x7fffffff));
    let country = this.countries.indexOf(company.country);
    if (country < 0) country = this.countries.push(company.country) - 1;
    this.countryOf.push(country);
    const keyWords = company.nameKey.split(' ');
    for (const word of keyWords) this.entryWords.push(this.words.idOf(word));
    this.entryWordStart.push(this.entryWords.length);
    if (coreOf(keyWords) !== company.nameCore) this.coreExceptions.set(entry, company.nameCore);
  }

  /**
   * @param options.shortWordsChecked checks of words on names at most when only words under 3
   * letters are left to check, before the database answers (matchAll): more where its index
   * finds them only by a pattern on the other words' candidates (PostgreSQL), MAX_CHECKED where
   * its word index looks them up (SQLite).
   */
  build(options: { shortWordsChecked?: number } = {}): VisibleNames {
    return new VisibleNames({
      shortWordsChecked: options.shortWordsChecked ?? MAX_CHECKED,
      words: this.words.build(),
      ids: this.ids.done(),
      counts: this.counts.done(),
      countryOf: this.countryOf.done(),
      countries: this.countries,
      entryWordStart: this.entryWordStart.done(),
      entryWords: this.entryWords.done(),
      coreExceptions: this.coreExceptions,
    });
  }
}

interface Packed {
  shortWordsChecked: number;
  words: PackedWords;
  ids: Int32Array;
  counts: Int32Array;
  countryOf: Uint16Array;
  countries: string[];
  entryWordStart: Int32Array;
  entryWords: Int32Array;
  coreExceptions: Map<number, string>;
}

export class VisibleNames {
  /** See VisibleNamesBuilder.build. */
  private readonly shortWordsChecked: number;
  private readonly words: PackedWords;
  private readonly filler: Uint8Array;
  private readonly ids: Int32Array;
  private readonly counts: Int32Array;
  private readonly countryOf: Uint16Array;
  private readonly countries: string[];
  private readonly entryWordStart: Int32Array;
  private readonly entryWords: Int32Array;
  private readonly coreExceptions: Map<number, string>;
  private readonly postingStart: Int32Array;
  private readonly postings: Int32Array;
  /** Per entry, its `name_core`'s length in UTF-16 units; LONG_OR_ODD: ask coreExceptions or the words. */
  private readonly coreLengths: Uint16Array;
  /** The overlay: entries no longer current, and companies' current state since the build. */
  private readonly dead: Uint8Array;
  /** Entries marked dead (none: matchAll reads no `dead` byte). */
  private deadCount = 0;
  /** Words of an entry's key on average (matchAll's and among's estimate of a check's cost). */
  private readonly wordsPerEntry: number;
  /** Postings a query reads at most (postingsReadBound). */
  private readonly maxPostingsRead: number;
  private readonly changed = new Map<number, VisibleName>();
  /** Query words' holders, as found (see MAX_HOLDERS_KEPT). */
  private readonly holdersKept = new Map<string, Holders>();
  private holdersBytes = 0;
  /** Per entry, the query step it was last seen in (a set without allocation; a byte: cleared every 255 steps). */
  private readonly seen: Uint8Array;
  private stamp = 0;
  /** A query's candidate entries, reused by every query (no array per query for the collector). */
  private readonly scratch: Int32Array;
  /** Per vocabulary word, the check it was last marked in (among: a set without allocation; cleared every 255 checks). */
  private readonly wordSeen: Uint8Array;
  private wordStamp = 0;

  constructor(packed: Packed) {
    this.shortWordsChecked = packed.shortWordsChecked;
    this.words = packed.words;
    this.ids = packed.ids;
    this.counts = packed.counts;
    this.countries = packed.countries;
    this.countryOf = packed.countryOf;
    this.entryWordStart = packed.entryWordStart;
    this.entryWords = packed.entryWords;
    this.coreExceptions = packed.coreExceptions;
    const n = this.ids.length;
    this.wordsPerEntry = n === 0 ? 1 : this.entryWords.length / n;
    this.maxPostingsRead = postingsReadBound(n);
    this.dead = new Uint8Array(n);
    this.seen = new Uint8Array(n);
    this.scratch = new Int32Array(n);
    const words = this.words.count;
    this.filler = new Uint8Array(words);
    this.wordSeen = new Uint8Array(words);
    for (let i = 0; i < words; i++) {
      const w = this.words.word(i);
      if (w === '' || FILLER_WORDS.has(w)) this.filler[i] = 1;
    }
    // Postings: entries per non-filler word, in entry order.
    const counts = new Int32Array(words + 1);
    for (let e = 0; e < n; e++) {
      for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
        const w = this.entryWords[k]!;
        // A word twice in one key is posted once (its last occurrence counts it, below).
        if (!this.filler[w] && !this.repeatsLater(e, k, w)) counts[w + 1]!++;
      }
    }
    for (let w = 0; w < words; w++) counts[w + 1]! += counts[w]!;
    this.postingStart = counts.slice();
    this.postings = new Int32Array(counts[words]!);
    const next = counts;
    for (let e = 0; e < n; e++) {
      for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
        const w = this.entryWords[k]!;
        if (!this.filler[w] && !this.repeatsLater(e, k, w)) this.postings[next[w]!++] = e;
      }
    }
    // D8's rank class asks every match for its core's length (name-rank-order.ts): kept, 2 bytes an entry.
    this.coreLengths = new Uint16Array(n);
    for (let e = 0; e < n; e++) this.coreLengths[e] = this.coreExceptions.has(e) ? LONG_OR_ODD : Math.min(this.coreLengthFromWords(e), LONG_OR_ODD);
  }

  private coreLengthFromWords(e: number): number {
    let length = -1;
    for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
      const w = this.entryWords[k]!;
      if (!this.filler[w]) length += 1 + this.words.lengthOf(w);
    }
    return Math.max(length, 0);
  }

  private repeatsLater(e: number, k: number, w: number): boolean {
    for (let j = k + 1; j < this.entryWordStart[e + 1]!; j++) if (this.entryWords[j] === w) return true;
    return false;
  }

  /** Companies in the index (the overlay's current state included). */
  get size(): number {
    let live = 0;
    for (let e = 0; e < this.ids.length; e++) if (!this.dead[e]) live++;
    return live + this.changed.size;
  }

  /** Companies in the index, as `size` but without a count: the packed ones not since changed, and the overlay's. */
  get liveCount(): number {
    return this.ids.length - this.deadCount + this.changed.size;
  }

  /** Companies changed since the build (kept whole beside the packed ones). */
  get changedCount(): number {
    return this.changed.size;
  }

  /** Bytes held, near enough: typed arrays (their whole buffers) and the words' string exactly, the overlay's maps by estimate. */
  bytes(): number {
    let bytes =
      12 * TYPED_ARRAY_OVERHEAD +
      this.ids.buffer.byteLength +
      this.counts.buffer.byteLength +
      this.countryOf.buffer.byteLength +
      this.entryWordStart.buffer.byteLength +
      this.entryWords.buffer.byteLength +
      this.postingStart.buffer.byteLength +
      this.postings.buffer.byteLength +
      this.filler.buffer.byteLength +
      this.dead.buffer.byteLength +
      this.seen.buffer.byteLength +
      this.scratch.buffer.byteLength +
      this.wordSeen.buffer.byteLength +
      this.coreLengths.buffer.byteLength +
      this.words.bytes();
    // A V8 string: ~16 bytes of header, a byte a character (one-byte strings); a Map entry ~24.
    for (const core of this.coreExceptions.values()) bytes += 40 + core.length;
    for (const c of this.changed.values()) bytes += 120 + c.nameKey.length + c.nameCore.length;
    return bytes + this.holdersBytes;
  }

  /** Applies the current state of changed companies: `current` holds those that still exist. */
  apply(changedIds: Iterable<number>, current: ReadonlyArray<VisibleName>): void {
    const byId = new Map(current.map((c) => [c.id, c]));
    for (const id of changedIds) {
      const entry = this.entryOf(id);
      if (entry >= 0 && this.dead[entry] === 0) {
        this.dead[entry] = 1;
        this.deadCount++;
      }
      const now = byId.get(id);
      if (now && now.visibleReportCount > 0) this.changed.set(id, now);
      else this.changed.delete(id);
    }
  }

  private entryOf(id: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * The companies whose key holds every one of `words` (D8; any order) and, when given, in
   * `country`; null when they may be more than `cap`, or no word can be looked up here (every
   * word of 3+ characters lies inside a legal-form or filler word, or is in too many names):
   * then the caller asks the database.
   */
  matchAll(words: readonly string[], country: string | null, cap: number): NameMatch[] | null {
    const found = this.matchEntries(words, country, cap);
    if (found === null) return null;
    const out: NameMatch[] = [];
    for (let i = 0; i < found.count; i++) {
      const e = this.scratch[i]!;
      out.push(new PackedMatch(this, e, this.ids[e]!, this.counts[e]!));
    }
    for (const c of found.changed) out.push(overlayMatch(c));
    return out;
  }

  /**
   * The `limit` companies with the lowest ids among those matchAll(words, country, ∞) gives (all
   * of them when fewer), in id order. Where matchAll declines for its cost, the names are checked
   * in id order until `limit` match (firstEntries); null only when that checks too many first.
   * Near matches score at most
   * `limit` candidates, with more the lowest ids, in memory and the database alike
   * (near-match-lookups.ts). Entries are numbered in id order: the matched ones are sorted (a
   * piece held by several words lists them word by word) and the first `limit` read (50,000
   * matches: a few ms, where the database's statement took 40–400).
   */
  matchFirst(words: readonly string[], country: string | null, limit: number): NameMatch[] | null {
    // Matches sorted by id: at most 100,000 (a sort of a million takes tens of ms), else checked in id order.
    const found = this.matchEntries(words, country, Infinity, MIN_POSTINGS_READ) ?? this.firstEntries(words, country, limit);
    if (found === null) return null;
    const out: NameMatch[] = [];
    this.scratch.subarray(0, found.count).sort();
    const packed = Math.min(found.count, limit);
    for (let i = 0; i < packed; i++) {
      const e = this.scratch[i]!;
      out.push(new PackedMatch(this, e, this.ids[e]!, this.counts[e]!));
    }
    if (found.changed.length === 0) return out;
    for (const c of found.changed) out.push(overlayMatch(c));
    return out.sort((a, b) => a.id - b.id).slice(0, limit);
  }

  /**
   * matchFirst's way where matchEntries declines for its cost: a word held by too many names, or
   * only inside a filler word (`hal` of İTHALAT: its holders are not listed), or too many names to
   * check another word on (`kon` and `nay` of SANAYİ: 21,283 names). Only the first `limit` are
   * wanted, so the names are checked in id order, a chunk at a time, for every word (the listed
   * word's holders sorted, else every entry), until `limit` hold them all: the packed ones in
   * `scratch[0 .. count]`, in id order, and every match of the overlay; null when more than
   * MAX_SCANNED names would be checked first (where the rest could not all be checked, judged
   * after each chunk by the rate of matches so far: a rarer piece gives up after one chunk, not
   * sixteen).
   */
  private firstEntries(words: readonly string[], country: string | null, limit: number): { count: number; changed: VisibleName[] } | null {
    const looked = [...new Set(words)];
    if (looked.length === 0) return null;
    const countryIndex = country === null ? -1 : this.countries.indexOf(country);
    let count = 0;
    if (country === null || countryIndex >= 0) {
      // The rarest word's holders when they can be listed, sorted (entries are in id order): at
      // most 100,000 whatever the index's size, as matchFirst's.
      const lead = looked
        .filter((w) => w.length >= 3)
        .map((word) => ({ word, ...this.holdersOf(word) }))
        .sort((a, b) => a.postings - b.postings)[0];
      const listed = lead !== undefined && lead.postings <= MIN_POSTINGS_READ ? this.scratch.slice(0, this.entriesOf(lead.held)).sort() : null;
      const others = listed ? looked.filter((w) => w !== lead!.word) : looked;
      const total = listed ? listed.length : this.ids.length;
      const chunk = new Int32Array(Math.min(SCAN_CHUNK, total));
      let scanned = 0;
      for (let at = 0; at < total && count < limit; at += SCAN_CHUNK) {
        if (scanned >= MAX_SCANNED) return null;
        let n = 0;
        for (let i = at; i < Math.min(total, at + SCAN_CHUNK); i++) {
          const e = listed ? listed[i]! : i;
          if (this.dead[e] || (countryIndex >= 0 && this.countryOf[e] !== countryIndex)) continue;
          chunk[n++] = e;
        }
        scanned += n;
        // Each word in turn on the chunk's names (a word's test is one at a time: wordTest).
        for (const w of others) {
          const holds = this.wordTest(w, n * this.wordsPerEntry);
          let kept = 0;
          for (let i = 0; i < n; i++) {
            const e = chunk[i]!;
            for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
              if (holds(this.entryWords[k]!)) {
                chunk[kept++] = e;
                break;
              }
            }
          }
          n = kept;
          if (n === 0) break;
        }
        for (let i = 0; i < n && count < limit; i++) this.scratch[count++] = chunk[i]!;
        // More left than may still be checked, and at this rate `limit` would not match within
        // MAX_SCANNED: the database, without checking the rest.
        const left = total - (at + SCAN_CHUNK);
        if (count < limit && left > MAX_SCANNED - scanned && scanned > 0 && (count * MAX_SCANNED) / scanned < limit) return null;
      }
    }
    const changed: VisibleName[] = [];
    for (const c of this.changed.values()) {
      if (country !== null && c.country !== country) continue;
      if (words.every((w) => c.nameKey.includes(w))) changed.push(c);
    }
    return { count, changed };
  }

  /**
   * matchAll's work: the packed entries in `scratch[0 .. count]` (not in order) and the overlay's
   * companies that match, null as matchAll (a `cap` of Infinity: all of them). No match made.
   */
  private matchEntries(
    words: readonly string[],
    country: string | null,
    cap: number,
    maxRead = this.maxPostingsRead,
  ): { count: number; changed: VisibleName[] } | null {
    const looked = [...new Set(words)].filter((w) => w.length >= 3);
    if (looked.length === 0) return null;
    const countryIndex = country === null ? -1 : this.countries.indexOf(country);
    // Each word's holders, rarest word first; a filler's holders are unknown (Infinity).
    const plans = looked.map((word) => ({ word, ...this.holdersOf(word) })).sort((a, b) => a.postings - b.postings);
    const lead = plans[0]!;
    // More postings than 100,000 are read only where the next word's postings will narrow them
    // (below); else they would be read to be declined: a word of 3+ letters alone (its matches
    // are more than any caller ranks here; short words are checked on at most 20,000–60,000
    // names), or beside one held by too many names, or only inside a filler.
    if (lead.postings > MIN_POSTINGS_READ) {
      const next = plans[1];
      if (lead.postings > maxRead || next === undefined || lead.postings + next.postings > maxRead || next.postings > 8 * lead.postings) return null;
    }
    // The candidates, then the hits, in `scratch[0 .. count]`.
    let count = 0;
    if (country === null || countryIndex >= 0) {
      // The rarest word's entries; the next words by their postings when few, else checked on the words.
      count = this.entriesOf(lead.held);
      let read = lead.postings;
      const rest: string[] = [];
      for (const p of plans.slice(1)) {
        if (read + p.postings <= maxRead && p.postings <= 8 * count) {
          count = this.keepHolding(count, p.held);
          read += p.postings;
        } else rest.push(p.word);
      }
      const others = [...rest, ...[...new Set(words)].filter((w) => w.length < 3)];
      // Checking a word on a name costs ~1 µs: beyond this many names, the database's plans are
      // cheaper; where only words under 3 letters are left, the build may allow more, as
      // PostgreSQL finds them only by a pattern on the other words' candidates (`PK Et Ürünleri`,
      // 25,895 names holding `urunleri` at 10^6: 185–207 ms there, 11–23 here; SQLite's word
      // index: 5–20 ms). Where more are allowed, the checks of every word count (a query of many
      // short words, each held by most names, would check them all again per word).
      const budget = rest.length === 0 ? this.shortWordsChecked : MAX_CHECKED;
      if (others.length > 0 && count > budget) return null;
      const checksAllowed = budget > MAX_CHECKED ? budget : Infinity;
      let checks = 0;
      if (this.deadCount > 0 || countryIndex >= 0) {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const e = this.scratch[i]!;
          if (this.dead[e] || (countryIndex >= 0 && this.countryOf[e] !== countryIndex)) continue;
          this.scratch[kept++] = e;
        }
        count = kept;
      }
      // Each other word checked on the names' words in turn, each word of the vocabulary tested
      // once (or its holders marked), not every word of every name per query word.
      for (const w of others) {
        if (count === 0) break;
        if ((checks += count) > checksAllowed) return null;
        const holds = this.wordTest(w, count * this.wordsPerEntry);
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const e = this.scratch[i]!;
          for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
            if (holds(this.entryWords[k]!)) {
              this.scratch[kept++] = e;
              break;
            }
          }
        }
        count = kept;
      }
      if (count > cap) return null;
    }
    const changed: VisibleName[] = [];
    for (const c of this.changed.values()) {
      if (country !== null && c.country !== country) continue;
      if (!words.every((w) => c.nameKey.includes(w))) continue;
      if (count + changed.length === cap) return null;
      changed.push(c);
    }
    return { count, changed };
  }

  /**
   * A check of `matches` for more words: the returned function gives those of them whose key
   * holds every one of `words` too, in their order. When `matches` is what matchAll(common,
   * country, …) just returned (no change applied since), exactly matchAll(common ∪ words,
   * country, ∞) as a set. Near matches (near-match-lookups.ts) check a group's few names holding
   * its shared words for each alternative's own pieces this way: as a look-up of their own, a
   * short piece (`ane`) read tens of thousands of postings and built a match, its `name_core`
   * included, for each of up to 4,000 names, most then dropped. See checkOn.
   */
  among(matches: readonly NameMatch[]): (words: readonly string[]) => NameMatch[] {
    const entries = Int32Array.from(matches, (m) =>
      this.changed.has(m.id) ? -1 : m instanceof PackedMatch && m.index === this ? m.entry : this.entryOf(m.id),
    );
    return this.checkOn(
      entries,
      (i) => matches[i]!,
      (i) => this.changed.get(matches[i]!.id)!.nameKey,
    );
  }

  /**
   * `among(matchAll(common, country, cap))`, null when matchAll is, with no match made for a name
   * that no check keeps (a group's holding names are up to 4,000, few of which hold a piece).
   */
  amongMatches(common: readonly string[], country: string | null, cap: number): ((words: readonly string[]) => NameMatch[]) | null {
    const found = this.matchEntries(common, country, cap);
    if (found === null) return null;
    const packed = found.count;
    const entries = new Int32Array(packed + found.changed.length).fill(-1);
    entries.set(this.scratch.subarray(0, packed));
    const made: Array<NameMatch | undefined> = [];
    return this.checkOn(
      entries,
      (i) =>
        (made[i] ??=
          i < packed ? new PackedMatch(this, entries[i]!, this.ids[entries[i]!]!, this.counts[entries[i]!]!) : overlayMatch(found.changed[i - packed]!)),
      (i) => found.changed[i - packed]!.nameKey,
    );
  }

  /**
   * The check of `among` on these entries (-1: a company of the overlay, whose key `overlayKey`
   * gives). The names' word ids are copied once into one short array that every alternative
   * scans (read from the index's arrays, each name cost two cache misses per alternative: the
   * largest item of a near-match search's CPU at 10^6). A word is decided on the names' own
   * words, each tested once (`contains`), or by marking its holders in the vocabulary
   * (holdersOf), whichever costs less; both say whether some word of the key contains it.
   */
  private checkOn(entries: Int32Array, matchOf: (i: number) => NameMatch, overlayKey: (i: number) => string): (words: readonly string[]) => NameMatch[] {
    const n = entries.length;
    const starts = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const e = entries[i]!;
      starts[i + 1] = starts[i]! + (e < 0 ? 0 : this.entryWordStart[e + 1]! - this.entryWordStart[e]!);
    }
    const keyWords = new Int32Array(starts[n]!);
    for (let i = 0; i < n; i++) {
      const e = entries[i]!;
      // Copied by hand: a view (subarray) an entry cost more than the copy.
      if (e >= 0) for (let k = this.entryWordStart[e]!, at = starts[i]!; k < this.entryWordStart[e + 1]!; k++) keyWords[at++] = this.entryWords[k]!;
    }
    // The names still kept, compacted in place per word; one array for every call of the check
    // (a new array per call by Array.from and a filter's closure per name were 6–10 % of a fresh
    // near-match search's CPU on PostgreSQL at 10^6). A call runs to its end before the next.
    const kept = new Int32Array(n);
    return (words) => {
      let count = n;
      for (let i = 0; i < n; i++) kept[i] = i;
      for (const w of words) {
        let wordsOfKept = 0;
        for (let j = 0; j < count; j++) wordsOfKept += starts[kept[j]! + 1]! - starts[kept[j]!]!;
        const holds = this.wordTest(w, wordsOfKept);
        let still = 0;
        for (let j = 0; j < count; j++) {
          const i = kept[j]!;
          let holding = false;
          if (entries[i]! < 0) holding = overlayKey(i).includes(w);
          else for (let k = starts[i]!; k < starts[i + 1]! && !holding; k++) holding = holds(keyWords[k]!);
          if (holding) kept[still++] = i;
        }
        count = still;
        if (count === 0) break;
      }
      const out = new Array<NameMatch>(count);
      for (let j = 0; j < count; j++) out[j] = matchOf(kept[j]!);
      return out;
    };
  }

  /**
   * Whether a vocabulary word contains `text`, for `among`: by its holders marked when that costs
   * less than testing the names' own `wordsToCheck` words, else each word tested once.
   */
  private wordTest(text: string, wordsToCheck: number): (w: number) => boolean {
    // Marking a word is a write, a test `contains`: ~4 marks a test. Holders not kept are found by
    // testing the words of the text's rarest trigram (a text of 3 units: they are its holders).
    const kept = text.length >= 3 ? this.holdersKept.get(text) : undefined;
    const toMark = kept !== undefined ? kept.held.length / 4 : text.length === 3 ? this.words.containingCost(text) / 4 : this.words.containingCost(text);
    if (text.length >= 3 && toMark <= wordsToCheck) {
      const stamp = this.markHolders(text);
      return (w) => this.wordSeen[w] === stamp;
    }
    // Two stamps: tested and held, tested and not held.
    const held = this.nextWordStamp(2);
    const not = held + 1;
    return (w) => {
      const seen = this.wordSeen[w];
      if (seen === held) return true;
      if (seen === not) return false;
      const contains = this.words.contains(w, text);
      this.wordSeen[w] = contains ? held : not;
      return contains;
    };
  }

  /** The first of `count` new stamps for `wordSeen` (cleared when they run out). */
  private nextWordStamp(count: number): number {
    if (this.wordStamp + count > 0xff) {
      this.wordSeen.fill(0);
      this.wordStamp = 0;
    }
    const first = this.wordStamp + 1;
    this.wordStamp += count;
    return first;
  }

  /** Marks the vocabulary's words holding `word` (3+ characters) in `wordSeen` with a new stamp, returned. */
  private markHolders(word: string): number {
    const held = this.holdersOf(word).held;
    const stamp = this.nextWordStamp(1);
    for (let i = 0; i < held.length; i++) this.wordSeen[held[i]!] = stamp;
    return stamp;
  }

  /** The vocabulary's words that contain `word` (3+ characters) and how many entries they post, kept for the next query. */
  private holdersOf(word: string): Holders {
    let holders = this.holdersKept.get(word);
    if (holders) return holders;
    // A view of the trigram lists or a list of its own; neither is ever written to.
    const held = this.words.containing(word);
    let postings = 0;
    for (let i = 0; i < held.length; i++) {
      const w = held[i]!;
      postings = this.filler[w] ? Infinity : postings + this.postingStart[w + 1]! - this.postingStart[w]!;
    }
    holders = { held, postings };
    // A Map entry and the word ~64 bytes; ~8 bytes an id in a JS array. A word of three units
    // holds a view of its trigram's list, whose ids are the index's own: counted as one view
    // (it was 8 bytes an id, and a few common trigrams of 10^4 words filled the 2 MB: the kept
    // holders were cleared every ~500 fresh names at 10^6, and the common words found again).
    const bytes = 64 + word.length + (Array.isArray(held) ? 8 * held.length : HELD_VIEW_BYTES);
    if (this.holdersKept.size >= MAX_HOLDERS_KEPT || this.holdersBytes + bytes > MAX_HOLDERS_BYTES) {
      this.holdersKept.clear();
      this.holdersBytes = 0;
    }
    this.holdersKept.set(word, holders);
    this.holdersBytes += bytes;
    return holders;
  }

  /** Puts the entries posted under any of the (non-filler) words, each once, in `scratch`; returns how many. */
  private entriesOf(wordIds: ArrayLike<number>): number {
    const stamp = this.nextStamp();
    let count = 0;
    for (let i = 0; i < wordIds.length; i++) {
      const w = wordIds[i]!;
      for (let k = this.postingStart[w]!; k < this.postingStart[w + 1]!; k++) {
        const e = this.postings[k]!;
        if (this.seen[e] !== stamp) {
          this.seen[e] = stamp;
          this.scratch[count++] = e;
        }
      }
    }
    return count;
  }

  /** Keeps those of `scratch[0 .. count]` posted under any of the words, in order; returns how many. */
  private keepHolding(count: number, wordIds: ArrayLike<number>): number {
    const stamp = this.nextStamp();
    for (let i = 0; i < wordIds.length; i++) {
      const w = wordIds[i]!;
      for (let k = this.postingStart[w]!; k < this.postingStart[w + 1]!; k++) this.seen[this.postings[k]!] = stamp;
    }
    let kept = 0;
    for (let i = 0; i < count; i++) if (this.seen[this.scratch[i]!] === stamp) this.scratch[kept++] = this.scratch[i]!;
    return kept;
  }

  private nextStamp(): number {
    this.stamp = (this.stamp + 1) & 0xff;
    if (this.stamp === 0) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  private entryHolds(e: number, text: string): boolean {
    for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) if (this.words.contains(this.entryWords[k]!, text)) return true;
    return false;
  }

  /**
   * For whole-word tests on matches (NameMatch.coreHoldsWords): each of `words` as the id of the
   * vocabulary's word it is, -1 when no packed name's core holds it as a word (not in the
   * vocabulary, or a filler); null when a word is too short to look up (under 3 units).
   */
  coreWordIds(words: readonly string[]): number[] | null {
    const ids: number[] = [];
    for (const word of words) {
      if (word.length < 3) return null;
      const held = this.holdersOf(word).held;
      let id = -1;
      for (let i = 0; i < held.length && id < 0; i++) if (this.words.lengthOf(held[i]!) === word.length) id = held[i]!;
      ids.push(id >= 0 && this.filler[id] ? -1 : id);
    }
    return ids;
  }

  /** Whether entry `e`'s core words include every one of `ids`; undefined when its stored core is not its key's. */
  entryCoreHoldsWords(e: number, ids: readonly number[]): boolean | undefined {
    if (this.coreLengths[e] === LONG_OR_ODD && this.coreExceptions.has(e)) return undefined;
    const from = this.entryWordStart[e]!;
    const to = this.entryWordStart[e + 1]!;
    for (const id of ids) {
      let held = false;
      for (let k = from; k < to && !held; k++) held = this.entryWords[k] === id;
      if (!held) return false;
    }
    return true;
  }

  /** Entry `e`'s `name_core` (for PackedMatch). */
  coreOfEntry(e: number): string {
    const exception = this.coreExceptions.get(e);
    if (exception !== undefined) return exception;
    let core = '';
    for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
      const w = this.entryWords[k]!;
      if (this.filler[w]) continue;
      core = core === '' ? this.words.word(w) : `${core} ${this.words.word(w)}`;
    }
    return core;
  }

  /** The length of entry `e`'s `name_core` in UTF-16 units, without making it. */
  coreLengthOfEntry(e: number): number {
    const length = this.coreLengths[e]!;
    if (length !== LONG_OR_ODD) return length;
    return this.coreExceptions.get(e)?.length ?? this.coreLengthFromWords(e);
  }

  /** Whether entry `e`'s `name_core` starts with `text` (as `startsWith`), without making it. */
  coreStartsWith(e: number, text: string): boolean {
    const exception = this.coreLengths[e] === LONG_OR_ODD ? this.coreExceptions.get(e) : undefined;
    if (exception !== undefined) return exception.startsWith(text);
    let at = 0;
    let first = true;
    for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
      const w = this.entryWords[k]!;
      if (this.filler[w]) continue;
      if (at >= text.length) return true;
      if (!first) {
        if (text.charCodeAt(at) !== 0x20) return false;
        if (++at >= text.length) return true;
      }
      first = false;
      if (!this.words.agreesAt(w, text, at)) return false;
      at += this.words.lengthOf(w);
    }
    return at >= text.length;
  }
}
