import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remainingWait, SIGN_IN_THROTTLE, startsWaiting, waitAfter } from './sign-in-throttle.ts';

const { account, address, device } = SIGN_IN_THROTTLE;

test('five failures are free; then 15 s, 30 s, 1 min, … doubling up to 15 minutes, never more', () => {
  assert.deepEqual(
    [0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1000].map((n) => waitAfter(account, n) / 1000),
    [0, 0, 15, 30, 60, 120, 240, 480, 900, 900, 900],
  );
  assert.equal(waitAfter(address, 19), 0);
  assert.equal(waitAfter(address, 20), 15_000);
  assert.equal(waitAfter(device, 10), 15_000);
});

test('the wait runs from the last failure', () => {
  assert.equal(remainingWait(account, 5, 1_000_000, 1_000_000), 15_000);
  assert.equal(remainingWait(account, 5, 1_000_000, 1_010_000), 5_000);
  assert.equal(remainingWait(account, 5, 1_000_000, 1_015_000), 0);
  assert.equal(remainingWait(account, 4, 1_000_000, 1_000_000), 0);
  assert.equal(remainingWait(account, 5, null, 0), 0);
});

test('the operator hears once per counter: at the failure that starts the waits', () => {
  assert.deepEqual(
    [3, 4, 5, 6].map((n) => startsWaiting(account, n)),
    [false, false, true, false],
  );
});
