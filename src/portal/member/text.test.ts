import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEMBER_CATALOGUES, memberText } from './text.ts';

test('every member text exists in Turkish and English, with the same placeholders', () => {
  for (const catalogue of MEMBER_CATALOGUES) {
    assert.deepEqual(Object.keys(catalogue.tr).sort(), Object.keys(catalogue.en).sort());
    for (const [key, en] of Object.entries(catalogue.en)) {
      const tr = (catalogue.tr as Record<string, string>)[key]!;
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(names(tr), names(en), key);
      assert.notEqual(tr.trim(), '', key);
    }
  }
});

test('placeholders are filled in the chosen language', () => {
  assert.equal(memberText('en')('usage.title'), 'Usage');
  assert.equal(memberText('tr')('agreement.version', { version: '2026-11' }), 'Sürüm 2026-11');
});
