/**
 * The distinct words of the in-memory index of names (visible-names.ts), packed (issue 28): one
 * string holding every word one after another, each word's offset in an Int32Array, and a
 * trigram → words index as sorted keys and one list of word ids (CSR). No object per word or
 * trigram: the 10^6 bench's 212,506 words take 1.7 MB of characters and 0.9 MB of offsets, its
 * 10,234 trigrams' lists 5.3 MB, where a string per word, a Map of them and an Int32Array per
 * trigram held ~13 MB of V8's heap, and their build ~40 MB more until the next full collection.
 *
 * Words are compared as UTF-16 units, as `String.prototype.includes` does. Pure: no I/O.
 */

import { TrigramListsBuilder } from './trigram-lists.ts';

/** Grows a typed array of int32 as values are pushed; `done()` is the values, exactly. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number) {
    if (this.length === this.data.length) {
      // By half (not twice): less memory left behind for the collector while a load grows it.
      const bigger = new Int32Array(this.data.length + (this.data.length >> 1) + 16);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * An append-only list of integers: first into one array of the expected length (a load knows
 * it from a count), then in chunks of 64K values when more come. `done()` gives that first array
 * itself when it held them all and is not much too long: a load leaves the collector nothing,
 * where a doubling array leaves it up to three times the values' bytes (and malloc keeps them).
 */
export class ChunkedIntList<T extends Int32Array | Uint16Array = Int32Array> {
  private readonly chunks: T[] = [];
  private current: T;
  private used = 0;
  length = 0;
  constructor(
    private readonly make: (length: number) => T,
    expected = 0,
  ) {
    this.current = make(Math.max(expected, 1024));
  }
  push(value: number) {
    if (this.used === this.current.length) {
      this.chunks.push(this.current);
      this.current = this.make(1 << 16);
      this.used = 0;
    }
    this.current[this.used++] = value;
    this.length++;
  }
  /** The values, exactly. */
  done(): T {
    // Within 1/16 of the values: kept whole (a view), not copied.
    if (this.chunks.length === 0 && this.current.length - this.used <= (this.used >> 4) + 1024) return this.current.subarray(0, this.used) as T;
    const out = this.make(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    out.set(this.current.subarray(0, this.used), at);
    return out;
  }
}

/** A typed array's own objects on V8's heap (the view and its buffer), beside its bytes. */
export const TYPED_ARRAY_OVERHEAD = 160;

/** A trigram as one number: three UTF-16 units (exact in a double). */
const trigramKey = (a: number, b: number, c: number) => a * 4294967296 + b * 65536 + c;

/** Collects distinct words (each one's id: the order first seen) without a JS string per word. */
export class PackedWordsBuilder {
  private chars = new Uint16Array(1 << 16);
  private used = 0;
  private readonly starts = new IntList();
  /** Open addressing: word id + 1 per slot, 0 empty; kept at most half full. */
  private slots = new Int32Array(1 << 12);

  constructor() {
    this.starts.push(0);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  /** The id of `text.slice(from, to)`, added when new. */
  idOf(text: string, from = 0, to = text.length): number {
    let hash = 0x811c9dc5;
    for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!;
      if (held === 0) break;
      if (this.equals(held - 1, text, from, to)) return held - 1;
    }
    const id = this.count;
    this.append(text, from, to);
    if (2 * (id + 1) > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id, hash);
    return id;
  }

  build(): PackedWords {
    const chars = this.chars.subarray(0, this.used);
    let wide = false;
    for (const c of chars) if (c > 0xff) wide = true;
    // One string of all the words: one-byte (Latin-1) when every unit fits, as V8 stores it.
    const all = wide ? Buffer.from(chars.buffer, chars.byteOffset, chars.byteLength).toString('utf16le') : Buffer.from(chars).toString('latin1');
    return new PackedWords(all, this.starts.done());
  }

  private equals(id: number, text: string, from: number, to: number): boolean {
    const start = this.starts.data[id]!;
    if (this.starts.data[id + 1]! - start !== to - from) return false;
    for (let i = from; i < to; i++) if (this.chars[start + i - from] !== text.charCodeAt(i)) return false;
    return true;
  }

  private append(text: string, from: number, to: number) {
    if (this.used + to - from > this.chars.length) {
      const bigger = new Uint16Array(Math.max(this.used + to - from, this.chars.length + (this.chars.length >> 1)));
      bigger.set(this.chars.subarray(0, this.used));
      this.chars = bigger;
    }
    for (let i = from; i < to; i++) this.chars[this.used++] = text.charCodeAt(i);
    this.starts.push(this.used);
  }

  private place(id: number, hash: number) {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = id + 1;
  }

  private rehash(size: number) {
    this.slots = new Int32Array(size);
    for (let id = 0; id < this.count; id++) {
      let hash = 0x811c9dc5;
      for (let i = this.starts.data[id]!; i < this.starts.data[id + 1]!; i++) hash = Math.imul(hash ^ this.chars[i]!, 0x01000193);
      this.place(id, hash);
    }
  }
}

const EMPTY = new Int32Array(0);

export class PackedWords {
  /** The trigrams' keys in ascending order, each one's words at `trigramWords[trigramStart[t] .. trigramStart[t + 1]]`. */
  private readonly trigramKeys: Float64Array;
  private readonly trigramStart: Int32Array;
  private readonly trigramWords: Int32Array;
  /** Bytes a character of `all` takes: V8 stores a string of Latin-1 units in one byte each. */
  private readonly unitBytes: number;

  /**
   * @param all every word, one after another
   * @param starts word `w` is `all.slice(starts[w], starts[w + 1])`
   */
  constructor(
    private readonly all: string,
    private readonly starts: Int32Array,
  ) {
    let wide = false;
    for (let i = 0; i < all.length && !wide; i++) wide = all.charCodeAt(i) > 0xff;
    this.unitBytes = wide ? 2 : 1;
    // Each trigram's words, each word once per trigram, in word order (trigram-lists.ts).
    const lists = new TrigramListsBuilder();
    for (let w = 0; w < this.count; w++) {
      for (let i = starts[w]!; i + 3 <= starts[w + 1]!; i++) lists.count(trigramKey(all.charCodeAt(i), all.charCodeAt(i + 1), all.charCodeAt(i + 2)), w);
    }
    for (let w = 0; w < this.count; w++) {
      for (let i = starts[w]!; i + 3 <= starts[w + 1]!; i++) lists.place(trigramKey(all.charCodeAt(i), all.charCodeAt(i + 1), all.charCodeAt(i + 2)), w);
    }
    const built = lists.lists();
    this.trigramKeys = built.keys;
    this.trigramStart = built.start;
    this.trigramWords = built.words;
  }

  get count(): number {
    return this.starts.length - 1;
  }

  word(w: number): string {
    return this.all.slice(this.starts[w], this.starts[w + 1]);
  }

  /** Word `w`'s length in UTF-16 units. */
  lengthOf(w: number): number {
    return this.starts[w + 1]! - this.starts[w]!;
  }

  /** Whether word `w` and `text` from `at` agree over their common length (the word starts it, or it ends inside the word). */
  agreesAt(w: number, text: string, at: number): boolean {
    const start = this.starts[w]!;
    const n = Math.min(this.starts[w + 1]! - start, text.length - at);
    for (let i = 0; i < n; i++) if (this.all.charCodeAt(start + i) !== text.charCodeAt(at + i)) return false;
    return true;
  }

  /** Whether word `w` holds `text` (as `includes`). */
  contains(w: number, text: string): boolean {
    const end = this.starts[w + 1]! - text.length;
    for (let i = this.starts[w]!; i <= end; i++) {
      let j = 0;
      while (j < text.length && this.all.charCodeAt(i + j) === text.charCodeAt(j)) j++;
      if (j === text.length) return true;
    }
    return false;
  }

  /** How many words `containing(text)` tests (its rarest trigram's), without testing them; 0 when a trigram is in no word. */
  containingCost(text: string): number {
    let fewest = Infinity;
    for (let i = 0; i + 3 <= text.length; i++) {
      const t = this.find(trigramKey(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)));
      if (t < 0) return 0;
      fewest = Math.min(fewest, this.trigramStart[t + 1]! - this.trigramStart[t]!);
    }
    return fewest;
  }

  /** Ids of the words that contain `text` (3+ units), ascending. */
  containing(text: string): ArrayLike<number> {
    let from = 0;
    let to = -1;
    for (let i = 0; i + 3 <= text.length; i++) {
      const t = this.find(trigramKey(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)));
      if (t < 0) return EMPTY;
      const s = this.trigramStart[t]!;
      const e = this.trigramStart[t + 1]!;
      if (to < 0 || e - s < to - from) [from, to] = [s, e];
    }
    if (to < 0) return EMPTY;
    // A view, not a copy: nothing for the collector.
    if (text.length === 3) return this.trigramWords.subarray(from, to);
    const held: number[] = [];
    for (let k = from; k < to; k++) if (this.contains(this.trigramWords[k]!, text)) held.push(this.trigramWords[k]!);
    return held;
  }

  /** Bytes held: the characters (one or two a unit, as V8 stores the string) and the arrays. */
  bytes(): number {
    return (
      24 +
      4 * TYPED_ARRAY_OVERHEAD +
      this.all.length * this.unitBytes +
      this.starts.byteLength +
      this.trigramKeys.byteLength +
      this.trigramStart.byteLength +
      this.trigramWords.byteLength
    );
  }

  private find(key: number): number {
    let lo = 0;
    let hi = this.trigramKeys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.trigramKeys[mid]!;
      if (v === key) return mid;
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
