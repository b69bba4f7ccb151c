import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mayHoldWordWithin, nearMatchGroups, nearQueryWords, scoreNearMatch, shownSimilarity, substringEditDistance } from './near-match-score.ts';

const distance = (word: string, text: string) => substringEditDistance([...word], [...text]);

test('edits against the best substring: substitution, deletion, insertion, swap, run-together', () => {
  assert.equal(distance('ozturk', 'yilmaz ozturk lojistik'), 0);
  assert.equal(distance('ozturq', 'ozturk lojistik'), 1);
  assert.equal(distance('oztrk', 'ozturk lojistik'), 1);
  assert.equal(distance('ozturkk', 'ozturk lojistik'), 1);
  assert.equal(distance('oztruk', 'ozturk lojistik'), 1);
  assert.equal(distance('ozturklojistik', 'ozturk lojistik'), 1);
  // Against whole words only: inside `yalcinler` there is `cinler`, one letter from `canler`.
  assert.equal(distance('canler', 'yalcinler pamuk'), 1);
  assert.equal(substringEditDistance([...'canler'], [...'yalcinler pamuk'], true), 4);
  assert.equal(substringEditDistance([...'ozturklojistik'], [...'ozturk lojistik gida'], true), 1);
  // The first letter missing: the name's word has one letter more before it.
  assert.equal(substringEditDistance([...'nadolu'], [...'yilmaz anadolu'], true), 1);
  assert.equal(substringEditDistance([...'nadolu'], [...'anadolu'], true), 1);
});

test('a ? is kept as a letter that most likely was a Turkish one', () => {
  assert.deepEqual(nearQueryWords('BA?ARAN Ltd. Şti.'), ['baǂaran']);
  assert.ok(distance('baǂaran', 'basaran') < 1);
  assert.equal(distance('baǂaran', 'bataran'), 1);
});

test('every way of damaging one word leaves some alternative whole in the name', () => {
  const name = 'karadeniz lojistik';
  for (const q of ['karadenz lojistik', 'karadeniiz lojistik', 'kardaeniz lojistik', 'karadeniz lojstik', 'xaradeniz lojistik', 'karadenizlojistik']) {
    const holds = (pieces: string[]) => pieces.every((p) => name.includes(p));
    const words = nearQueryWords(q);
    for (const misspelt of [null, ...words.map((w, i) => (name.includes(w) ? -1 : i)).filter((i) => i >= 0)]) {
      const groups = nearMatchGroups(words, misspelt);
      assert.ok(
        groups.some((g) => holds(g.all) && (g.any.length === 0 || g.any.some(holds))),
        `${q} ${misspelt}`,
      );
    }
  }
});

test('scores: the name in full above longer names, never a D8 match, never on a sector word alone', () => {
  const words = nearQueryWords('Öztrk Lojistik');
  const full = scoreNearMatch(words, 'ozturk lojistik')!;
  const longer = scoreNearMatch(words, 'ozturk lojistik gida')!;
  assert.ok(full > longer && longer > 0.7, `${full} ${longer}`);
  assert.equal(scoreNearMatch(nearQueryWords('Öztürk Lojistik'), 'ozturk lojistik'), null);
  assert.equal(scoreNearMatch(nearQueryWords('Kılıçaslan Lojistik'), 'yilmaz lojistik'), null);
  // One misspelt word at most; none in a short word; a generic word one edit at most.
  assert.equal(scoreNearMatch(nearQueryWords('Oztrk Lojstik'), 'ozturk lojistik'), null);
  assert.equal(scoreNearMatch(nearQueryWords('Koç Gemi'), 'kos gemi'), null);
  assert.equal(scoreNearMatch(nearQueryWords('Özdemir Elektronik'), 'ozdemir elektrik'), null);
  // A typo in the distinctive word costs more than one in the generic word.
  assert.ok(scoreNearMatch(nearQueryWords('Oztrk Lojistik'), 'ozturk lojistik')! < scoreNearMatch(nearQueryWords('Ozturk Lojstik'), 'ozturk lojistik')!);
  assert.equal(shownSimilarity(0.999), 0.99);
  assert.equal(shownSimilarity(0.8149), 0.81);
});

test('a name ruled out before the distance is one the distance rules out too (the filter never changes a score)', () => {
  // Few letters, so that random words and names are often within a letter or two of each other;
  // names as near-misses of the word too (an edit or two, words run together, extra words).
  const letter = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'ı', 'ş', 'ğ');
  const word = fc.array(letter, { minLength: 4, maxLength: 12 }).map((cs) => cs.join(''));
  const edit = fc.tuple(fc.nat(20), fc.constantFrom('sub', 'del', 'ins', 'swap'), letter);
  const damaged = fc.tuple(word, fc.array(edit, { maxLength: 3 })).map(([w, edits]) => {
    const cs = [...w];
    for (const [at, kind, c] of edits) {
      const i = at % Math.max(1, cs.length);
      if (kind === 'sub') cs[i] = c;
      else if (kind === 'del') cs.splice(i, 1);
      else if (kind === 'ins') cs.splice(i, 0, c);
      else if (i + 1 < cs.length) [cs[i], cs[i + 1]] = [cs[i + 1]!, cs[i]!];
    }
    return cs.join('');
  });
  const nameWord = fc.oneof(
    word,
    fc.array(letter, { minLength: 1, maxLength: 6 }).map((cs) => cs.join('')),
  );
  fc.assert(
    fc.property(
      damaged,
      fc.array(nameWord, { maxLength: 4 }),
      fc.array(nameWord, { maxLength: 3 }),
      fc.nat(2),
      fc.boolean(),
      (w, before, after, budget, apart) => {
        const q = [...w.replaceAll(' ', '')].length >= 4 ? w : `${w}abcd`;
        const spelt = apart && q.length > 5 ? `${q.slice(0, 3)} ${q.slice(3)}` : q;
        const text = [...[...before, spelt, ...after].join(' ')];
        const exact = substringEditDistance([...q], text, true);
        if (!mayHoldWordWithin(q, text, budget)) assert.ok(exact > budget, `${q} in "${text.join('')}": ${exact} ≤ ${budget}`);
        // And the other way round, where it matters: within the budget, never ruled out.
        if (exact <= budget) assert.ok(mayHoldWordWithin(q, text, budget));
        // The scorer passes a name without letters outside the BMP as the string itself.
        assert.equal(mayHoldWordWithin(q, text.join(''), budget), mayHoldWordWithin(q, text, budget));
        assert.equal(substringEditDistance([...q], text.join(''), true), exact);
      },
    ),
    { numRuns: 20_000 },
  );
});

test('names that cannot hold the word within its budget are ruled out without the distance', () => {
  const text = (name: string) => [...name];
  // Sharing pieces is not enough: no run of whole words holds the letters of `burzerhan`.
  assert.equal(mayHoldWordWithin('burzerhan', text('burhan zeren lojistik'), 2), false);
  assert.equal(mayHoldWordWithin('burzerhan', text('burzer lojistik'), 2), false, 'three letters short');
  assert.equal(mayHoldWordWithin('burzerhan', text('burzerhanlarimiz'), 2), false, 'too long a word');
  assert.equal(mayHoldWordWithin('burzerhan', text('burzehran lojistik'), 2), true);
  assert.equal(mayHoldWordWithin('burzerhan', text('bur zerhan lojistik'), 1), true, 'words run together');
  assert.equal(mayHoldWordWithin('burzerhan', text('aburzerhan'), 1), true, 'an extra first letter');
  // A letter outside the BMP is one letter, as any other (the scorer spreads such a name).
  const words = nearQueryWords('Burzerhn');
  assert.equal(scoreNearMatch(words, 'burzerhan 𝔸𝔹'), scoreNearMatch(words, 'burzerhan xy'));
  assert.equal(scoreNearMatch(nearQueryWords('Bur𝔸erhan'), 'burzerhan'), scoreNearMatch(nearQueryWords('Burxerhan'), 'burzerhan'));
});
