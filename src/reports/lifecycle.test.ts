import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTransition, isActive } from './lifecycle.ts';

test('D11: the allowed steps', () => {
  assert.equal(checkTransition('pending', 'approved'), null);
  assert.equal(checkTransition('pending', 'rejected'), null);
  assert.equal(checkTransition('approved', 'withdrawn'), null);
  assert.equal(checkTransition('approved', 'deactivated'), null);
});

test('D11: illegal steps are refused with the allowed ones named', () => {
  assert.equal(checkTransition('pending', 'withdrawn'), 'a pending report can become approved or rejected, not withdrawn');
  assert.equal(checkTransition('rejected', 'approved'), 'a rejected report is final and cannot become approved');
  assert.match(checkTransition('approved', 'approved')!, /can become withdrawn or deactivated/);
});

test('D11: only approved is active', () => {
  assert.deepEqual((['pending', 'approved', 'rejected', 'withdrawn', 'deactivated'] as const).filter(isActive), ['approved']);
});
