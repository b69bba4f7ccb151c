import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyEntry, KeyRing, KeyRingError, keyIdOf, sealContext, SecretUnreadableError } from './key-ring.ts';
import { keyRingFromEnv, requireKeyRing } from './key-ring-source.ts';
import { redactSecrets } from '../lib/redact.ts';

const A = generateKeyEntry('a');
const B = generateKeyEntry('b');
const HERE = sealContext('users', 'totp_secret', 7);

test('a sealed value opens under its own context; the last key of the ring seals', () => {
  const ring = KeyRing.parse(`${A}, ${B}`, 'test');
  assert.equal(ring.newestId, 'b');
  assert.deepEqual(ring.ids(), ['a', 'b']);
  const sealed = ring.seal('JBSWY3DPEHPK3PXP', HERE);
  assert.equal(keyIdOf(sealed), 'b');
  assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
  assert.notEqual(ring.seal('JBSWY3DPEHPK3PXP', HERE), sealed, 'a new IV each time');
  assert.equal(ring.open(sealed, HERE), 'JBSWY3DPEHPK3PXP');
  assert.equal(KeyRing.parse(`# old key first\n${A}\n${B}\n`, 'file').open(sealed, HERE), 'JBSWY3DPEHPK3PXP', 'comments and new lines');
});

test('a value moved to another row, altered, or under a key the ring lacks does not open', () => {
  const ring = KeyRing.parse(A, 'test');
  const sealed = ring.seal('secret', HERE);
  assert.throws(() => ring.open(sealed, sealContext('users', 'totp_secret', 8)), SecretUnreadableError);
  // The second-to-last character changed (it was compared with the last one: 1 run in 64 left it as it was).
  const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.slice(-1);
  assert.notEqual(flipped, sealed);
  assert.throws(() => ring.open(flipped, HERE), SecretUnreadableError);
  assert.throws(() => KeyRing.parse(B, 'test').open(sealed, HERE), /sealed under key 'a', which the ring does not hold/);
  assert.throws(() => ring.open('JBSWY3DPEHPK3PXP', HERE), /not sealed/);
});

test('a bad ring is refused with every problem and without echoing key material', () => {
  const material = A.split(':')[1]!;
  for (const [text, pattern] of [
    ['', /holds no key/],
    ['a:rlsk1_short', /entry 1 is not ID:rlsk1_/],
    [`${A},${A}`, /key id 'a' appears twice/],
    [`${A},c:${material}`, /repeats another entry's key/],
    [`bad id:${material}`, /entry 1 is not/],
  ] as const) {
    assert.throws(
      () => KeyRing.parse(text, 'RISKLOOKUP_SECRET_KEYS'),
      (error: Error) => error instanceof KeyRingError && pattern.test(error.message) && !error.message.includes(material.slice(6)),
    );
  }
  assert.equal(KeyRing.parse(KeyRing.parse(`${A},${B}`, 'x').toText(), 'y').newestId, 'b', 'toText round-trips');
});

test('the environment: the variable, or a file it names, not both; none is null, and required says how to make one', () => {
  assert.equal(keyRingFromEnv({}), null);
  assert.equal(keyRingFromEnv({ RISKLOOKUP_SECRET_KEYS: '  ' }), null);
  assert.equal(keyRingFromEnv({ RISKLOOKUP_SECRET_KEYS: A })?.newestId, 'a');
  assert.throws(() => keyRingFromEnv({ RISKLOOKUP_SECRET_KEYS: A, RISKLOOKUP_SECRET_KEYS_FILE: '/x' }), /not both/);
  assert.throws(() => keyRingFromEnv({ RISKLOOKUP_SECRET_KEYS_FILE: '/nonexistent/ring' }), /cannot be read: ENOENT/);
  assert.throws(() => requireKeyRing("'serve'", {}), /'serve' needs the secret key ring .*RISKLOOKUP_SECRET_KEYS.*risklookup secrets generate-key/);
});

test('key material in a log line is redacted', () => {
  assert.equal(redactSecrets(`ring: ${A}`), 'ring: a:[REDACTED]');
});
