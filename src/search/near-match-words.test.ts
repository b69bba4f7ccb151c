import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oneEditAway, oneEditAwayWhere, wordsOf } from './near-match-words.ts';
import { substringEditDistance } from './near-match-score.ts';

test('every string one edit away: deleted, swapped, replaced, inserted letters and a space between words', () => {
  const variants = oneEditAway('oztrk');
  for (const v of ['ozturk', 'oztrak', 'ztrk', 'ozrtk', 'oxtrk', 'oz trk', 'o trk']) assert.ok(variants.includes(v), v);
  // Not the word itself, no space at either end, nothing two edits away.
  assert.ok(!variants.includes('oztrk') && !variants.includes(' oztrk') && !variants.includes('oztrk ') && !variants.includes('ozturkk'));
  assert.equal(new Set(variants).size, variants.length);
  // Each is one edit from the word (restricted Damerau-Levenshtein on whole strings).
  for (const word of ['anadoluozturk', 'lojistk', 'abc', 'ab']) {
    for (const v of oneEditAway(word)) assert.equal(substringEditDistance([...word], [...v], true), 1, `${word} → ${v}`);
  }
  assert.deepEqual(wordsOf('anadolu ozturk'), ['anadolu', 'ozturk']);
});

/** The strings one edit away, made one by one as strings (what oneEditAwayWhere must give without making them). */
function reference(word: string, moreLetters: readonly string[]): string[] {
  const chars = [...word];
  const n = chars.length;
  const letters = [...new Set([...'abcdefghijklmnopqrstuvwxyz0123456789', ...chars, ...moreLetters])];
  const out = new Set<string>();
  let head = '';
  for (let i = 0; i <= n; i++) {
    const tail = i < n ? chars.slice(i).join('') : '';
    const rest = i < n ? tail.slice(chars[i]!.length) : '';
    for (const c of letters) {
      out.add(head + c + tail);
      if (i < n) out.add(head + c + rest);
    }
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

test('oneEditAwayWhere: the strings made one by one, in their order, with letters beyond a–z (and beyond 16 bits), repeated letters, words run together', () => {
  const more = ['ł', 'ø', '𝒜'];
  const words = ['oztrk', 'anadoluozturk', 'kaakaa', 'ab', 'a', 'aa', 'şeker', 'wałęsa', 'x𝒜y', 'abcabc', 'lojistk', '12a'];
  for (const word of words) {
    assert.deepEqual(oneEditAway(word, more), reference(word, more), word);
    assert.deepEqual(oneEditAway(word), reference(word, []), word);
  }
  // Only those whose every word passes the test, each as its words, in the same order.
  const passes = (units: Uint16Array, start: number, end: number) => {
    const text = String.fromCharCode(...units.subarray(start, end));
    return text.includes('a') && !text.includes('q');
  };
  for (const word of words) {
    const want = reference(word, more)
      .map(wordsOf)
      .filter((parts) => parts.every((p) => p.includes('a') && !p.includes('q')));
    assert.deepEqual(oneEditAwayWhere(word, more, passes), want, word);
  }
  // Only single characters are letters: an empty string or a longer one in `moreLetters` is none.
  assert.deepEqual(oneEditAway('ab', ['', 'xyz', 'ł']), reference('ab', ['ł']));
});
