import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AllNameWordsBuilder, type AllNameWords } from './all-name-words.ts';
import { oneEditAway, oneEditAwayWhere, wordsOf } from './near-match-words.ts';

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

test('isKnown: exactly the known words, over thousands of words and strings one edit from them (ASCII and other letters)', () => {
  const letters = [...'abcdefgiklmnoprstuyzçğışöüłø'];
  let seed = 11;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed / 4294967296);
  const word = () => Array.from({ length: 3 + Math.floor(next() * 8) }, () => letters[Math.floor(next() * (next() < 0.8 ? 20 : letters.length))]).join('');
  const builder = new AllNameWordsBuilder();
  const known = new Set<string>();
  for (let i = 0; i < 3000; i++) {
    const w = word();
    known.add(w);
    builder.addKnownWord(w);
  }
  // Words of names only (a filler, a word of a hidden company's key): not known.
  const namesOnly = Array.from({ length: 3000 }, word).filter((w) => !known.has(w));
  for (let i = 0; i + 2 < namesOnly.length; i += 3) builder.addName(namesOnly.slice(i, i + 3).join(' '));
  const words = builder.build();
  for (const w of known) assert.equal(words.isKnown(w), true, w);
  for (const w of namesOnly) assert.equal(words.isKnown(w), false, w);
  // Strings one edit from known words: known exactly when they are one.
  let tried = 0;
  for (const w of [...known].slice(0, 500)) {
    for (let p = 0; p < w.length; p++) {
      for (const c of ['a', 'e', 'ş', 'ł']) {
        const edited = w.slice(0, p) + c + w.slice(p + 1);
        assert.equal(words.isKnown(edited), known.has(edited), edited);
        tried++;
      }
    }
  }
  assert.ok(tried > 5000);
});

test('holdsSubstring equals a scan of the names, over thousands of words that repeat their own trigrams and share others', () => {
  // Few syllables: words share trigrams, and many hold one trigram twice (`kakaka`, `anana`).
  let seed = 5;
  const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n);
  const syllables = ['ka', 'an', 'na', 'ş', 'ür', 'ka', 'lo', 'ğı', 'a', 'kan'];
  const word = () => Array.from({ length: 1 + next(5) }, () => syllables[next(syllables.length)]).join('');
  const names = Array.from({ length: 3000 }, () => Array.from({ length: 1 + next(3) }, word).join(' '));
  const builder = new AllNameWordsBuilder();
  for (const name of names) builder.addName(name);
  const words = builder.build();
  let held = 0;
  for (let q = 0; q < 2000; q++) {
    const text = word();
    if (new TextEncoder().encode(text).length < 3) continue;
    const expected = names.some((name) => name.includes(text));
    held += expected ? 1 : 0;
    assert.equal(words.holdsSubstring(text), expected, text);
  }
  assert.ok(held > 200 && held < 1900, `${held} held`);
});

test("holdsKnown: oneEditAway's strings whose words are all known, in its order, over thousands of words (letters beyond a–z, words run together, words gained since the build)", () => {
  // A dense vocabulary of few syllables: most strings one edit from a word are words too.
  let seed = 17;
  const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n);
  const syllables = ['ka', 'an', 'na', 'ş', 'ür', 'lo', 'ğı', 'a', 'kan', 'ł', 'x', 'ee', 'o'];
  const word = () => Array.from({ length: 1 + next(4) }, () => syllables[next(syllables.length)]).join('');
  const builder = new AllNameWordsBuilder();
  const known = new Set<string>();
  for (let i = 0; i < 4000; i++) {
    const w = word();
    known.add(w);
    builder.addKnownWord(w);
  }
  for (let i = 0; i < 1000; i++) builder.addName(`${word()} ${word()}`);
  const words = builder.build();
  const expected = (w: string, letters: string[], isKnown: (x: string) => boolean) =>
    oneEditAway(w, letters)
      .map(wordsOf)
      .filter((parts) => parts.every(isKnown));
  const compare = (all: AllNameWords, isKnown: (x: string) => boolean, queries: string[]) => {
    let found = 0;
    for (const q of queries) {
      const want = expected(q, all.letters(), isKnown);
      assert.deepEqual(oneEditAwayWhere(q, all.letters(), all.holdsKnown), want, q);
      found += want.length;
    }
    return found;
  };
  // Query words: known words edited, two run together, repeated letters, unknown ones.
  const queries = [...Array.from({ length: 600 }, word), ...Array.from({ length: 300 }, () => word() + word()), 'kaakaa', 'şşka', 'anna', 'łłx', 'o'];
  const found = compare(words, (x) => known.has(x), queries);
  assert.ok(found > 3000, `${found} corrections found`);
  // Words gained since the build (a rename's new core words), with other letters among them.
  const gained = ['kanşa', 'ananas', 'loğıka', 'ürka', 'qqq'];
  words.apply([1], [{ id: 1, nameKey: gained.join(' '), nameCore: gained.join(' ') }]);
  for (const g of gained) known.add(g);
  const foundSince = compare(words, (x) => known.has(x), [...queries.slice(0, 200), 'kanş', 'anana', 'loğka', 'ürkaa', 'qq', 'qqqq', 'kanşaananas']);
  assert.ok(foundSince > 1000);
  assert.deepEqual(oneEditAwayWhere('qqqq', words.letters(), words.holdsKnown), [['qqq']]);
});
