/**
 * The trigram → words lists (CSR) of the in-memory indexes' words (packed-words.ts,
 * all-name-words.ts), built in two passes over every trigram of every word (issue 28): `count`
 * each, then `place` each, then the lists. A trigram's key is looked up once per occurrence and
 * pass: through a `Map` that was most of each build's time at 10^6 (0.35 and 0.49 s of 0.39 and
 * 0.55 s, keys above 2^31 each a heap number made) while the serving thread waited; here by
 * open addressing in typed arrays (KeyIds). The callers loop over their own words' keys and call
 * these methods (one class: V8 inlines them; a visitor function per trigram cost as much again).
 * Pure.
 */

/** What the two passes make: the keys ascending, trigram t's words at `words[start[t] .. start[t + 1]]`. */
export interface TrigramLists {
  keys: Float64Array;
  start: Int32Array;
  words: Int32Array;
}

export class TrigramListsBuilder {
  private readonly ids = new KeyIds(1 << 14);
  private counts = new Int32Array(1 << 14);
  private last = new Int32Array(1 << 14).fill(-1);
  private keys: Float64Array | null = null;
  private rank: Int32Array | null = null;
  private start: Int32Array | null = null;
  private next: Int32Array | null = null;
  private words: Int32Array | null = null;

  /** First pass: word `w` holds trigram `key` (words in ascending order; a word's repeats count once). */
  count(key: number, w: number): void {
    const t = this.ids.idOf(key);
    if (t === this.counts.length) {
      const counts = new Int32Array(2 * t);
      counts.set(this.counts);
      this.counts = counts;
      const last = new Int32Array(2 * t).fill(-1);
      last.set(this.last);
      this.last = last;
    }
    if (this.last[t] === w) return;
    this.last[t] = w;
    this.counts[t]!++;
  }

  /** Second pass: the same calls again, in the same order. */
  place(key: number, w: number): void {
    if (this.words === null) this.startPlacing();
    const t = this.ids.get(key);
    if (this.last[t] === w) return;
    this.last[t] = w;
    this.words![this.next![this.rank![t]!]!++] = w;
  }

  /** The lists, once both passes are done. */
  lists(): TrigramLists {
    if (this.words === null) this.startPlacing();
    return { keys: this.keys!, start: this.start!, words: this.words! };
  }

  private startPlacing(): void {
    const size = this.ids.size;
    const keys = this.ids.keysById().slice();
    keys.sort();
    const rank = new Int32Array(size);
    for (const [i, key] of keys.entries()) rank[this.ids.get(key)] = i;
    const start = new Int32Array(size + 1);
    for (let t = 0; t < size; t++) start[rank[t]! + 1] = this.counts[t]!;
    for (let i = 0; i < size; i++) start[i + 1]! += start[i]!;
    this.keys = keys;
    this.rank = rank;
    this.start = start;
    this.next = start.slice(0, size);
    this.words = new Int32Array(start[size]!);
    this.last.fill(-1);
  }
}

/**
 * Dense ids (0, 1, 2, … in the order first seen) for integer keys below 2^53, by open addressing
 * in typed arrays.
 */
export class KeyIds {
  private keys: Float64Array;
  /** Per slot: the key's id + 1, 0 when empty; at most half full. */
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected = 1024) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, 2 * expected)));
    this.slots = new Int32Array(slots);
    this.mask = slots - 1;
    this.keys = new Float64Array(Math.max(16, expected));
  }

  /** The key's id, -1 when it has none. */
  get(key: number): number {
    for (let slot = hashOf(key) & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot]! - 1;
      if (id < 0 || this.keys[id] === key) return id;
    }
  }

  /** The key's id, given the next one when it is new. */
  idOf(key: number): number {
    let slot = hashOf(key) & this.mask;
    for (; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot]! - 1;
      if (id < 0) break;
      if (this.keys[id] === key) return id;
    }
    const id = this.size++;
    if (id === this.keys.length) {
      const bigger = new Float64Array(2 * this.keys.length);
      bigger.set(this.keys);
      this.keys = bigger;
    }
    this.keys[id] = key;
    this.slots[slot] = id + 1;
    if (2 * this.size > this.slots.length) this.grow();
    return id;
  }

  /** The keys by id (`keysById()[id]` is its key). */
  keysById(): Float64Array {
    return this.keys.subarray(0, this.size);
  }

  private grow(): void {
    this.slots = new Int32Array(2 * this.slots.length);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let slot = hashOf(this.keys[id]!) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    }
  }
}

/** Both halves of the key mixed (`>>> 0` keeps the low 32 bits of any integer below 2^53). */
function hashOf(key: number): number {
  const low = key >>> 0;
  const high = (key / 4294967296) >>> 0;
  const h = Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1);
  return (h ^ (h >>> 15)) >>> 0;
}
