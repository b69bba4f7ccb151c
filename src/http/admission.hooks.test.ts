import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digestApiKey, generateApiKey } from '../keys/api-key.ts';
import { bodyDeadlineMs, laneOf } from './admission.hooks.ts';
import { KnownKeys } from './known-keys.ts';

const from = (ip: string, key?: string) => ({ ip, headers: key === undefined ? {} : { 'x-api-key': key } });

test('D26: a key found in the database has its own lane, whatever the address; each key another', () => {
  const known = new KnownKeys();
  const a = generateApiKey();
  const b = generateApiKey();
  known.remember(digestApiKey(a), 1);
  known.remember(digestApiKey(b), 2);
  assert.equal(laneOf(from('10.0.0.1', a), known).lane, 'key:1');
  assert.equal(laneOf(from('10.0.0.2', a), known).lane, 'key:1');
  assert.equal(laneOf(from('10.0.0.1', b), known).lane, 'key:2');
  assert.equal(laneOf(from('10.0.0.1'), known).lane, 'addr:10.0.0.1');
  // Space around it, which authentication trims away too: the key's lane.
  assert.equal(laneOf(from('10.0.0.1', ` ${a}\u00a0`), known).lane, 'key:1');
});

test('D26: a well-formed key no request has shown to exist (made up: the checksum is public) waits in its address lane', () => {
  const known = new KnownKeys();
  const forged = Array.from({ length: 20 }, () => generateApiKey());
  assert.deepEqual(new Set(forged.map((key) => laneOf(from('10.0.0.1', key), known).lane)), new Set(['addr:10.0.0.1']));
  // Its digest is handed on so that authentication's finding can be remembered; never the key.
  assert.equal(laneOf(from('10.0.0.1', forged[0]), known).digest, digestApiKey(forged[0]!));
});

test('D26: text that is no key (random, a wrong checksum, empty) shares its address lane with requests sending none', () => {
  const known = new KnownKeys();
  const key = generateApiKey();
  const wrongChecksum = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
  for (const junk of ['', 'x', 'rlk1' + 'a'.repeat(60), wrongChecksum, `${key}x`]) {
    assert.deepEqual(laneOf(from('10.0.0.1', junk), known), { lane: 'addr:10.0.0.1', digest: null }, JSON.stringify(junk));
  }
});

test('D26: known keys are forgotten after their time, and the least recently seen first beyond the bound', () => {
  let now = 0;
  const known = new KnownKeys({ maxEntries: 2, ttlMs: 1000 }, () => now);
  known.remember('a', 1);
  known.remember('b', 2);
  assert.equal(known.laneOf('a'), 'key:1');
  known.remember('a', 1); // seen again: now the most recent
  known.remember('c', 3);
  assert.deepEqual([known.laneOf('a'), known.laneOf('b'), known.laneOf('c')], ['key:1', null, 'key:3']);
  now = 1001;
  assert.equal(known.laneOf('c'), null);
  assert.equal(known.size, 1);
});

test('D26: a body gets the base timeout plus its size at 256 KiB/s', () => {
  assert.equal(bodyDeadlineMs(2000, 0), 2000);
  assert.equal(bodyDeadlineMs(2000, 16 * 1024), 2063);
  assert.equal(bodyDeadlineMs(2000, 256 * 1024), 3000);
});
