import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateApiKey } from '../keys/api-key.ts';
import { laneOf } from './admission-hooks.ts';

const from = (ip: string, key?: string) => ({ ip, headers: key === undefined ? {} : { 'x-api-key': key } });

test('D26: a key we could have issued has its own lane, whatever the address; each key another', () => {
  const a = generateApiKey();
  const b = generateApiKey();
  assert.equal(laneOf(from('10.0.0.1', a)), laneOf(from('10.0.0.2', a)));
  assert.notEqual(laneOf(from('10.0.0.1', a)), laneOf(from('10.0.0.1', b)));
  assert.notEqual(laneOf(from('10.0.0.1', a)), laneOf(from('10.0.0.1')));
  // Space around it, which authentication trims away too: the key's lane.
  assert.equal(laneOf(from('10.0.0.1', ` ${a}\u00a0`)), laneOf(from('10.0.0.1', a)));
});

test('D26: text that is no key (random, a wrong checksum, empty) shares its address lane with requests sending none', () => {
  const key = generateApiKey();
  const wrongChecksum = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
  const noKey = laneOf(from('10.0.0.1'));
  for (const junk of ['', 'x', 'rlk1' + 'a'.repeat(60), wrongChecksum, `${key}x`]) {
    assert.equal(laneOf(from('10.0.0.1', junk)), noKey, JSON.stringify(junk));
  }
  assert.notEqual(laneOf(from('10.0.0.2', 'x')), noKey);
});
