import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KeyIds, TrigramListsBuilder } from './trigram-lists.ts';

test('KeyIds gives the ids a Map numbering keys as first seen gives, for keys up to 2^53', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 24 }), fc.maxSafeNat()), { maxLength: 3000, size: 'max' }),
      fc.integer({ min: 1, max: 64 }),
      (keys, expected) => {
        const ids = new KeyIds(expected);
        const reference = new Map<number, number>();
        for (const key of keys) {
          if (!reference.has(key)) {
            assert.equal(ids.get(key), -1, `${key} not seen yet`);
            reference.set(key, reference.size);
          }
          assert.equal(ids.idOf(key), reference.get(key));
        }
        assert.equal(ids.size, reference.size);
        assert.deepEqual([...ids.keysById()], [...reference.keys()]);
        for (const [key, id] of reference) assert.equal(ids.get(key), id);
      },
    ),
    { numRuns: 200 },
  );
});

test('KeyIds: keys that differ only above 2^32, and trigram keys of three UTF-16 units', () => {
  const ids = new KeyIds(4);
  const keys = [5, 5 + 2 ** 32, 5 + 2 ** 40, 2 ** 52 + 5, 0x61 * 2 ** 32 + 0x62 * 2 ** 16 + 0x63, 0x131 * 2 ** 32 + 0x15f * 2 ** 16 + 0x11f];
  keys.forEach((key, i) => assert.equal(ids.idOf(key), i));
  keys.forEach((key, i) => assert.equal(ids.get(key), i));
  assert.equal(ids.get(6), -1);
});

test("TrigramListsBuilder: each key's words once each, in word order, keys ascending, over drawn words", () => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 12, size: 'max' }), { maxLength: 300, size: 'max' }), (wordsKeys) => {
      const lists = new TrigramListsBuilder();
      wordsKeys.forEach((keys, w) => keys.forEach((key) => lists.count(key * 2 ** 33 + 7, w)));
      wordsKeys.forEach((keys, w) => keys.forEach((key) => lists.place(key * 2 ** 33 + 7, w)));
      const built = lists.lists();
      const expected = new Map<number, number[]>();
      wordsKeys.forEach((keys, w) => {
        for (const key of new Set(keys)) expected.set(key * 2 ** 33 + 7, [...(expected.get(key * 2 ** 33 + 7) ?? []), w]);
      });
      const sortedKeys = [...expected.keys()].sort((a, b) => a - b);
      assert.deepEqual([...built.keys], sortedKeys);
      sortedKeys.forEach((key, t) => assert.deepEqual([...built.words.subarray(built.start[t], built.start[t + 1])], expected.get(key)));
      assert.equal(built.start[sortedKeys.length], built.words.length);
    }),
    { numRuns: 200 },
  );
});

test('past 2^14 distinct keys (both classes grow their arrays): the lists equal a grouping, the ids a Map', () => {
  let seed = 7;
  const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n);
  // 6,000 words of 1–12 keys out of ~180,000; every other word repeats its keys, not adjacently.
  const wordsKeys = Array.from({ length: 6000 }, () => Array.from({ length: 1 + next(12) }, () => next(60_000) * 2 ** 20 + next(3))).map((keys, w) =>
    w % 2 ? [...keys, keys[0]!, ...keys] : keys,
  );
  const lists = new TrigramListsBuilder();
  wordsKeys.forEach((keys, w) => keys.forEach((key) => lists.count(key, w)));
  wordsKeys.forEach((keys, w) => keys.forEach((key) => lists.place(key, w)));
  const built = lists.lists();
  const expected = new Map<number, number[]>();
  wordsKeys.forEach((keys, w) => {
    for (const key of new Set(keys)) expected.set(key, [...(expected.get(key) ?? []), w]);
  });
  const sorted = [...expected.keys()].sort((a, b) => a - b);
  assert.ok(sorted.length > 20_000, `${sorted.length} keys`);
  assert.deepEqual([...built.keys], sorted);
  sorted.forEach((key, t) => assert.deepEqual([...built.words.subarray(built.start[t], built.start[t + 1])], expected.get(key)));
  const ids = new KeyIds(1);
  const reference = new Map<number, number>();
  for (const keys of wordsKeys)
    for (const key of keys) {
      if (!reference.has(key)) reference.set(key, reference.size);
      assert.equal(ids.idOf(key), reference.get(key));
    }
  assert.deepEqual([...ids.keysById()], [...reference.keys()]);
});
