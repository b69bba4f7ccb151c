import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyLastUse } from './key-last-use.ts';

/** A write that finishes when told; each call is kept with its arguments. */
function heldWrites() {
  const calls: Array<{ keyId: number; day: string; finish: (error?: Error) => void }> = [];
  const write = (keyId: number, day: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ keyId, day, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { calls, write };
}

const settled = async (promise: Promise<void> | null) => {
  let done = false;
  void promise?.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

const quiet = { warn: () => assert.fail('no warning expected') };

test("a key's first answer of a day waits for the write, and so does every answer of it while the write is under way", async () => {
  const { calls, write } = heldWrites();
  const lastUse = new KeyLastUse(write);
  const first = lastUse.record(7, '2026-11-21', quiet);
  const second = lastUse.record(7, '2026-11-21', quiet);
  assert.ok(first && second, 'both wait');
  assert.equal(calls.length, 1, 'one write for the key and day');
  assert.equal(await settled(first), false);
  assert.equal(await settled(second), false);
  calls[0]!.finish();
  assert.equal(await settled(first), true);
  assert.equal(await settled(second), true);
  // Written: the rest of the day's answers wait for nothing and write nothing.
  assert.equal(lastUse.record(7, '2026-11-21', quiet), null);
  assert.equal(calls.length, 1);
});

test('another key, or the next day, is written again', async () => {
  const { calls, write } = heldWrites();
  const lastUse = new KeyLastUse(write);
  const a = lastUse.record(7, '2026-11-21', quiet);
  const b = lastUse.record(8, '2026-11-21', quiet);
  calls.forEach((c) => c.finish());
  await Promise.all([a, b]);
  const next = lastUse.record(7, '2026-11-22', quiet);
  assert.ok(next);
  calls[2]!.finish();
  await next;
  assert.deepEqual(
    calls.map((c) => `${c.keyId} ${c.day}`),
    ['7 2026-11-21', '8 2026-11-21', '7 2026-11-22'],
  );
});

test('a write that fails is logged, does not fail the answer, and the next answer writes again', async () => {
  const { calls, write } = heldWrites();
  const lastUse = new KeyLastUse(write);
  const warnings: string[] = [];
  const log = { warn: (details: object, message: string) => warnings.push(`${message}: ${String((details as { err: Error }).err.message)}`) };
  const failing = lastUse.record(7, '2026-11-21', log);
  calls[0]!.finish(new Error('connection lost'));
  await failing; // resolves: the answer is still given
  assert.deepEqual(warnings, ["could not record the key's last use: connection lost"]);
  const again = lastUse.record(7, '2026-11-21', log);
  assert.ok(again, 'written again');
  calls[1]!.finish();
  await again;
  assert.equal(lastUse.record(7, '2026-11-21', log), null);
  assert.equal(calls.length, 2);
});
