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
