import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VisibleNamesBuilder, type VisibleName } from './visible-names.ts';
import { compareCodePoints, rankClassOf, rankMatches } from './name-rank-order.ts';

const company = (id: number, nameKey: string, visibleReportCount = 1, country = 'TR', nameCore?: string): VisibleName => ({
  id,
  nameKey,
  nameCore: nameCore ?? nameKey.replace(/ (ltd|sti|sanayi|a|s)\b/g, ''),
  country,
  visibleReportCount,
});

function build(companies: VisibleName[]) {
  const builder = new VisibleNamesBuilder();
  for (const c of companies) builder.add(c);
  return builder.build();
}

const ids = (matches: Array<{ id: number }> | null) => matches?.map((m) => m.id).sort((a, b) => a - b) ?? null;

test('matchAll: every word a substring of some word of the key, any order; hidden companies are not held', () => {
  const index = build([
    company(1, 'anadolu lojistik ltd sti'),
    company(2, 'lojistik anadolu'),
    company(3, 'ege gida sanayi', 2, 'DE'),
    company(4, 'anadolu gida', 0),
    company(5, 'kayalar ab yapi'),
  ]);
  assert.equal(index.size, 4);
  assert.deepEqual(ids(index.matchAll(['anadolu'], null, 10)), [1, 2]);
  assert.deepEqual(ids(index.matchAll(['dolu', 'jist'], null, 10)), [1, 2]);
  assert.deepEqual(ids(index.matchAll(['gida'], null, 10)), [3]);
  assert.deepEqual(ids(index.matchAll(['gida'], 'TR', 10)), []);
  assert.deepEqual(ids(index.matchAll(['gida', 'nay'], 'DE', 10)), [3]);
  // A two-letter word is checked on the candidates of the others.
  assert.deepEqual(ids(index.matchAll(['kaya', 'ab'], null, 10)), [5]);
  assert.deepEqual(ids(index.matchAll(['kaya', 'xy'], null, 10)), []);
  // Only words inside fillers (`sanayi`, `sti`): not answered here.
  assert.equal(index.matchAll(['anay'], null, 10), null);
  // More than the cap: not answered here.
  assert.equal(index.matchAll(['anadolu'], null, 1), null);
  assert.deepEqual(ids(index.matchAll(['zzz'], null, 10)), []);
});

test('matchAll returns what D8 ranks by, the stored name_core when it is not the key without fillers', () => {
  const index = build([company(1, 'anadolu ltd', 3, 'TR', 'anadolu'), company(2, 'anadolu x', 1, 'TR', 'odd core')]);
  assert.deepEqual(index.matchAll(['anadolu'], null, 10), [
    { id: 1, nameCore: 'anadolu', visibleReportCount: 3 },
    { id: 2, nameCore: 'odd core', visibleReportCount: 1 },
  ]);
});

test('apply: renamed, hidden, new and deleted companies are seen; the packed entries are not', () => {
  const index = build([company(1, 'anadolu lojistik'), company(2, 'kestane gida'), company(3, 'ceviz')]);
  index.apply([1, 2, 3, 9], [company(1, 'badem lojistik'), company(2, 'kestane gida', 0), company(9, 'anadolu yeni')]);
  assert.deepEqual(ids(index.matchAll(['anadolu'], null, 10)), [9]);
  assert.deepEqual(ids(index.matchAll(['badem'], null, 10)), [1]);
  assert.deepEqual(ids(index.matchAll(['kestane'], null, 10)), []);
  assert.deepEqual(ids(index.matchAll(['ceviz'], null, 10)), []);
  assert.equal(index.size, 2);
  assert.equal(index.changedCount, 2);
});

test('bytes: grows with the companies held', () => {
  const small = build([company(1, 'anadolu')]);
  const large = build(Array.from({ length: 2000 }, (_, i) => company(i + 1, `firma${i} lojistik`)));
  assert.ok(large.bytes() > small.bytes() + 2000 * 16, `${large.bytes()} vs ${small.bytes()}`);
});

test('the builder refuses companies out of id order', () => {
  const builder = new VisibleNamesBuilder();
  builder.add(company(5, 'a'));
  assert.throws(() => builder.add(company(4, 'b')), /ascending id order/);
});

test('rank classes as D8: the whole name (words split or not), another order, a prefix, the rest', () => {
  const classOf = rankClassOf('ana dolu lojistik');
  assert.equal(classOf('anadolu lojistik'), 0);
  assert.equal(classOf('ana dolu lojistik'), 0);
  assert.equal(classOf('lojistik ana dolu'), 1);
  assert.equal(classOf('ana dolu lojistik ege'), 2);
  assert.equal(classOf('ege ana dolu lojistik'), 3);
  // A word twice: no other order.
  assert.equal(rankClassOf('ege ege')('ege ege'), 0);
  assert.equal(rankClassOf('ege ege')('ege egex'), 2);
});

test('rankMatches: class, then more visible reports, then the name in code-point order, then the id', () => {
  const m = (id: number, nameCore: string, visibleReportCount: number) => ({ id, nameCore, visibleReportCount });
  const ranked = rankMatches(
    [m(1, 'zz anadolu', 9), m(2, 'anadolu b', 1), m(3, 'anadolu a', 1), m(4, 'anadolu', 1), m(5, 'anadolu a', 1), m(6, 'anadolu z', 2)],
    'anadolu',
    10,
  );
  assert.deepEqual(
    ranked.map((r) => r.id),
    [4, 6, 3, 5, 2, 1],
  );
  assert.equal(rankMatches(ranked, 'anadolu', 2).length, 2);
});

test('compareCodePoints: UTF-8 byte order, not UTF-16 units (SQLite BINARY, PostgreSQL "C")', () => {
  assert.ok(compareCodePoints('a', 'b') < 0);
  assert.ok(compareCodePoints('ab', 'a') > 0);
  assert.ok(compareCodePoints('a b', 'ab') < 0);
  // U+FF21 (a BMP letter above the surrogates) before U+1D400 (an astral one): UTF-16 says otherwise.
  assert.ok(compareCodePoints('\uff21', '\u{1d400}') < 0);
  assert.ok('\uff21' > '\u{1d400}');
});

test('rankMatches: the first `limit` of many matches, exactly as sorting them all would (selected, not sorted)', () => {
  // Few distinct names, counts and classes: many ties, broken by the id last.
  let seed = 28;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 0) % n;
  const names = ['anadolu', 'anadolu gida', 'gida anadolu', 'ege anadolu', 'anadolu ege', 'anadoluu', 'zz anadolu gida'];
  const matches = Array.from({ length: 500 }, (_, i) => ({
    id: 1000 - i * 3 + next(2),
    nameCore: names[next(names.length)]!,
    visibleReportCount: 1 + next(3),
  }));
  const uniqueIds = [...new Map(matches.map((m) => [m.id, m])).values()];
  for (const core of ['anadolu', 'anadolu gida', 'gida']) {
    const classOf = rankClassOf(core);
    const sorted = [...uniqueIds].sort(
      (a, b) =>
        classOf(a.nameCore) - classOf(b.nameCore) || b.visibleReportCount - a.visibleReportCount || compareCodePoints(a.nameCore, b.nameCore) || a.id - b.id,
    );
    for (const limit of [0, 1, 11, 499, 600]) assert.deepEqual(rankMatches(uniqueIds, core, limit), sorted.slice(0, limit), `${core}, limit ${limit}`);
  }
});

test("matchAll: a query word's holders are found once and kept (bytes() counts them), the answers unchanged", () => {
  const index = build([company(1, 'anadolu lojistik'), company(2, 'lojistikci anadolu'), company(3, 'ege lojistik')]);
  const before = index.bytes();
  assert.deepEqual(ids(index.matchAll(['lojistik', 'anadolu'], null, 10)), [1, 2]);
  const kept = index.bytes();
  assert.ok(kept > before, 'the two words are kept');
  assert.deepEqual(ids(index.matchAll(['lojistik', 'anadolu'], null, 10)), [1, 2]);
  assert.deepEqual(ids(index.matchAll(['lojistik'], null, 10)), [1, 2, 3]);
  assert.equal(index.bytes(), kept, 'asked again: nothing more kept');
  // A change (the overlay) is not in the kept holders: it is checked beside them, as before.
  index.apply([3], [company(3, 'ege anadolu lojistik')]);
  assert.deepEqual(ids(index.matchAll(['lojistik', 'anadolu'], null, 10)), [1, 2, 3]);
});

test('among: the names matchAll(common) returned that hold the other words too, as matchAll(common ∪ words) finds them', () => {
  const index = build([
    company(1, 'anadolu lojistik ltd sti'),
    company(2, 'anadolu gida sanayi'),
    company(3, 'anadolu lojistikci'),
    company(4, 'ege lojistik'),
    company(5, 'anadolu kargo', 2, 'DE'),
  ]);
  // A renamed company (the overlay) is checked on its new key.
  index.apply([3, 6], [company(3, 'anadolu tasimacilik'), company(6, 'anadolu lojistik yeni')]);
  const holdingToo = index.among(index.matchAll(['anadolu'], null, 100)!);
  for (const words of [['jist'], ['lojistik', 'yen'], ['ana', 'gida'], ['nay'], ['tasima'], ['zzz'], ['kargo'], ['ti', 'lojistik'], ['dolu']]) {
    assert.deepEqual(ids(holdingToo(words)), ids(index.matchAll(['anadolu', ...words], null, 100)) ?? [], words.join(' '));
  }
  // A piece inside a filler word only (`sanayi`): matchAll cannot look it up, the check can.
  assert.deepEqual(ids(holdingToo(['nay'])), [2]);
  assert.deepEqual(ids(index.among(index.matchAll(['anadolu'], 'DE', 100)!)(['kar'])), [5]);
});
