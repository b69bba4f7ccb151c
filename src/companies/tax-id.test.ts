import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { checkTaxId, normaliseTaxId, taxIdCandidates } from './tax-id.ts';

const catalogue = buildCountryCatalogue();
const TR = catalogue.get('TR')!;

test('D9: white space, dots, dashes and slashes are removed and letters upper-cased', () => {
  assert.equal(normaliseTaxId(' 454-053.69/20 '), '4540536920');
  assert.equal(normaliseTaxId('de 136 695 976'), 'DE136695976');
});

test('D9: a valid VKN and TCKN pass, with or without the TR prefix', () => {
  assert.deepEqual(checkTaxId('4540536920', TR), { valid: true, canonical: '4540536920', idType: 'VKN' });
  assert.deepEqual(checkTaxId('TR 454 053 6920', TR), { valid: true, canonical: '4540536920', idType: 'VKN' });
  assert.deepEqual(checkTaxId('17291716060', TR), { valid: true, canonical: '17291716060', idType: 'TCKN' });
});

test('D9: a mistyped TR ID is refused with the expected formats named', () => {
  for (const typo of ['4540536921', '454053692', '17291716061', 'ABCDEFGHIJ']) {
    const check = checkTaxId(typo, TR);
    assert.equal(check.valid, false, typo);
    if (!check.valid) {
      assert.match(check.message, /expected VKN .*10.* or TCKN/i);
      assert.match(check.message, /typo/);
    }
  }
});

test('D9: formats that include the country code keep it (CH UID)', () => {
  const check = checkTaxId('CHE-109.910.570', catalogue.get('CH')!);
  assert.deepEqual(check, { valid: true, canonical: 'CHE109910570', idType: 'UID' });
});

test('without a country filter, a prefixed ID is also tried within that country', () => {
  assert.deepEqual(
    taxIdCandidates('de136695976', (c) => catalogue.get(c)),
    [
      { taxId: 'DE136695976', country: null },
      { taxId: '136695976', country: 'DE' },
    ],
  );
  assert.deepEqual(
    taxIdCandidates('4540536920', (c) => catalogue.get(c)),
    [{ taxId: '4540536920', country: null }],
  );
});
