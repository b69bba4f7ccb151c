import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createQueuePump } from './queue-pump.ts';
import type { QueueJob } from './job-types.ts';

const quietLog = { debug() {}, info() {}, warn() {}, error() {} };

/** A queue of `items` numbers whose pace is what the test says; the claims' limits are kept. */
function pacedQueue(items: number, pace: (wanted: number) => { limit: number; retryInMs: number }) {
  let next = 0;
  const limits: number[] = [];
  const ran: number[] = [];
  const job: QueueJob<number> = {
    name: 'paced',
    concurrency: 8,
    claimBatch: 1,
    claim(limit) {
      limits.push(limit);
      const claimed = Array.from({ length: Math.min(limit, items - next) }, () => next++);
      return Promise.resolve(claimed);
    },
    run(item) {
      ran.push(item);
      return Promise.resolve();
    },
    release: () => Promise.resolve(),
    backlog: () => Promise.resolve({ due: items - next, oldestDueAt: null }),
    pace,
  };
  return { job, limits, ran };
}

test('a paced queue claims no more than its pace allows, and nothing while the pace says wait', async () => {
  let allowed = 0;
  const asked: number[] = [];
  const q = pacedQueue(6, (wanted) => {
    asked.push(wanted);
    const limit = Math.min(wanted, allowed);
    allowed -= limit;
    return { limit, retryInMs: 1 };
  });
  const stop = new AbortController();
  const pump = createQueuePump(q.job, { log: quietLog, mayWork: () => true, stopping: stop.signal, counted: () => {} });
  pump.pump();
  await pump.whenIdle();
  assert.deepEqual(q.limits, [], 'the pace gave nothing: no claim');
  assert.deepEqual(asked, [8]);
  // The pace opens for two: the pump's own retry claims two, runs them, then waits again.
  allowed = 2;
  while (q.ran.length < 2) await new Promise((r) => setTimeout(r, 1));
  await pump.whenIdle();
  assert.deepEqual(q.limits, [2]);
  assert.deepEqual(q.ran, [0, 1]);
  allowed = 100;
  while (q.ran.length < 6) await new Promise((r) => setTimeout(r, 1));
  await pump.whenIdle();
  assert.deepEqual(q.ran, [0, 1, 2, 3, 4, 5]);
  assert.ok(q.limits.slice(1).every((l) => l <= 8));
  stop.abort();
});

/** Resolves after `check()` holds (each turn of the event loop looked at), or fails after 2 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const give = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > give) throw new Error(`not reached: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('a run that frees its slot lets the next item start before it ends; at most twice the slots are alive; drain waits for the ending ones', async () => {
  const answer = Array.from({ length: 6 }, deferred);
  const recorded = Array.from({ length: 6 }, deferred);
  const started: number[] = [];
  const ended: number[] = [];
  let alive = 0;
  let mostAlive = 0;
  let next = 0;
  const job: QueueJob<number> = {
    name: 'two-phase',
    concurrency: 2,
    claimBatch: 1,
    claim(limit) {
      return Promise.resolve(Array.from({ length: Math.min(limit, 6 - next) }, () => next++));
    },
    async run(item, _signal, freeSlot) {
      started.push(item);
      mostAlive = Math.max(mostAlive, ++alive);
      await answer[item]!.promise;
      freeSlot();
      freeSlot(); // twice: frees one slot only
      await recorded[item]!.promise;
      alive--;
      ended.push(item);
    },
    release: () => Promise.resolve(),
    backlog: () => Promise.resolve({ due: 6 - next, oldestDueAt: null }),
  };
  const stop = new AbortController();
  const pump = createQueuePump(job, { log: quietLog, mayWork: () => true, stopping: stop.signal, counted: () => {} });
  pump.pump();
  await until(() => started.length === 2, 'two started');
  answer[0]!.resolve();
  await until(() => started.length === 3, 'the third started once the first freed its slot');
  assert.deepEqual(ended, [], 'the first has not ended (its outcome is still being written)');
  answer[1]!.resolve();
  await until(() => started.length === 4, 'the fourth started once the second freed its slot');
  answer[2]!.resolve();
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(started, [0, 1, 2, 3], 'four alive (twice the slots): no fifth, although a slot is free');
  let idle = false;
  const whenIdle = pump.whenIdle().then(() => (idle = true));
  recorded[0]!.resolve();
  await until(() => started.length === 5, 'the fifth started once the first ended');
  for (const i of [1, 2, 3, 4, 5]) {
    answer[i]!.resolve();
    recorded[i]!.resolve();
  }
  await until(() => started.length === 6, 'all started');
  await whenIdle;
  assert.ok(idle);
  assert.deepEqual([...ended].sort(), [0, 1, 2, 3, 4, 5], 'whenIdle resolved only after every run ended');
  assert.equal(mostAlive, 4);
  stop.abort();
});
