/**
 * What a misspelt query word may have been (D25), the pure part: every string one edit from
 * it. The search looks them up in the list of words that company names hold
 * (company_name_words, migration 0007), so that a misspelt word leads straight to the few
 * names holding its correction instead of to every name holding a piece of it.
 */

/** Letters and digits of nearly every key (name-key.ts folds Turkish letters to these). */
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A test of a word written as UTF-16 code units, `units[start .. end)`: whether it may be (or is)
 * a word of names. It reads the units in place; no string is made for it.
 */
export type WordTest = (units: Uint16Array, start: number, end: number) => boolean;

/**
 * Every string one edit from `word` whose words all pass `holds`, each as the words it stands
 * for, in order, each once. One edit: a letter deleted, two neighbours swapped, a letter
 * replaced or inserted. A space may be inserted or replace a letter, for words run together
 * (`anadoluozturk` → `anadolu ozturk`); such a string stands for its words in a row. Replaced
 * and inserted letters come from `a`–`z`, `0`–`9`, the word's own and `moreLetters` (those seen
 * in names: `ł`, `ø`…); a name word with yet another letter is left to the search by pieces
 * (search.service.ts). Each letter more is ~2 × n strings more to test.
 *
 * The strings are ~700–3,000 a word, a tenth or less of which pass: each is written as code units
 * into one buffer, reused for the next, and tested there; only those that pass are made strings
 * (made, split and looked up as strings they were ~10 % of a fresh name's CPU at 10^6, on both
 * engines: docs/benchmarks.md).
 */
export function oneEditAwayWhere(word: string, moreLetters: Iterable<string>, holds: WordTest): string[][] {
  const chars = [...word];
  const n = chars.length;
  const length = word.length;
  const units = new Uint16Array(length);
  for (let k = 0; k < length; k++) units[k] = word.charCodeAt(k);
  // Where character i starts among the units.
  const at = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) at[i + 1] = at[i]! + chars[i]!.length;
  const letters = editLetters(chars, moreLetters);
  // The variant being tested: the word's first i characters, then what the edit puts after them.
  const buffer = new Uint16Array(length + 2);
  const found = new Set<string>();
  const out: string[][] = [];
  const keep = (variant: string, words: string[]) => {
    if (!found.has(variant)) {
      found.add(variant);
      out.push(words);
    }
  };
  /** Writes `units[from .. to)` at `p` in the buffer; returns where it ends. */
  const put = (p: number, from: number, to: number) => {
    for (let k = from; k < to; k++) buffer[p++] = units[k]!;
    return p;
  };
  for (let i = 0; i <= n; i++) {
    const head = at[i]!;
    if (i > 0) put(at[i - 1]!, at[i - 1]!, head);
    const rest = i < n ? at[i + 1]! : length;
    for (const c of letters) {
      // c inserted before character i; c in place of character i (itself: the word, not a variant).
      let p = head;
      for (let k = 0; k < c.length; k++) buffer[p++] = c.charCodeAt(k);
      if (holds(buffer, 0, put(p, head, length))) {
        const v = word.slice(0, head) + c + word.slice(head);
        keep(v, [v]);
      }
      if (i < n && c !== chars[i] && holds(buffer, 0, put(p, rest, length))) {
        const v = word.slice(0, head) + c + word.slice(rest);
        keep(v, [v]);
      }
    }
    // A space between two letters (the word was two run together), or in place of one.
    if (i > 0 && i < n && holds(units, 0, head) && holds(units, head, length)) {
      keep(`${word.slice(0, head)} ${word.slice(head)}`, [word.slice(0, head), word.slice(head)]);
    }
    if (i > 0 && i + 1 < n && holds(units, 0, head) && holds(units, rest, length)) {
      keep(`${word.slice(0, head)} ${word.slice(rest)}`, [word.slice(0, head), word.slice(rest)]);
    }
    // Character i deleted.
    if (i < n && length - (rest - head) > 0 && holds(buffer, 0, put(head, rest, length))) {
      const v = word.slice(0, head) + word.slice(rest);
      keep(v, [v]);
    }
    // Characters i and i + 1 swapped (equal ones: the word).
    if (i + 1 < n && chars[i] !== chars[i + 1]) {
      const after = at[i + 2]!;
      if (holds(buffer, 0, put(put(put(head, rest, after), head, rest), after, length))) {
        const v = word.slice(0, head) + chars[i + 1]! + chars[i]! + word.slice(after);
        keep(v, [v]);
      }
    }
  }
  return out;
}

/** Every string one edit from `word` (oneEditAwayWhere's, none left out), in its order. */
export function oneEditAway(word: string, moreLetters: Iterable<string> = []): string[] {
  return oneEditAwayWhere(word, moreLetters, () => true).map((words) => words.join(' '));
}

/**
 * The letters `oneEditAwayWhere` replaces and inserts, in its order: `a`–`z`, `0`–`9`, the word's
 * own, `moreLetters` (one character each: anything else is no letter, and left out).
 */
function editLetters(chars: readonly string[], moreLetters: Iterable<string>): string[] {
  const more = [...moreLetters].filter((c) => c.length === 1 || (c.length === 2 && c.codePointAt(0)! > 0xffff));
  return [...new Set([...KEY_ALPHABET, ...chars, ...more])];
}

/** The words a string of `oneEditAway` stands for. */
export const wordsOf = (variant: string): string[] => (variant.includes(' ') ? variant.split(' ') : [variant]);
