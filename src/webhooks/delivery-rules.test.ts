import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideAfterAttempt, MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, RETRY_DELAYS_MS, retryAfterMs } from './delivery-rules.ts';

const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);
const answered = (status: number, retryAfter: string | null = null) => ({ kind: 'answered', status, retryAfter }) as const;

test('a 2xx is success, whatever the code', () => {
  for (const status of [200, 201, 202, 204, 299]) assert.deepEqual(decideAfterAttempt(answered(status), 1, NOW, 0), { kind: 'succeeded' });
});

test('the schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then give up and disable', () => {
  const minutes = [5 / 60, 5, 30, 120, 300, 600, 840, 1200, 1440];
  assert.deepEqual(
    RETRY_DELAYS_MS.map((ms) => ms / 60_000),
    minutes,
  );
  assert.equal(MAX_ATTEMPTS, 10);
  let at = NOW;
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    const decision = decideAfterAttempt(answered(500), attempt, at, 0);
    assert.equal(decision.kind, 'retry');
    if (decision.kind === 'retry') {
      assert.equal(decision.at - at, minutes[attempt - 1]! * 60_000);
      assert.equal(decision.error, 'answered 500, not a 2xx');
      at = decision.at;
    }
  }
  // 75 h 35 min 5 s after the first attempt, as in the specification's table.
  assert.equal(at - NOW, (75 * 3600 + 35 * 60 + 5) * 1000);
  const last = decideAfterAttempt({ kind: 'no_answer', error: 'no answer within 10 s' }, MAX_ATTEMPTS, at, 0);
  assert.deepEqual(last, {
    kind: 'failed',
    error: 'no answer within 10 s',
    disableEndpoint: 'A message could not be delivered in 10 attempts over 3 days; the last attempt: no answer within 10 s.',
  });
});

test('jitter adds at most 10 % of the delay', () => {
  const decision = decideAfterAttempt(answered(500), 2, NOW, 0.999);
  assert.ok(decision.kind === 'retry' && decision.at > NOW + 5 * 60_000 && decision.at < NOW + 5.5 * 60_000);
});

test('410 Gone disables the endpoint at once', () => {
  const decision = decideAfterAttempt(answered(410), 1, NOW, 0);
  assert.equal(decision.kind, 'failed');
  assert.match(decision.kind === 'failed' ? decision.disableEndpoint : '', /410 Gone/);
});

test('a redirect is a failure, retried, and says to give the final URL', () => {
  const decision = decideAfterAttempt(answered(301), 1, NOW, 0);
  assert.deepEqual(decision, {
    kind: 'retry',
    at: NOW + 5000,
    error: 'answered 301, a redirect: redirects are not followed, so give the endpoint its final URL',
  });
});

test('429 and 503 wait at least their Retry-After, in seconds or as an HTTP date, bounded', () => {
  assert.equal((decideAfterAttempt(answered(429, '120'), 1, NOW, 0) as { at: number }).at, NOW + 120_000);
  assert.equal((decideAfterAttempt(answered(503, new Date(NOW + 600_000).toUTCString()), 1, NOW, 0) as { at: number }).at, NOW + 600_000);
  // Shorter than the schedule: the schedule's wait stands.
  assert.equal((decideAfterAttempt(answered(503, '1'), 2, NOW, 0) as { at: number }).at, NOW + 5 * 60_000);
  // A month is read as the bound.
  assert.equal((decideAfterAttempt(answered(429, String(30 * 86_400)), 1, NOW, 0) as { at: number }).at, NOW + MAX_RETRY_AFTER_MS);
  // Other codes do not read it.
  assert.equal((decideAfterAttempt(answered(500, '3600'), 1, NOW, 0) as { at: number }).at, NOW + 5000);
});

test('Retry-After that cannot be read is ignored', () => {
  for (const value of [null, '', 'soon', '-5', '1.5', '2026-13-45']) assert.equal(retryAfterMs(value, NOW), null, String(value));
  assert.equal(retryAfterMs(new Date(NOW - 60_000).toUTCString(), NOW), 0, 'a date in the past: at once');
});
