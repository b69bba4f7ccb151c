import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALWAYS_SERVING, createDeliveryPacer, SERVING_QUIET_MS, type RequestLoad } from './delivery-pace.ts';

/** A pacer on a fake clock and a fake admission gate. */
function paced(ratePerSecond: number, burst: number) {
  let now = 0;
  let load: RequestLoad = { active: 0, queued: 0, admitted: 0 };
  const pace = createDeliveryPacer(
    { ratePerSecond, burst },
    () => load,
    () => now,
  );
  return {
    pace,
    serving: () => pace.serving(),
    advance: (ms: number) => (now += ms),
    set: (next: Partial<RequestLoad>) => (load = { ...load, ...next }),
  };
}

test('no request in work or waiting: as many deliveries as there are slots', () => {
  const p = paced(100, 4);
  assert.deepEqual(p.pace(16), { limit: 16, retryInMs: 0 });
  assert.deepEqual(p.pace(16), { limit: 16, retryInMs: 0 });
});

test('searches queued at the gate: the worker backs off to its pace, then waits for a whole burst', () => {
  const p = paced(100, 4);
  p.set({ active: 0, queued: 3 });
  assert.deepEqual(p.pace(16), { limit: 4, retryInMs: 0 }, 'one burst');
  assert.deepEqual(p.pace(16), { limit: 0, retryInMs: 40 }, 'then nothing until a whole burst is back (4 at 100 a second: 40 ms)');
  p.advance(5);
  assert.deepEqual(p.pace(16), { limit: 0, retryInMs: 35 });
  p.advance(25);
  assert.deepEqual(p.pace(16), { limit: 0, retryInMs: 10 }, '30 ms at 100 a second: 3, not yet a burst');
  p.advance(10);
  assert.deepEqual(p.pace(16), { limit: 4, retryInMs: 0 });
});

test('while serving, a claim is a whole burst, or all the room when the room is less', () => {
  const p = paced(250, 16);
  p.set({ active: 1 });
  assert.equal(p.pace(16).limit, 16);
  assert.equal(p.serving(), true);
  p.advance(32);
  assert.deepEqual(p.pace(16), { limit: 0, retryInMs: 32 }, '8 of 16 tokens: wait for the rest');
  assert.deepEqual(p.pace(8), { limit: 8, retryInMs: 0 }, 'room for 8 only: the 8 tokens there are');
  p.advance(64);
  assert.equal(p.pace(16).limit, 16);
});

test('searches in work: the same pace; the tokens never pile up beyond two bursts', () => {
  const p = paced(250, 4);
  p.set({ active: 2, queued: 0 });
  assert.equal(p.pace(8).limit, 4);
  p.advance(60_000);
  assert.equal(p.pace(8).limit, 4, 'a minute idle gives two bursts, one claim each');
  assert.equal(p.pace(8).limit, 4);
  assert.equal(p.pace(8).limit, 0);
  let started = 0;
  let claims = 0;
  for (let ms = 0; ms < 1000; ms++) {
    p.advance(1);
    const { limit } = p.pace(8);
    started += limit;
    if (limit > 0) claims++;
  }
  assert.equal(started, 248, '250 a second while searches run: 62 whole bursts of 4, the 63rd half there');
  assert.equal(claims, 62);
});

test('a look that comes late (a busy event loop) loses nothing up to one burst: still the pace in all', () => {
  const p = paced(250, 16);
  p.set({ active: 1 });
  // The worker is told to come back when a burst is due (64 ms), and comes back 80 ms later each time;
  // each time it claims until the pace says wait (the queue pump claims again after a full claim).
  let started = 0;
  for (let ms = 0; ms < 4000; ms += 80) {
    for (let limit = p.pace(64).limit; limit > 0; limit = p.pace(64).limit) started += limit;
    p.advance(80);
  }
  // 4 s at 250 a second, the first burst at once: 1,008 at most; one burst a look would give 800.
  assert.ok(started >= 990 && started <= 1008, `started ${started}`);
});

test('the searches gone: paced for one more second, then full speed', () => {
  const p = paced(100, 2);
  p.set({ active: 1, queued: 1 });
  assert.equal(p.pace(16).limit, 2);
  assert.equal(p.pace(16).limit, 0);
  p.set({ active: 0, queued: 0 });
  assert.equal(p.pace(16).limit, 0, 'the gate empty for a moment is still serving');
  p.advance(SERVING_QUIET_MS - 1);
  assert.equal(p.pace(16).limit, 2);
  assert.equal(p.serving(), true);
  p.advance(1);
  assert.equal(p.pace(16).limit, 16);
  assert.equal(p.serving(), false);
});

test('requests that came and went between two looks count as serving', () => {
  const p = paced(100, 2);
  assert.equal(p.pace(16).limit, 16);
  p.set({ admitted: 5 });
  assert.equal(p.pace(16).limit, 2, 'the gate is empty now, but five were admitted since');
});

test('a rate of 0 turns the pace off', () => {
  const p = paced(0, 4);
  p.set({ active: 10, queued: 10, admitted: 10 });
  assert.deepEqual(p.pace(16), { limit: 16, retryInMs: 0 });
});

test('a process with no API (serve --background only) keeps the pace of one that serves, however long it has seen no request', () => {
  let now = 0;
  const pace = createDeliveryPacer({ ratePerSecond: 250, burst: 16 }, ALWAYS_SERVING, () => now);
  assert.deepEqual(pace(64), { limit: 16, retryInMs: 0 });
  assert.equal(pace.serving(), true);
  now += 10 * SERVING_QUIET_MS;
  // Ten quiet seconds earn the bucket's two bursts, never all 64 slots at once.
  assert.deepEqual(pace(64), { limit: 16, retryInMs: 0 });
  assert.deepEqual(pace(64), { limit: 16, retryInMs: 0 });
  assert.deepEqual(pace(64), { limit: 0, retryInMs: 64 });
  assert.equal(pace.serving(), true);
});
