import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownsConnection, poolerOf } from './pooler.ts';

test('the pooler is read from its setting: none unless it says session or transaction; only a transaction pooler keeps the server from setting its connections', () => {
  assert.deepEqual(poolerOf(undefined), { pooler: 'none' });
  assert.deepEqual(poolerOf(' '), { pooler: 'none' });
  assert.deepEqual(poolerOf('Session'), { pooler: 'session' });
  assert.deepEqual(poolerOf('TRANSACTION'), { pooler: 'transaction' });
  const bad = poolerOf('statement');
  assert.ok('problem' in bad && /RISKLOOKUP_DB_POOLER.*got 'statement'/.test(bad.problem));
  assert.deepEqual((['none', 'session', 'transaction'] as const).map(ownsConnection), [true, true, false]);
});
