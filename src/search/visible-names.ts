/**
 * The searchable names of one server process, in memory (issue 28): every company with a
 * visible report (D12), packed, with the words of its `name_key` and what D8 ranks by. Pure: no
 * I/O; visible-names-keeper.ts loads it and keeps it current.
 *
 * Layout (typed arrays, no object per company):
 * - a vocabulary of the distinct words of the names' keys (`words`), each marked filler or not;
 * - per company (an *entry*, in id order): its id, visible report count, country, and its
 *   key's word ids in order (`name_key` is those words joined by spaces, `name_core` the
 *   non-filler ones, kept aside where the stored one differs);
 * - postings: for each non-filler word, the entries holding it;
 * - a trigram → words index over the vocabulary.
 *
 * A query word has no space, so `name_key LIKE '%w%'` holds iff some word of the key contains
 * `w`: the words containing `w` (the rarest of its trigrams' words, each checked) lead to the
 * entries holding it (their postings). A filler word (`sanayi`, `ltd`) has no postings: a query
 * word inside one is answered by checking other words' candidates, or not at all (null).
 *
 * Changes after the build go to an overlay: the old entry is marked dead and the company's new
 * state, if visible, is kept whole beside it and checked on every query.
 */
import { FILLER_WORDS } from '../companies/name-key.ts';

/** One company as the index sees it: what D8 matches and ranks by. */
export interface VisibleName {
  id: number;
  nameKey: string;
  nameCore: string;
  country: string;
  visibleReportCount: number;
}

/** A company that matched, with what D8 ranks it by. */
export interface NameMatch {
  id: number;
  nameCore: string;
  visibleReportCount: number;
}

/** Entries read per query at most, before a word is judged too common to answer from memory. */
const MAX_POSTINGS_READ = 100_000;
/** Entries whose words are checked for the other query words at most (a query with a common word and a rare piece: the database). */
const MAX_CHECKED = 20_000;

const EMPTY = new Int32Array(0);
/**
 * Query words whose holders are kept (a word's vocabulary words and their postings never change
 * after the build): the common words of names (`gida`, `urunleri`) come back in most queries, and
 * finding their holders scans a trigram's words (0.1–0.2 ms each at 10^6). Cleared when full.
 */
const MAX_HOLDERS_KEPT = 4096;
/** And at most this many bytes of their word ids (a three-letter word can be inside thousands of words). */
const MAX_HOLDERS_BYTES = 2 * 1024 * 1024;

/** Grows a typed array of int32 as values are pushed. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(value: number) {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

const coreOf = (words: readonly string[]) => words.filter((w) => w !== '' && !FILLER_WORDS.has(w)).join(' ');

/** Builds a VisibleNames from companies given in ascending id order. */
export class VisibleNamesBuilder {
  private readonly wordIds = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly ids = new IntList();
  private readonly counts = new IntList();
  private readonly countryOf = new IntList();
  private readonly countries: string[] = [];
  private readonly entryWordStart = new IntList();
  private readonly entryWords = new IntList();
  private readonly coreExceptions = new Map<number, string>();
  private lastId = -Infinity;

  constructor() {
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
    for (const word of keyWords) {
      let id = this.wordIds.get(word);
      if (id === undefined) {
        id = this.words.push(word) - 1;
        this.wordIds.set(word, id);
      }
      this.entryWords.push(id);
    }
    this.entryWordStart.push(this.entryWords.length);
    if (coreOf(keyWords) !== company.nameCore) this.coreExceptions.set(entry, company.nameCore);
  }

  build(): VisibleNames {
    return new VisibleNames({
      words: this.words,
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

interface Holders {
  held: Int32Array;
  postings: number;
}

interface Packed {
  words: string[];
  ids: Int32Array;
  counts: Int32Array;
  countryOf: Int32Array;
  countries: string[];
  entryWordStart: Int32Array;
  entryWords: Int32Array;
  coreExceptions: Map<number, string>;
}

export class VisibleNames {
  private readonly words: string[];
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
  private readonly trigramWords = new Map<string, Int32Array>();
  /** The overlay: entries no longer current, and companies' current state since the build. */
  private readonly dead: Uint8Array;
  private readonly changed = new Map<number, VisibleName>();
  /** Query words' holders, as found (see MAX_HOLDERS_KEPT). */
  private readonly holdersKept = new Map<string, Holders>();
  private holdersBytes = 0;
  /** Per entry, the query it was last seen in (a set without allocation). */
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(packed: Packed) {
    this.words = packed.words;
    this.ids = packed.ids;
    this.counts = packed.counts;
    this.countries = packed.countries;
    this.countryOf = Uint16Array.from(packed.countryOf);
    this.entryWordStart = packed.entryWordStart;
    this.entryWords = packed.entryWords;
    this.coreExceptions = packed.coreExceptions;
    const n = this.ids.length;
    this.dead = new Uint8Array(n);
    this.seen = new Uint32Array(n);
    this.filler = new Uint8Array(this.words.length);
    for (const [i, w] of this.words.entries()) if (w === '' || FILLER_WORDS.has(w)) this.filler[i] = 1;
    // Postings: entries per non-filler word, in entry order.
    const counts = new Int32Array(this.words.length + 1);
    for (let e = 0; e < n; e++) {
      for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
        const w = this.entryWords[k]!;
        // A word twice in one key is posted once (its last occurrence counts it, below).
        if (!this.filler[w] && !this.repeatsLater(e, k, w)) counts[w + 1]!++;
      }
    }
    for (let w = 0; w < this.words.length; w++) counts[w + 1]! += counts[w]!;
    this.postingStart = counts.slice();
    this.postings = new Int32Array(counts[this.words.length]!);
    const next = counts;
    for (let e = 0; e < n; e++) {
      for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
        const w = this.entryWords[k]!;
        if (!this.filler[w] && !this.repeatsLater(e, k, w)) this.postings[next[w]!++] = e;
      }
    }
    // Trigrams of every word (fillers too: a query word inside a filler must be known to be one).
    const byTrigram = new Map<string, number[]>();
    for (const [id, word] of this.words.entries()) {
      for (const t of new Set(trigramsOf(word))) {
        let list = byTrigram.get(t);
        if (!list) byTrigram.set(t, (list = []));
        list.push(id);
      }
    }
    for (const [t, list] of byTrigram) this.trigramWords.set(t, Int32Array.from(list));
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

  /** Companies changed since the build (kept whole beside the packed ones). */
  get changedCount(): number {
    return this.changed.size;
  }

  /** Bytes held, near enough: typed arrays exactly, strings and maps by estimate. */
  bytes(): number {
    let bytes =
      this.ids.byteLength +
      this.counts.byteLength +
      this.countryOf.byteLength +
      this.entryWordStart.byteLength +
      this.entryWords.byteLength +
      this.postingStart.byteLength +
      this.postings.byteLength +
      this.filler.byteLength +
      this.dead.byteLength +
      this.seen.byteLength;
    // A V8 string: ~16 bytes of header, a byte a character (one-byte strings); an array slot 8.
    for (const w of this.words) bytes += 24 + w.length;
    for (const [t, list] of this.trigramWords) bytes += 24 + t.length + 64 + list.byteLength;
    for (const core of this.coreExceptions.values()) bytes += 40 + core.length;
    for (const [word, kept] of this.holdersKept) bytes += 24 + word.length + 64 + kept.held.byteLength;
    for (const c of this.changed.values()) bytes += 120 + c.nameKey.length + c.nameCore.length;
    return bytes;
  }

  /** Applies the current state of changed companies: `current` holds those that still exist. */
  apply(changedIds: Iterable<number>, current: ReadonlyArray<VisibleName>): void {
    const byId = new Map(current.map((c) => [c.id, c]));
    for (const id of changedIds) {
      const entry = this.entryOf(id);
      if (entry >= 0) this.dead[entry] = 1;
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
    const looked = [...new Set(words)].filter((w) => w.length >= 3);
    if (looked.length === 0) return null;
    const countryIndex = country === null ? -1 : this.countries.indexOf(country);
    // Each word's holders, rarest word first; a filler's holders are unknown (Infinity).
    const plans = looked.map((word) => ({ word, ...this.holdersOf(word) })).sort((a, b) => a.postings - b.postings);
    const lead = plans[0]!;
    if (lead.postings > MAX_POSTINGS_READ) return null;
    const hits = new IntList();
    if (country === null || countryIndex >= 0) {
      // The rarest word's entries; the next words by their postings when few, else checked on the words.
      let entries = this.entriesOf(lead.held);
      let read = lead.postings;
      const rest: string[] = [];
      for (const p of plans.slice(1)) {
        if (read + p.postings <= MAX_POSTINGS_READ && p.postings <= 8 * entries.length) {
          entries = this.keepHolding(entries, p.held);
          read += p.postings;
        } else rest.push(p.word);
      }
      const others = [...rest, ...[...new Set(words)].filter((w) => w.length < 3)];
      // Checking words on the names costs ~1 µs a name: beyond this many, the database's plans are cheaper.
      if (others.length > 0 && entries.length > MAX_CHECKED) return null;
      for (const e of entries) {
        if (this.dead[e] || (countryIndex >= 0 && this.countryOf[e] !== countryIndex)) continue;
        if (others.length > 0 && !others.every((w) => this.entryHolds(e, w))) continue;
        if (hits.length === cap) return null;
        hits.push(e);
      }
    }
    const out: NameMatch[] = [];
    for (let i = 0; i < hits.length; i++) {
      const e = hits.data[i]!;
      out.push({ id: this.ids[e]!, nameCore: this.coreOfEntry(e), visibleReportCount: this.counts[e]! });
    }
    for (const c of this.changed.values()) {
      if (country !== null && c.country !== country) continue;
      if (!words.every((w) => c.nameKey.includes(w))) continue;
      if (out.length === cap) return null;
      out.push({ id: c.id, nameCore: c.nameCore, visibleReportCount: c.visibleReportCount });
    }
    return out;
  }

  /** The vocabulary's words that contain `word` (3+ characters) and how many entries they post (a filler among them: Infinity). */
  private holdersOf(word: string): Holders {
    let holders = this.holdersKept.get(word);
    if (holders) return holders;
    const held = this.wordsContaining(word);
    let postings = 0;
    for (const w of held) postings = this.filler[w] ? Infinity : postings + this.postingStart[w + 1]! - this.postingStart[w]!;
    holders = { held, postings };
    if (this.holdersKept.size >= MAX_HOLDERS_KEPT || this.holdersBytes + held.byteLength > MAX_HOLDERS_BYTES) {
      this.holdersKept.clear();
      this.holdersBytes = 0;
    }
    this.holdersKept.set(word, holders);
    this.holdersBytes += held.byteLength;
    return holders;
  }

  /** Ids of the vocabulary's words that contain `text` (3+ characters). */
  private wordsContaining(text: string): Int32Array {
    let rarest: Int32Array | undefined;
    for (const t of trigramsOf(text)) {
      const list = this.trigramWords.get(t);
      if (!list) return EMPTY;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    if (!rarest || text.length === 3) return rarest ?? EMPTY;
    const held = new IntList();
    for (const w of rarest) if (this.words[w]!.includes(text)) held.push(w);
    return held.done();
  }

  /** The entries posted under any of the (non-filler) words, each once. */
  private entriesOf(wordIds: Int32Array): Int32Array {
    const stamp = this.nextStamp();
    const out = new IntList();
    for (const w of wordIds) {
      for (let k = this.postingStart[w]!; k < this.postingStart[w + 1]!; k++) {
        const e = this.postings[k]!;
        if (this.seen[e] !== stamp) {
          this.seen[e] = stamp;
          out.push(e);
        }
      }
    }
    return out.done();
  }

  /** Those of `entries` posted under any of the words. */
  private keepHolding(entries: Int32Array, wordIds: Int32Array): Int32Array {
    const stamp = this.nextStamp();
    for (const w of wordIds) for (let k = this.postingStart[w]!; k < this.postingStart[w + 1]!; k++) this.seen[this.postings[k]!] = stamp;
    return entries.filter((e) => this.seen[e] === stamp);
  }

  private nextStamp(): number {
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  private entryHolds(e: number, text: string): boolean {
    for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) if (this.words[this.entryWords[k]!]!.includes(text)) return true;
    return false;
  }

  private coreOfEntry(e: number): string {
    const exception = this.coreExceptions.get(e);
    if (exception !== undefined) return exception;
    let core = '';
    for (let k = this.entryWordStart[e]!; k < this.entryWordStart[e + 1]!; k++) {
      const w = this.entryWords[k]!;
      if (this.filler[w]) continue;
      core = core === '' ? this.words[w]! : `${core} ${this.words[w]!}`;
    }
    return core;
  }
}

/** The distinct-or-not trigrams of a string (UTF-16 units, as `includes` compares). */
function trigramsOf(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= text.length; i++) out.push(text.slice(i, i + 3));
  return out;
}
