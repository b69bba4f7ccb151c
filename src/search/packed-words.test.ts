import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChunkedIntList, IntList, PackedWordsBuilder } from './packed-words.ts';

function pack(words: readonly string[]) {
  const builder = new PackedWordsBuilder();
  const ids = words.map((w) => builder.idOf(w));
  return { ids, packed: builder.build() };
}

/** What the index did before it was packed: a string per word, `includes` on each. */
const containingByIncludes = (words: readonly string[], text: string) => words.flatMap((w, id) => (w.includes(text) ? [id] : []));

const TURKISH = ['şişli', 'çağlayan', 'ığdır', 'öğretmen', 'güneş', 'i̇stanbul', 'şşş', 'ğğğğ', 'ümraniye'];
const LONG = 'x'.repeat(300) + 'anadolu' + 'y'.repeat(300);

test('idOf: one id per distinct word, in the order first seen; word() gives each back', () => {
  const words = ['anadolu', 'ltd', '', 'anadolu', 'gida', 'ltd', ...TURKISH, LONG, ''];
  const { ids, packed } = pack(words);
  assert.deepEqual(ids.slice(0, 6), [0, 1, 2, 0, 3, 1]);
  assert.equal(ids.at(-1), 2);
  assert.equal(packed.count, new Set(words).size);
  for (const [i, w] of words.entries()) assert.equal(packed.word(ids[i]!), w);
});

test('idOf: a range of a string is the word it holds', () => {
  const builder = new PackedWordsBuilder();
  assert.equal(builder.idOf('ege gida', 4, 8), 0);
  assert.equal(builder.idOf('gida'), 0);
  assert.equal(builder.idOf('ege gida', 0, 3), 1);
  assert.equal(builder.build().word(1), 'ege');
});

test('containing and contains equal `includes` on every word: ASCII, Turkish letters, empty and long words', () => {
  const random = (seed: number) => () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  const r = random(28);
  const letters = 'abcdeilmnorstuyşçğıöü';
  const words = [...TURKISH, LONG, '', 'ab', 'abc'];
  for (let i = 0; i < 3000; i++) words.push(Array.from({ length: 1 + Math.floor(r() * 10) }, () => letters[Math.floor(r() * letters.length)]).join(''));
  const distinct = [...new Set(words)];
  const { packed } = pack(distinct);
  const texts = [
    'abc',
    'şiş',
    'ağl',
    'ğğğ',
    'ğğğğ',
    'anadolu',
    'yyyanadoluxx',
    'xanadoluy',
    'ı̇st',
    'zzz',
    'lay',
    'mnö',
    'iiii',
    ...distinct.filter((w) => w.length >= 3).slice(0, 300),
  ];
  for (const w of distinct) for (let i = 0; i + 4 <= w.length; i += 3) texts.push(w.slice(i, i + 4));
  for (const text of texts) {
    assert.deepEqual(
      [...Array.from(packed.containing(text))].sort((a, b) => a - b),
      containingByIncludes(distinct, text),
      text,
    );
    const some = Math.floor(r() * distinct.length);
    assert.equal(packed.contains(some, text), distinct[some]!.includes(text), `${distinct[some]} ${text}`);
  }
  assert.equal(packed.contains(distinct.indexOf(''), 'abc'), false);
  assert.equal(packed.contains(distinct.indexOf('ab'), 'ab'), true);
});

test("containing equals `includes` where the trigrams' lists are long and of very different lengths", () => {
  const random = (seed: number) => () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  const r = random(7);
  // A few letters, one much more frequent: some trigrams in most words, others in few.
  const letters = 'aaaaaaalrkeş';
  const words: string[] = [];
  for (let i = 0; i < 20_000; i++) words.push(Array.from({ length: 3 + Math.floor(r() * 9) }, () => letters[Math.floor(r() * letters.length)]).join(''));
  const distinct = [...new Set(words)];
  const { packed } = pack(distinct);
  const texts = ['aaaa', 'aaaaa', 'aaaak', 'kaaaa', 'aşaa', 'lrke', 'eşeş', 'aaaaaaaaaaaa', 'şşşş'];
  for (let i = 0; i < 400; i++) {
    const w = distinct[Math.floor(r() * distinct.length)]!;
    const at = Math.floor(r() * w.length);
    if (w.length - at >= 4) texts.push(w.slice(at, at + 4 + Math.floor(r() * (w.length - at - 3))));
  }
  for (const text of texts) assert.deepEqual(Array.from(packed.containing(text)), containingByIncludes(distinct, text), text);
});

test('an empty vocabulary finds nothing', () => {
  const { packed } = pack([]);
  assert.equal(packed.count, 0);
  assert.deepEqual(Array.from(packed.containing('abc')), []);
  assert.ok(packed.bytes() > 0);
});

test('bytes: one a character while every unit is Latin-1, two otherwise', () => {
  const ascii = pack(['a'.repeat(10_000)]).packed.bytes();
  const wide = pack(['ş'.repeat(10_000)]).packed.bytes();
  assert.ok(wide - ascii >= 9_000, `${wide} vs ${ascii}`);
});

test('IntList and ChunkedIntList give back exactly what was pushed', () => {
  const list = new IntList(2);
  const chunked = new ChunkedIntList((n) => new Int32Array(n));
  const expected = new ChunkedIntList((n) => new Int32Array(n), 200_000);
  const values = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 100_003);
  for (const v of values) {
    list.push(v);
    chunked.push(v);
    expected.push(v);
  }
  assert.deepEqual(Array.from(list.done()), values);
  assert.deepEqual(Array.from(chunked.done()), values);
  // The expected length: the array filled is the one given back, not a copy.
  const held = expected.done();
  assert.deepEqual(Array.from(held), values);
  assert.equal(held.buffer.byteLength, 200_000 * 4);
  assert.deepEqual(Array.from(new ChunkedIntList((n) => new Uint16Array(n), 10).done()), []);
  const over = new ChunkedIntList((n) => new Uint16Array(n), 3);
  for (const v of [1, 2, 3, 4, 5]) over.push(v);
  assert.deepEqual(Array.from(over.done()), [1, 2, 3, 4, 5]);
});
