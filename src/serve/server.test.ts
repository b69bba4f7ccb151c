import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DRAIN_GRACE_MS, drainGraceOf } from './server.ts';

test('the drain grace is a setting: default 1 s, a whole number of ms from 0 to 60000, anything else refused', () => {
  assert.equal(drainGraceOf({}), DRAIN_GRACE_MS);
  assert.equal(DRAIN_GRACE_MS, 1000);
  assert.equal(drainGraceOf({ RISKLOOKUP_DRAIN_GRACE_MS: '100' }), 100);
  assert.equal(drainGraceOf({ RISKLOOKUP_DRAIN_GRACE_MS: '0' }), 0);
  for (const bad of ['-1', '1.5', 'soon', '60001']) assert.throws(() => drainGraceOf({ RISKLOOKUP_DRAIN_GRACE_MS: bad }), /RISKLOOKUP_DRAIN_GRACE_MS/);
});
