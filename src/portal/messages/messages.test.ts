import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MESSAGE_FILES, MESSAGES, t } from './index.ts';
import { localeFromAcceptLanguage } from '../../lib/locale.ts';

test('no two feature files define the same key, and every file is in the catalogue', () => {
  const seen = new Map<string, string>();
  for (const [file, messages] of Object.entries(MESSAGE_FILES)) {
    for (const key of Object.keys(messages)) {
      assert.ok(!seen.has(key), `${key} is defined in both ${seen.get(key)} and ${file}`);
      seen.set(key, file);
    }
  }
  assert.deepEqual([...seen.keys()].sort(), Object.keys(MESSAGES).sort());
});

test('every text exists in Turkish and English, and not empty', () => {
  for (const [key, texts] of Object.entries(MESSAGES)) {
    assert.ok(texts.tr.trim() && texts.en.trim(), key);
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual(placeholders(texts.tr), placeholders(texts.en), `${key}: the same placeholders in both`);
  }
});

test('t fills placeholders as plain text', () => {
  assert.equal(t('en', 'home.welcome', { name: '<b>Ayşe</b>' }), 'Welcome, <b>Ayşe</b>');
  assert.equal(t('tr', 'home.welcome', { name: 'Ayşe' }), 'Hoş geldiniz, Ayşe');
});

test('Accept-Language picks the best of tr and en, Turkish by default', () => {
  assert.equal(localeFromAcceptLanguage(undefined), 'tr');
  assert.equal(localeFromAcceptLanguage('de-DE,de;q=0.9'), 'tr');
  assert.equal(localeFromAcceptLanguage('en-US,en;q=0.9,tr;q=0.8'), 'en');
  assert.equal(localeFromAcceptLanguage('tr-TR,tr;q=0.9,en;q=0.8'), 'tr');
  assert.equal(localeFromAcceptLanguage('de;q=1, en;q=0.5, tr;q=0.7'), 'tr');
  assert.equal(localeFromAcceptLanguage('en;q=0'), 'tr');
});
