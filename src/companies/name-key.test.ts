import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNameQuery, toCoreKey, toSearchKey } from './name-key.ts';

test('D8: Turkish dotted and dotless I fold the same way in either case', () => {
  for (const variant of ['İSTANBUL', 'istanbul', 'ıstanbul', 'ISTANBUL', 'İstanbul']) {
    assert.equal(toSearchKey(variant), 'istanbul', variant);
  }
  assert.equal(toSearchKey('IŞIK'), 'isik');
});

test('D8: Turkish and other diacritics are folded', () => {
  assert.equal(toSearchKey('Şahin Çelik Ğ Öz Ünal Âlâ Îmâr Ûmit'), 'sahin celik g oz unal ala imar umit');
  assert.equal(toSearchKey('Müller Straße Société Générale Łódź'), 'muller straße societe generale łodz');
});

test('D8: punctuation becomes space, spaces collapse, wildcards are plain punctuation', () => {
  assert.equal(toSearchKey('  ACME-Lojistik  A.Ş. '), 'acme lojistik a s');
  assert.equal(toSearchKey('50%_off*?'), '50 off');
});

test('D8: legal forms and fillers are dropped from the query', () => {
  const q = parseNameQuery('Demir Sanayi ve Ticaret A.Ş.');
  assert.deepEqual(q, { ok: true, words: ['demir'], core: 'demir' });
  assert.equal(toCoreKey('Yılmaz Nakliyat Ltd. Şti.'), 'yilmaz nakliyat');
});

test('D8: a query with no word of 3 or more characters is too generic', () => {
  for (const q of ['A.Ş. Ltd', 'ab cd', '%%%', 'san tic ve']) {
    const parsed = parseNameQuery(q);
    assert.equal(parsed.ok, false, q);
    if (!parsed.ok) assert.match(parsed.message, /too generic/);
  }
  assert.equal(parseNameQuery('ab yapı').ok, true);
});

test('D8: the fast path agrees with the full Unicode path', async () => {
  const { toSearchKey: key } = await import('./name-key.ts');
  const chars = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), ...'İIıiŞşĞğÇçÖöÜüÂâÎîÛû'];
  // Every character alone and between letters; NFKD-needing text falls back to the full path.
  for (const c of chars) {
    for (const text of [c, `ab${c}cd`, ` ${c} x`, `${c}${c}`]) {
      const full = text
        .replace(
          /[İIıiŞşĞğÇçÖöÜüÂâÎîÛû]/g,
          (x) =>
            ({
              İ: 'i',
              I: 'i',
              ı: 'i',
              i: 'i',
              Ş: 's',
              ş: 's',
              Ğ: 'g',
              ğ: 'g',
              Ç: 'c',
              ç: 'c',
              Ö: 'o',
              ö: 'o',
              Ü: 'u',
              ü: 'u',
              Â: 'a',
              â: 'a',
              Î: 'i',
              î: 'i',
              Û: 'u',
              û: 'u',
            })[x] ?? x,
        )
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      assert.equal(key(text), full, JSON.stringify(text));
    }
  }
  assert.equal(key('Société Générale'), 'societe generale');
});
