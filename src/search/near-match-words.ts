/**
 * What a misspelt query word may have been (D25), the pure part: every string one edit from
 * it. The search looks them up in the list of words that company names hold
 * (company_name_words, migration 0007), so that a misspelt word leads straight to the few
 * names holding its correction instead of to every name holding a piece of it.
 */

/** Letters and digits of nearly every key (name-key.ts folds Turkish letters to these). */
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Every string one edit from `word`: a letter deleted, two neighbours swapped, a letter
 * replaced or inserted. A space may be inserted or replace a letter, for words run together
 * (`anadoluozturk` → `anadolu ozturk`); such a string stands for its words in a row. Replaced
 * and inserted letters come from `a`–`z`, `0`–`9`, the word's own and `moreLetters` (those seen
 * in names: `ł`, `ø`…); a name word with yet another letter is left to the search by pieces
 * (search.service.ts). Each letter more is ~2 × n strings more to look up.
 */
export function oneEditAway(word: string, moreLetters: Iterable<string> = []): string[] {
  const chars = [...word];
  const n = chars.length;
  const letters = editLetters(chars, moreLetters);
  const out = new Set<string>();
  let head = '';
  for (let i = 0; i <= n; i++) {
    const tail = i < n ? chars.slice(i).join('') : '';
    const rest = i < n ? tail.slice(chars[i]!.length) : '';
    for (const c of letters) {
      out.add(head + c + tail);
      if (i < n) out.add(head + c + rest);
    }
    // A space between two letters: the word was two run together.
    if (i > 0 && i < n) out.add(`${head} ${tail}`);
    if (i > 0 && i + 1 < n) out.add(`${head} ${rest}`);
    if (i < n) out.add(head + rest);
    if (i + 1 < n) out.add(head + chars[i + 1]! + chars[i]! + rest.slice(chars[i + 1]!.length));
    if (i < n) head += chars[i]!;
  }
  out.delete(word);
  out.delete('');
  return [...out];
}

/** The letters `oneEditAway` replaces and inserts, in its order: `a`–`z`, `0`–`9`, the word's own, `moreLetters`. */
export function editLetters(chars: readonly string[], moreLetters: Iterable<string>): string[] {
  return [...new Set([...KEY_ALPHABET, ...chars, ...moreLetters])];
}

/** The words a string of `oneEditAway` stands for. */
export const wordsOf = (variant: string): string[] => (variant.includes(' ') ? variant.split(' ') : [variant]);

/** Every word that some string of `variants` stands for, once. */
export function wordsOfVariants(variants: readonly string[]): string[] {
  const words = new Set<string>();
  for (const v of variants) {
    if (v.includes(' ')) for (const w of v.split(' ')) words.add(w);
    else words.add(v);
  }
  return [...words];
}
