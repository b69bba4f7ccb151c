import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AllNameWordsBuilder } from './all-name-words.ts';

function build() {
  const builder = new AllNameWordsBuilder();
  // company_name_words: every word some name_core ever held, one no longer held among them.
  for (const w of ['kestane', 'lojistik', 'wałęsa', 'gida', 'eskikelime']) builder.addKnownWord(w);
  builder.addName('kestane lojistik ltd sti');
  builder.addName('kestane kestane gida');
  builder.addName('wałęsa gida');
  return builder.build();
}

test('a word is held when a name holds it as a substring, with letters beyond a–z', () => {
  const words = build();
  for (const held of ['kestane', 'esta', 'jisti', 'ltd', 'ałę', 'wałęsa', 'ida']) assert.equal(words.holdsSubstring(held), true, held);
  for (const absent of ['kestanex', 'eskikelime', 'walesa', 'sti gida', 'xyz']) assert.equal(words.holdsSubstring(absent), false, absent);
  assert.deepEqual(words.letters().sort(), ['ę', 'ł']);
  assert.deepEqual(words.size().words, 7);
});

test("known words are company_name_words', fillers and unknown strings not among them", () => {
  const words = build();
  assert.ok(words.isKnown('kestane') && words.isKnown('eskikelime') && words.isKnown('wałęsa'));
  assert.ok(!words.isKnown('ltd') && !words.isKnown('kestan') && !words.isKnown('kestanes'));
});

test('after changes: a changed name is read whole, new core words are known, and a word only changed names may have held is unknown', () => {
  const words = build();
  // Company 3 (`wałęsa gida`) renamed; company 9 new; company 2 deleted.
  words.apply(
    [3, 9, 2],
    [
      { id: 3, nameKey: 'incir tarim as', nameCore: 'incir tarim' },
      { id: 9, nameKey: 'badem gida', nameCore: 'badem gida' },
    ],
  );
  assert.equal(words.holdsSubstring('incir'), true);
  assert.equal(words.holdsSubstring('badem'), true);
  assert.ok(words.isKnown('incir') && words.isKnown('tarim') && !words.isKnown('as'));
  // Held at the build by one company, and three have changed since: perhaps no longer.
  assert.equal(words.holdsSubstring('ałę'), null);
  // Held by more companies than have changed: still held.
  words.apply([], []);
  assert.equal(words.holdsSubstring('zzz'), false);
  // Known words stay known (the database keeps them).
  assert.ok(words.isKnown('wałęsa'));
});
