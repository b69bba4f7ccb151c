import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreementMessages } from '../messages/agreement.ts';
import { apiKeyMessages } from '../messages/api-key.ts';
import { searchMessages } from '../messages/search.ts';
import { usageMessages } from '../messages/usage.ts';
import { usersMessages } from '../messages/users.ts';
import { memberText } from './text.ts';

const CATALOGUES = { agreementMessages, apiKeyMessages, searchMessages, usageMessages, usersMessages };

test('every member text has Turkish and English with the same placeholders', () => {
  for (const [file, catalogue] of Object.entries(CATALOGUES)) {
    for (const [key, texts] of Object.entries(catalogue as Record<string, { en: string; tr: string }>)) {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(names(texts.tr), names(texts.en), `${file} ${key}`);
      assert.ok(texts.tr.trim() && texts.en.trim(), key);
    }
  }
});

test('placeholders are filled in the chosen language', () => {
  assert.equal(memberText('en')('usage.title'), 'Usage');
  assert.equal(memberText('tr')('agreement.version', { version: '2026-11' }), 'Sürüm 2026-11');
});
