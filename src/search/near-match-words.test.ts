import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oneEditAway, wordsOf, wordsOfVariants } from './near-match-words.ts';
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
  assert.deepEqual(wordsOfVariants(['a b', 'b', 'c']).sort(), ['a', 'b', 'c']);
});
