import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateApiKey, isWellFormedApiKey } from '../keys/api-key.ts';
import { findKeySpans, redactSecrets } from './redact.ts';

const key = generateApiKey();
const [a, b] = [key.slice(0, 32), key.slice(32)];

test('a key is redacted whole, and when a space, a line break, + or a percent-escape splits it', () => {
  for (const split of [key, `${a} ${b}`, `${a}\n${b}`, `${a}+${b}`, `${a}%20${b}`, `${a}%0A${b}`, `${a}%0D%0A${b}`, `${a} - ${b}`]) {
    const text = `/api/v1/search?q=${split}&country=TR`;
    const redacted = redactSecrets(text);
    assert.equal(redacted, '/api/v1/search?q=[REDACTED]&country=TR', split);
    assert.ok(!redacted.includes(a) && !redacted.includes(b));
  }
});

test('ordinary text is left alone, and a long gap ends a key', () => {
  for (const text of ['/api/v1/search?q=Anadolu%20Demir%20%C3%87elik&country=TR', 'rlk1 is a prefix', `${a}          ${b}`]) {
    assert.equal(redactSecrets(text), text);
  }
});

test('secret-named parameters are redacted whatever they hold', () => {
  assert.equal(redactSecrets('/x?api_key=abc&q=1'), '/x?api_key=[REDACTED]&q=1');
});

test('findKeySpans with the checksum finds issued keys only, split or whole', () => {
  assert.equal(findKeySpans(`${a} ${b}`, isWellFormedApiKey).length, 1);
  assert.equal(findKeySpans(`q ${a}\n${b} more`, isWellFormedApiKey).length, 1);
  const broken = key.slice(0, 63) + (key.endsWith('A') ? 'B' : 'A');
  assert.equal(findKeySpans(broken, isWellFormedApiKey).length, 0);
});

test('every kind at once and each alone: two keys, a secret parameter in any case, a key of the ring', () => {
  const other = generateApiKey();
  const ringKey = `rlsk1_${'Ab3_-'.repeat(8)}xyz`;
  assert.equal(redactSecrets(`${key} and ${other}`), '[REDACTED] and [REDACTED]');
  assert.equal(redactSecrets('/x?API_KEY=abc&Token=def#top'), '/x?API_KEY=[REDACTED]&Token=[REDACTED]#top');
  assert.equal(redactSecrets(`ring ${ringKey}.`), 'ring [REDACTED].');
  assert.equal(redactSecrets(`/x?q=${key}&access_token=t ${ringKey} ${a}+${b}`), '/x?q=[REDACTED]&access_token=[REDACTED]');
  // Short values as a search's q, type and country: unchanged, the same string.
  for (const text of ['0680123456', 'tax_id', 'TR', 'anadolu lojistik a=b', 'rlsk1_short']) assert.equal(redactSecrets(text), text);
});
