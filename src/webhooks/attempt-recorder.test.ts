import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createAttemptRecorder, type AttemptOutcome } from './delivery-worker.ts';

/** A recorder whose writes are kept (each batch's delivery ids) and always succeed. */
function recorder(gather: { count: number; ms: number } | null) {
  const writes: number[][] = [];
  const r = createAttemptRecorder(
    (batch) => {
      writes.push(batch.map((o) => o.delivery.id));
      return Promise.resolve(batch.map(() => true));
    },
    { gather: () => gather },
  );
  const outcome = (id: number) => ({ delivery: { id }, decision: { kind: 'succeeded' }, now: 0, status: 204 }) as unknown as AttemptOutcome;
  return { writes, record: (id: number) => r.record(outcome(id)) };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('not serving: the outcomes of one turn of the event loop are written together, at once', async () => {
  const r = recorder(null);
  const done = Promise.all([r.record(1), r.record(2), r.record(3)]);
  assert.deepEqual(await done, [true, true, true]);
  assert.deepEqual(r.writes, [[1, 2, 3]]);
});

test('serving: outcomes wait for a batch, or for the time limit after the first, whichever comes first', async (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  const r = recorder({ count: 4, ms: 50 });
  const first = Promise.all([r.record(1), r.record(2), r.record(3)]);
  await turn();
  mock.timers.tick(49);
  await turn();
  assert.deepEqual(r.writes, [], 'three of four, 49 ms: nothing written yet');
  mock.timers.tick(1);
  assert.deepEqual(await first, [true, true, true]);
  assert.deepEqual(r.writes, [[1, 2, 3]], '50 ms after the first: written, as one batch');

  const second = Promise.all([4, 5, 6, 7].map((id) => r.record(id)));
  assert.deepEqual(await second, [true, true, true, true], 'a whole batch: written without waiting for the time limit');
  assert.deepEqual(r.writes, [
    [1, 2, 3],
    [4, 5, 6, 7],
  ]);
});

test('serving: outcomes that arrive while a batch is written wait for a batch of their own, not written a few at a time', async (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  const writes: number[][] = [];
  let finishWrite: () => void = () => {};
  const r = createAttemptRecorder(
    (batch) => {
      writes.push(batch.map((o) => o.delivery.id));
      return new Promise<boolean[]>((resolve) => (finishWrite = () => resolve(batch.map(() => true))));
    },
    { gather: () => ({ count: 4, ms: 50 }) },
  );
  const record = (id: number) => r.record({ delivery: { id }, decision: { kind: 'succeeded' }, now: 0, status: 204 } as unknown as AttemptOutcome);
  const first = Promise.all([1, 2, 3, 4].map(record));
  await turn();
  assert.deepEqual(writes, [[1, 2, 3, 4]]);
  const late = Promise.all([5, 6].map(record));
  finishWrite();
  await first;
  await turn();
  assert.deepEqual(writes, [[1, 2, 3, 4]], 'two outcomes that arrived during the write: not written alone at its end');
  const rest = Promise.all([7, 8].map(record));
  await turn();
  finishWrite();
  await Promise.all([late, rest]);
  assert.deepEqual(writes, [
    [1, 2, 3, 4],
    [5, 6, 7, 8],
  ]);

  const straggler = record(9);
  await turn();
  mock.timers.tick(50);
  await turn();
  finishWrite();
  assert.equal(await straggler, true, 'alone, it is written at the time limit');
  assert.deepEqual(writes.at(-1), [9]);
});
