/**
 * The vocabulary of the names' words in one server process (issue 28): which strings may be a
 * word of some company's `name_core` (company_name_words, migration 0007), as a Bloom filter,
 * and every letter those words hold. Near matches (D25) ask it which of a query word's one-edit
 * variants (near-match-words.ts, 550–900 strings) to look up in the database: ~10 of them, not
 * all (the look-up of 800 variants cost ~0.5 ms of SQLite's CPU a word at 10^6); and, since it
 * knows every letter of every word, a word's one-edit corrections made with those letters are
 * every name word one edit from it, exactly, so the names holding such a word come from the
 * corrections alone, not from every name holding a piece of the word.
 *
 * A filter has false positives, never false negatives: a string it holds is then looked up in
 * the database, and one it does not hold is surely no name's word. It is kept current from the
 * words' ids (words are only added, each with a larger id than any before: the seam's
 * `vocabularySince`), read before each use: a rename, a new company from a filing or an import
 * in any process adds words that the next near-match search sees.
 *
 * Memory: 10 bits a word or more (a power of two), for twice the words it was built with (the
 * 10^6 bench's 395,954 words: 1 MB), built again, twice as large, when it outgrows that.
 */
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { Db } from '../db/types.ts';
import { readDataVersion } from '../db/data-version.repository.ts';
import type { WordTest } from './near-match-words.ts';

const BITS_PER_WORD = 10;
const HASHES = 7;
const MIN_WORDS = 1 << 16;
const CHUNK = 5_000;
/** Letters of nearly every key (name-key.ts folds Turkish letters to these). */
const PLAIN = /^[a-z0-9]$/;
const PLAIN_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

export class NameVocabulary {
  private bits = new Int32Array(0);
  private mask = 0;
  private capacity = 0;
  private words = 0;
  private lastId = 0;
  private version = -1;
  private otherLetters = new Set<string>();
  private loading: Promise<void> | null = null;

  /**
   * Reads the words added since the last call (all of them the first time).
   * @param knownVersion the data version, when read since the request arrived (the key's read):
   *   at or below the version caught up to, nothing is read, not even the version.
   */
  async refresh(db: Db, seam: DialectSeam, knownVersion?: number): Promise<void> {
    // One refresh at a time: concurrent searches wait for the same one.
    while (this.loading) await this.loading;
    if (knownVersion !== undefined && knownVersion <= this.version) return;
    this.loading = this.catchUp(db, seam).finally(() => {
      this.loading = null;
    });
    await this.loading;
  }

  private async catchUp(db: Db, seam: DialectSeam): Promise<void> {
    // Words are added only with a change of companies, which moves the data version (migration
    // 0003): unchanged, nothing to read (0.02 ms against 0.14 for the look-up by id). Read
    // first: a change committed meanwhile moves it again, and the next search catches up.
    const version = await readDataVersion(db);
    if (version === this.version) return;
    for (;;) {
      const { rows, maxId } = await seam.vocabularySince(db, this.lastId, CHUNK);
      // Fewer ids than before: the words were emptied (a test's reset); start again.
      if (maxId < this.lastId) {
        this.reset(MIN_WORDS);
        continue;
      }
      if (this.words + rows.length > this.capacity) {
        // Outgrown (or the first load): built again for twice the words, from the database.
        const total = await seam.vocabularySize(db);
        this.reset(Math.max(MIN_WORDS, 2 * total));
        continue;
      }
      for (const { id, word } of rows) {
        this.add(word);
        if (id > this.lastId) this.lastId = id;
      }
      if (rows.length < CHUNK) break;
    }
    this.version = version;
  }

  private reset(capacity: number) {
    this.capacity = capacity;
    // A power of two: a bit's index is a mask of the hash.
    this.bits = new Int32Array(2 ** Math.ceil(Math.log2((capacity * BITS_PER_WORD) / 32)));
    this.mask = this.bits.length * 32 - 1;
    this.words = 0;
    this.lastId = 0;
    this.otherLetters = new Set();
  }

  private add(word: string) {
    this.words++;
    for (const c of word) if (!PLAIN.test(c)) this.otherLetters.add(c);
    hash(word);
    for (let i = 0; i < HASHES; i++) {
      const bit = h1 & this.mask;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
      h1 = (h1 + h2) | 0;
    }
  }

  /** Whether `word` may be a name's word (false: surely not). */
  readonly mightHold = (word: string): boolean => {
    hash(word);
    return this.mightHoldHashed();
  };

  /** mightHold of the word written as UTF-16 `units[start .. end)`, read in place (near-match-words.ts, oneEditAwayWhere). */
  readonly mightHoldUnits: WordTest = (units, start, end) => {
    hashUnits(units, start, end);
    return this.mightHoldHashed();
  };

  /** Whether the filter holds the word whose hashes are in h1 and h2. */
  private mightHoldHashed(): boolean {
    if (this.words === 0) return false;
    for (let i = 0; i < HASHES; i++) {
      const bit = h1 & this.mask;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
      h1 = (h1 + h2) | 0;
    }
    return true;
  }

  /** Every letter of the names' words other than `a`–`z` and `0`–`9`. */
  letters(): string[] {
    return [...this.otherLetters];
  }

  /**
   * Every character a name key may hold but the space: `a`–`z`, `0`–`9` (the fillers' letters
   * among them) and `letters()`. Complete once refreshed (every name's words are in the table).
   */
  keyCharacters(): string[] {
    return [...PLAIN_CHARACTERS, ...this.otherLetters];
  }

  /** Words read so far, and the filter's size in bytes. */
  size(): { words: number; bytes: number } {
    return { words: this.words, bytes: this.bits.byteLength };
  }
}

/** Two 32-bit hashes of a string (FNV-1a and a multiplicative one), for double hashing: set in h1, h2. */
let h1 = 0;
let h2 = 0;
function hash(word: string): void {
  if (wordUnits.length < word.length) wordUnits = new Uint16Array(2 * word.length);
  for (let i = 0; i < word.length; i++) wordUnits[i] = word.charCodeAt(i);
  hashUnits(wordUnits, 0, word.length);
}
let wordUnits = new Uint16Array(64);

/** `hash` of the code units `units[start .. end)`. */
function hashUnits(units: Uint16Array, start: number, end: number): void {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = start; i < end; i++) {
    const c = units[i]!;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  h1 = a;
  // An odd step visits different bits.
  h2 = b | 1;
}
