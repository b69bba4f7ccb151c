import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planModeTracker, SET_AUTO, SET_GENERIC } from './plan-cache-mode.ts';

test('a connection is switched only when a statement needs the other mode', () => {
  const t = planModeTracker();
  assert.equal(t.before('generic', 'kept 1'), SET_GENERIC);
  assert.equal(t.before('generic', 'kept 2'), null);
  assert.equal(t.before(null, 'begin'), null);
  assert.equal(t.before('auto', 'select … like $1'), SET_AUTO);
  assert.equal(t.before('auto', 'select … like $1'), null);
  assert.equal(t.before('generic', 'kept 1'), SET_GENERIC);
  assert.equal(t.mode, 'generic');
});

test('after a rollback or a failed switch the mode is unknown, and the next statement sets it', () => {
  const t = planModeTracker();
  t.before('generic', 'kept');
  assert.equal(t.before(null, 'rollback'), null);
  assert.equal(t.mode, 'unknown');
  assert.equal(t.before('generic', 'kept'), SET_GENERIC);
  assert.equal(t.before(null, '  ROLLBACK TO SAVEPOINT s'), null);
  assert.equal(t.before('generic', 'kept'), SET_GENERIC);
  t.failed();
  assert.equal(t.before('generic', 'kept'), SET_GENERIC);
  // A statement without values keeps whatever mode the connection is in.
  assert.equal(t.before(null, 'commit'), null);
  assert.equal(t.mode, 'generic');
});

test('after a failed statement the mode is unknown: its transaction may end in a rollback that undoes the switch', () => {
  const t = planModeTracker();
  assert.equal(t.before('generic', 'kept'), SET_GENERIC);
  t.failed();
  assert.equal(t.mode, 'unknown');
  assert.equal(t.before(null, 'commit'), null);
  assert.equal(t.before('generic', 'kept'), SET_GENERIC);
});
