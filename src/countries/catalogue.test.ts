import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from './catalogue.ts';

test('D22: Türkiye has VKN and TCKN, both with check digits', () => {
  const tr = buildCountryCatalogue().get('TR');
  assert.equal(tr?.name, 'Türkiye');
  assert.deepEqual(
    tr?.idTypes.map((t) => [t.type, t.pattern, t.checksum]),
    [
      ['VKN', '^[0-9]{10}$', true],
      ['TCKN', '^[0-9]{11}$', true],
    ],
  );
});

test('D22: every example validates with its own validator and matches its pattern', () => {
  const all = buildCountryCatalogue().list();
  assert.ok(all.length > 50, `only ${all.length} countries`);
  for (const country of all) {
    for (const t of country.idTypes) {
      assert.ok(t.validator.validate(t.example).isValid, `${country.code} ${t.type} example ${t.example}`);
      assert.match(t.example, new RegExp(t.pattern), `${country.code} ${t.type}`);
    }
  }
});

test('the operator switch keeps only the named countries and refuses unknown codes', () => {
  assert.deepEqual(
    buildCountryCatalogue(['TR', 'DE'])
      .list()
      .map((c) => c.code),
    ['DE', 'TR'],
  );
  assert.throws(() => buildCountryCatalogue(['TR', 'XX']), /unsupported country code\(s\): XX/);
});
