import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearMatchGroups, nearQueryWords, scoreNearMatch, shownSimilarity, substringEditDistance } from './near-match-score.ts';

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
