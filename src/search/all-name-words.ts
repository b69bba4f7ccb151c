/**
 * The words of every company's name, visible or not, in one server process (issue 28, D25):
 * what near matches ask the database today besides the candidates themselves, so that they can
 * be answered from memory (search/near-match-lookups.ts).
 *
 * - whether some company's `name_key` holds a query word (D25's misspelt word is one that no
 *   name holds, hidden companies' names included): the words containing it, from a trigram
 *   index over the words' bytes, and how many companies held each word when it was built;
 * - which strings company_name_words holds (migration 0007: every word some `name_core` ever
 *   held, kept after a rename): the corrections of a misspelt word;
 * - the letters of those words other than `a`–`z`, `0`–`9` (the corrections are made with them).
 *
 * Layout (typed arrays, no string or object per word): the words' UTF-8 bytes in one buffer
 * with their offsets; an open-addressing hash table of word ids; per word the companies holding
 * it (Int32) and whether company_name_words holds it (a byte); the trigrams of the words'
 * bytes, sorted, with the words holding each (CSR). A byte substring of UTF-8 is a character
 * substring, so the bytes answer `includes` exactly.
 *
 * Changes after the build (the change log, visible-names-keeper.ts): each changed company's
 * current `name_key` is kept whole (a map, bounded by the keeper's rebuild), and its `name_core`
 * words join the known words, as the database's trigger adds them. A packed word then surely has
 * a holder when more companies held it than have changed since; otherwise the answer is unknown
 * (null) and the caller asks the database.
 */

import type { WordTest } from './near-match-words.ts';
import { TrigramListsBuilder } from './trigram-lists.ts';

const encoder = new TextEncoder();
/** Letters of nearly every key (name-key.ts folds Turkish letters to these). */
const PLAIN = /^[a-z0-9]$/;

/** Builds an AllNameWords from company_name_words and every company's `name_key`. */
export class AllNameWordsBuilder {
  /**
   * The words by a hash of their UTF-16 code units (ids + 1, 0: empty), compared in place: a
   * name's words are found without a string made for each (10^6 names at load: 5 s as a Map).
   */
  private table = new Int32Array(1 << 16);
  private hashes = new Int32Array(1 << 15);
  private readonly words: string[] = [];
  private holders = new Int32Array(1 << 15);
  private known = new Uint8Array(1 << 15);
  private lastCounted = new Int32Array(1 << 15);
  private companies = 0;

  /** A word of company_name_words. */
  addKnownWord(word: string): void {
    this.known[this.idOf(word, 0, word.length)] = 1;
  }

  /** One company's `name_key` (any visibility). */
  addName(nameKey: string): void {
    this.companies++;
    let start = 0;
    for (let i = 0; i <= nameKey.length; i++) {
      if (i < nameKey.length && nameKey.charCodeAt(i) !== 32) continue;
      if (i > start) {
        const id = this.idOf(nameKey, start, i);
        // A word twice in one name is one company holding it.
        if (this.lastCounted[id] !== this.companies) {
          this.lastCounted[id] = this.companies;
          this.holders[id]!++;
        }
      }
      start = i + 1;
    }
  }

  /** The id of `text.slice(start, end)`, added when new. */
  private idOf(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    const mask = this.table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.table[slot]! - 1;
      if (id < 0) return this.addWord(text.slice(start, end), h, slot);
      const word = this.words[id]!;
      if (word.length === end - start && text.startsWith(word, start)) return id;
    }
  }

  private addWord(word: string, hash: number, slot: number): number {
    const id = this.words.push(word) - 1;
    if (id === this.holders.length) {
      this.hashes = grow(this.hashes, Int32Array);
      this.holders = grow(this.holders, Int32Array);
      this.known = grow(this.known, Uint8Array);
      this.lastCounted = grow(this.lastCounted, Int32Array);
    }
    this.hashes[id] = hash;
    this.table[slot] = id + 1;
    // At most half full.
    if (2 * this.words.length > this.table.length) {
      this.table = new Int32Array(this.table.length * 2);
      const mask = this.table.length - 1;
      for (let w = 0; w < this.words.length; w++) {
        let s = this.hashes[w]! & mask;
        while (this.table[s] !== 0) s = (s + 1) & mask;
        this.table[s] = w + 1;
      }
    }
    return id;
  }

  build(): AllNameWords {
    const n = this.words.length;
    const starts = new Int32Array(n + 1);
    let text = new Uint8Array(8 * n + 16);
    let length = 0;
    const letters = new Set<string>();
    for (const [id, word] of this.words.entries()) {
      while (text.length - length < 4 * word.length) text = grow(text, Uint8Array);
      length += encoder.encodeInto(word, text.subarray(length)).written;
      starts[id + 1] = length;
      if (this.known[id]) for (const c of word) if (!PLAIN.test(c)) letters.add(c);
    }
    return new AllNameWords({
      text: text.slice(0, length),
      starts,
      holders: this.holders.slice(0, n),
      known: this.known.slice(0, n),
      letters,
    });
  }
}

function grow<T extends Int32Array | Uint8Array>(array: T, make: new (n: number) => T): T {
  const bigger = new make(array.length * 2);
  bigger.set(array);
  return bigger;
}

interface PackedWords {
  text: Uint8Array;
  starts: Int32Array;
  holders: Int32Array;
  known: Uint8Array;
  letters: Set<string>;
}

/** A company changed since the build, as it is now (null: it no longer exists). */
export interface ChangedName {
  id: number;
  nameKey: string;
  nameCore: string;
}

export class AllNameWords {
  private readonly text: Uint8Array;
  private readonly starts: Int32Array;
  private readonly holders: Int32Array;
  private readonly known: Uint8Array;
  private readonly table: Int32Array;
  private readonly tableMask: number;
  /**
   * A bit per hash of the known words (a Bloom filter of one hash, ~8 bits a word: ~12 % of
   * other strings pass): most corrections tried are no word, and each probe of the table (4 MB
   * at 10^6) was a cache miss, 6–11 % of a fresh name's CPU on PostgreSQL.
   */
  private readonly knownFilter: Int32Array;
  private readonly filterShift: number;
  private readonly trigrams: Int32Array;
  private readonly trigramStart: Int32Array;
  private readonly trigramWords: Int32Array;
  private readonly otherLetters: Set<string>;
  /** Changed companies' current `name_key` ('' when deleted). */
  private readonly changed = new Map<number, string>();
  /** Words company_name_words gained since the build. */
  private readonly knownSince = new Set<string>();
  /** Their hashes (hashBytes): holdsKnown makes a string of a variant only when its hash is one of them. */
  private readonly knownSinceHashes = new Set<number>();
  private scratch = new Uint8Array(256);

  constructor(packed: PackedWords) {
    this.text = packed.text;
    this.starts = packed.starts;
    this.holders = packed.holders;
    this.known = packed.known;
    this.otherLetters = packed.letters;
    const n = this.holders.length;
    // The hash table: a power of two at least twice the words, ids + 1 (0: empty).
    this.table = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(16, 2 * n))));
    this.tableMask = this.table.length - 1;
    for (let w = 0; w < n; w++) {
      let slot = hashBytes(this.text, this.starts[w]!, this.starts[w + 1]!) & this.tableMask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.tableMask;
      this.table[slot] = w + 1;
    }
    let knownCount = 0;
    for (let w = 0; w < n; w++) knownCount += this.known[w]!;
    const filterBits = Math.max(10, Math.ceil(Math.log2(8 * Math.max(1, knownCount))));
    this.filterShift = 32 - filterBits;
    this.knownFilter = new Int32Array(2 ** (filterBits - 5));
    for (let w = 0; w < n; w++) {
      if (this.known[w] !== 1) continue;
      const bit = Math.imul(hashBytes(this.text, this.starts[w]!, this.starts[w + 1]!), 0x9e3779b1) >>> this.filterShift;
      this.knownFilter[bit >>> 5]! |= 1 << (bit & 31);
    }
    // Trigrams: each word's distinct trigrams of bytes (24-bit keys), sorted, with their words
    // (trigram-lists.ts).
    const { text, starts } = this;
    const lists = new TrigramListsBuilder();
    for (let w = 0; w < n; w++) {
      for (let i = starts[w]!; i + 3 <= starts[w + 1]!; i++) lists.count((text[i]! << 16) | (text[i + 1]! << 8) | text[i + 2]!, w);
    }
    for (let w = 0; w < n; w++) {
      for (let i = starts[w]!; i + 3 <= starts[w + 1]!; i++) lists.place((text[i]! << 16) | (text[i + 1]! << 8) | text[i + 2]!, w);
    }
    const built = lists.lists();
    this.trigrams = Int32Array.from(built.keys);
    this.trigramStart = built.start;
    this.trigramWords = built.words;
  }

  /** Applies the current state of changed companies (those in `current` exist; the rest were deleted). */
  apply(changedIds: Iterable<number>, current: readonly ChangedName[]): void {
    const byId = new Map(current.map((c) => [c.id, c]));
    for (const id of changedIds) {
      const now = byId.get(id);
      this.changed.set(id, now?.nameKey ?? '');
      // The database adds a new or renamed name's core words (migration 0007); a word already
      // known stays known.
      if (now) for (const word of now.nameCore.split(' ')) if (word !== '' && !this.isKnown(word)) this.addKnown(word);
    }
  }

  private addKnown(word: string): void {
    this.knownSince.add(word);
    const bytes = encoder.encode(word);
    this.knownSinceHashes.add(hashBytes(bytes, 0, bytes.length));
    for (const c of word) if (!PLAIN.test(c)) this.otherLetters.add(c);
  }

  /** Companies changed since the build. */
  get changedCount(): number {
    return this.changed.size;
  }

  /**
   * Whether some company's `name_key` holds `text` (3+ bytes, no space): true or false, or null
   * when only names that may have changed since the build held it (then ask the database).
   */
  holdsSubstring(text: string): boolean | null {
    for (const key of this.changed.values()) if (key.includes(text)) return true;
    const bytes = this.encode(text);
    if (bytes.length < 3) return null;
    // The words holding its rarest trigram, each checked for the whole text.
    let best = -1;
    for (let i = 0; i + 3 <= bytes.length; i++) {
      const slot = this.trigramSlot((bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!);
      if (slot < 0) return false;
      if (best < 0 || this.trigramStart[slot + 1]! - this.trigramStart[slot]! < this.trigramStart[best + 1]! - this.trigramStart[best]!) best = slot;
    }
    let maybe = false;
    for (let k = this.trigramStart[best]!; k < this.trigramStart[best + 1]!; k++) {
      const w = this.trigramWords[k]!;
      // A word no company held at the build (company_name_words keeps old ones) is held only
      // by a changed name, if any, and those were checked whole.
      if (this.holders[w] === 0 || !this.wordContains(w, bytes)) continue;
      // Each changed company may have held it and no longer does.
      if (this.holders[w]! > this.changed.size) return true;
      maybe = true;
    }
    return maybe ? null : false;
  }

  /** Whether company_name_words holds `word`. */
  isKnown(word: string): boolean {
    return this.knownId(word) >= 0 || this.knownSince.has(word);
  }

  /**
   * Whether the word written as UTF-16 `units[start .. end)` is one company_name_words holds
   * (isKnown without a string: near-match-words.ts, oneEditAwayWhere, tests a word's ~700–3,000
   * variants with it).
   */
  readonly holdsKnown: WordTest = (units, start, end) => {
    // ASCII (nearly every variant): its own UTF-8 bytes, hashed from the units.
    let h = 0x811c9dc5;
    for (let k = start; k < end; k++) {
      const c = units[k]!;
      if (c >= 0x80) return this.isKnown(String.fromCharCode(...units.subarray(start, end)));
      h = Math.imul(h ^ c, 0x01000193);
    }
    const hash = h >>> 0;
    if (this.mayBeKnown(hash)) {
      for (let slot = hash & this.tableMask; ; slot = (slot + 1) & this.tableMask) {
        const w = this.table[slot]! - 1;
        if (w < 0) break;
        if (this.wordEqualsUnits(w, units, start, end)) {
          if (this.known[w] === 1) return true;
          break;
        }
      }
    }
    return this.knownSinceHashes.has(hash) && this.knownSince.has(String.fromCharCode(...units.subarray(start, end)));
  };

  /** Every letter of company_name_words' words other than `a`–`z` and `0`–`9`. */
  letters(): string[] {
    return [...this.otherLetters];
  }

  /** Words packed, and bytes held (typed arrays exactly; the changes by estimate). */
  size(): { words: number; bytes: number } {
    let bytes =
      this.text.byteLength +
      this.starts.byteLength +
      this.holders.byteLength +
      this.known.byteLength +
      this.table.byteLength +
      this.knownFilter.byteLength +
      this.trigrams.byteLength +
      this.trigramStart.byteLength +
      this.trigramWords.byteLength;
    for (const key of this.changed.values()) bytes += 60 + key.length;
    for (const word of this.knownSince) bytes += 40 + word.length;
    return { words: this.holders.length, bytes };
  }

  /** The id of a packed word that company_name_words holds, or -1. */
  private knownId(word: string): number {
    // A word of ASCII letters (nearly every correction tried: ~1,000–3,000 a misspelt word) is its
    // own UTF-8 bytes: hashed and compared from its code units, with no encoding and no view made.
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c >= 0x80) return this.knownIdOfBytes(this.encode(word));
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (!this.mayBeKnown(h >>> 0)) return -1;
    for (let slot = (h >>> 0) & this.tableMask; ; slot = (slot + 1) & this.tableMask) {
      const w = this.table[slot]! - 1;
      if (w < 0) return -1;
      if (this.wordEqualsAscii(w, word)) return this.known[w] === 1 ? w : -1;
    }
  }

  private knownIdOfBytes(bytes: Uint8Array): number {
    const hash = hashBytes(bytes, 0, bytes.length);
    if (!this.mayBeKnown(hash)) return -1;
    for (let slot = hash & this.tableMask; ; slot = (slot + 1) & this.tableMask) {
      const w = this.table[slot]! - 1;
      if (w < 0) return -1;
      if (this.wordEquals(w, bytes)) return this.known[w] === 1 ? w : -1;
    }
  }

  /** False: no known word has this hash (hashBytes). */
  private mayBeKnown(hash: number): boolean {
    const bit = Math.imul(hash, 0x9e3779b1) >>> this.filterShift;
    return (this.knownFilter[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  private trigramSlot(key: number): number {
    let lo = 0;
    let hi = this.trigrams.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.trigrams[mid]!;
      if (v === key) return mid;
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** `text` as UTF-8, in a buffer reused until the next call. */
  private encode(text: string): Uint8Array {
    if (this.scratch.length < 3 * text.length) this.scratch = new Uint8Array(3 * text.length);
    return this.scratch.subarray(0, encoder.encodeInto(text, this.scratch).written);
  }

  private wordEquals(w: number, bytes: Uint8Array): boolean {
    const start = this.starts[w]!;
    if (this.starts[w + 1]! - start !== bytes.length) return false;
    for (let i = 0; i < bytes.length; i++) if (this.text[start + i] !== bytes[i]) return false;
    return true;
  }

  /** Whether packed word `w` is the ASCII `units[start .. end)`. */
  private wordEqualsUnits(w: number, units: Uint16Array, start: number, end: number): boolean {
    const from = this.starts[w]!;
    if (this.starts[w + 1]! - from !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.text[from + i] !== units[start + i]) return false;
    return true;
  }

  private wordEqualsAscii(w: number, word: string): boolean {
    const start = this.starts[w]!;
    if (this.starts[w + 1]! - start !== word.length) return false;
    for (let i = 0; i < word.length; i++) if (this.text[start + i] !== word.charCodeAt(i)) return false;
    return true;
  }

  private wordContains(w: number, bytes: Uint8Array): boolean {
    const start = this.starts[w]!;
    const last = this.starts[w + 1]! - bytes.length;
    outer: for (let i = start; i <= last; i++) {
      for (let j = 0; j < bytes.length; j++) if (this.text[i + j] !== bytes[j]) continue outer;
      return true;
    }
    return false;
  }
}

/** FNV-1a over bytes. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}
