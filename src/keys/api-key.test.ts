import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digestApiKey, displayPrefixOf, generateApiKey, isWellFormedApiKey } from './api-key.ts';

test('D16: a key is 64 characters of [A-Za-z0-9] with the recognisable prefix', () => {
  const key = generateApiKey();
  assert.match(key, /^rlk1[A-Za-z0-9]{60}$/);
  assert.ok(isWellFormedApiKey(key));
  assert.equal(displayPrefixOf(key), key.slice(0, 8));
});

test('D16: keys are distinct', () => {
  const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
  assert.equal(keys.size, 1000);
});

test('D16: any single-character typo is caught by the checksum', () => {
  const key = generateApiKey();
  for (let i = 4; i < 64; i++) {
    const replacement = key[i] === 'x' ? 'y' : 'x';
    const typo = key.slice(0, i) + replacement + key.slice(i + 1);
    assert.equal(isWellFormedApiKey(typo), false, `position ${i}`);
  }
  assert.equal(isWellFormedApiKey(key.slice(0, 63)), false);
  assert.equal(isWellFormedApiKey(key + 'a'), false);
  assert.equal(isWellFormedApiKey(`${key.slice(0, 63)}-`), false);
});

test('D16: the stored digest is SHA-256 hex and not the key', () => {
  const key = generateApiKey();
  assert.match(digestApiKey(key), /^[0-9a-f]{64}$/);
  assert.notEqual(digestApiKey(key), key);
});
