import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptTotpCode, generateTotpSecret, isTotpSecret, matchTotpStep, totpCodeAt, totpUri, TOTP_PERIOD_SECONDS } from './totp.ts';

const T = Date.UTC(2026, 10, 21, 9, 0, 0);
const step = (ms: number) => Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);

test('RFC 6238 test vector (SHA-1, 59 s -> 94287082 truncated to 6 digits: 287082)', () => {
  // The RFC's secret is ASCII "12345678901234567890", base32 below.
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  assert.equal(totpCodeAt(secret, 59_000), '287082');
  assert.equal(totpCodeAt(secret, 1_111_111_109_000), '081804');
});

test('a new secret is 160 bits in base32, and the URI carries it for an app', () => {
  const secret = generateTotpSecret();
  assert.ok(isTotpSecret(secret));
  assert.notEqual(secret, generateTotpSecret());
  const uri = totpUri(secret, 'op@example.com');
  assert.match(uri, /^otpauth:\/\/totp\/risklookup:op%40example\.com\?/);
  assert.match(uri, new RegExp(`secret=${secret}`));
});

test('a valid code matches its step; one step of drift either side is allowed', () => {
  const secret = generateTotpSecret();
  assert.equal(matchTotpStep(secret, totpCodeAt(secret, T), T), step(T));
  assert.equal(matchTotpStep(secret, totpCodeAt(secret, T - 30_000), T), step(T) - 1);
  assert.equal(matchTotpStep(secret, totpCodeAt(secret, T + 30_000), T), step(T) + 1);
  assert.equal(matchTotpStep(secret, totpCodeAt(secret, T - 120_000), T), null);
  assert.equal(matchTotpStep(secret, ` ${totpCodeAt(secret, T).slice(0, 3)} ${totpCodeAt(secret, T).slice(3)} `, T), step(T));
});

test('a wrong or malformed code is refused', () => {
  const secret = generateTotpSecret();
  const good = totpCodeAt(secret, T);
  const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
  assert.equal(matchTotpStep(secret, wrong, T), null);
  for (const bad of ['', '12345', '1234567', 'abcdef', '12345a']) assert.equal(matchTotpStep(secret, bad, T), null);
});

test('replay: a code for a step at or before the last accepted step is refused', () => {
  const secret = generateTotpSecret();
  const code = totpCodeAt(secret, T);
  assert.equal(acceptTotpCode(secret, code, T, null), step(T));
  assert.equal(acceptTotpCode(secret, code, T, step(T)), null, 'the same code again');
  assert.equal(acceptTotpCode(secret, code, T + 10_000, step(T)), null, 'the same code later in its window');
  assert.equal(acceptTotpCode(secret, totpCodeAt(secret, T - 30_000), T, step(T)), null, 'an older code');
  assert.equal(acceptTotpCode(secret, totpCodeAt(secret, T + 30_000), T + 30_000, step(T)), step(T) + 1, 'the next code');
});
