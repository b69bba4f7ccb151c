import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionGate, type AdmissionLimits, type Ticket } from './admission-gate.ts';

const LIMITS: AdmissionLimits = { maxActive: 4, maxActivePerKey: 2, maxQueued: 6, maxQueuedPerKey: 3, maxWaitMs: 1000 };

/** Records the order in which waiting tickets are admitted or shed. */
function watch(ticket: Ticket, name: string, log: string[]) {
  void Promise.resolve(ticket.admitted).then((ok) => log.push(`${name}:${ok ? 'in' : 'shed'}`));
  return ticket;
}

const settle = () => new Promise((r) => setImmediate(r));

describe('admission gate (D26)', () => {
  test('admits at once up to the per-key limit, then queues that key while other keys still get in', () => {
    const gate = new AdmissionGate(LIMITS);
    assert.equal(gate.enter('A').admitted, true);
    assert.equal(gate.enter('A').admitted, true);
    assert.ok(gate.enter('A').admitted instanceof Promise, "A's third request waits");
    assert.equal(gate.enter('B').admitted, true, 'B is not behind A');
    assert.deepEqual(gate.stats(), { active: 3, queued: 1, lanes: 2 });
  });

  test('sheds at once when the key queue or all queues are full', () => {
    const gate = new AdmissionGate(LIMITS);
    for (let i = 0; i < 2 + 3; i++) gate.enter('A');
    assert.equal(gate.enter('A').admitted, false, "A's queue of 3 is full");
    for (let i = 0; i < 2 + 3; i++) gate.enter('B');
    assert.deepEqual(gate.stats(), { active: 4, queued: 6, lanes: 2 });
    assert.equal(gate.enter('C').admitted, false, 'all queues together are full');
  });

  test('a freed turn goes to the waiting lanes in turn, not to the lane that bursts', async () => {
    const gate = new AdmissionGate({ ...LIMITS, maxActive: 2, maxActivePerKey: 2 });
    const log: string[] = [];
    const a1 = gate.enter('A');
    const a2 = gate.enter('A');
    watch(gate.enter('A'), 'a3', log);
    watch(gate.enter('A'), 'a4', log);
    watch(gate.enter('B'), 'b1', log);
    a1.leave();
    await settle();
    assert.deepEqual(log, ['a3:in'], 'A waited first');
    a2.leave();
    await settle();
    assert.deepEqual(log, ['a3:in', 'b1:in'], "B's turn comes before A's fourth");
  });

  test('a request waits at most maxWaitMs, then is shed; leaving the queue frees its place', async (t) => {
    // The wait runs on mocked timers: on a busy machine a real 20 ms can pass before the first check.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const gate = new AdmissionGate({ ...LIMITS, maxActive: 1, maxWaitMs: 20 });
    const log: string[] = [];
    gate.enter('A');
    const waiting = watch(gate.enter('B'), 'b1', log);
    const gone = watch(gate.enter('C'), 'c1', log);
    gone.leave();
    await settle();
    assert.deepEqual(log, ['c1:shed']);
    assert.equal(gate.stats().queued, 1);
    t.mock.timers.tick(19);
    await settle();
    assert.deepEqual(log, ['c1:shed'], 'still waiting 1 ms before its wait runs out');
    t.mock.timers.tick(1);
    assert.equal(await waiting.admitted, false);
    await settle();
    assert.deepEqual(log, ['c1:shed', 'b1:shed']);
    waiting.leave();
    assert.deepEqual(gate.stats(), { active: 1, queued: 0, lanes: 1 });
  });

  test('giving a turn back twice counts once; an idle lane is forgotten', () => {
    const gate = new AdmissionGate(LIMITS);
    const t = gate.enter('A');
    t.leave();
    t.leave();
    assert.deepEqual(gate.stats(), { active: 0, queued: 0, lanes: 0 });
    assert.equal(gate.enter('A').admitted, true);
    assert.equal(gate.enter('A').admitted, true);
  });

  test('a waiter admitted and then done gives its turn to the next', async () => {
    const gate = new AdmissionGate({ ...LIMITS, maxActive: 1 });
    const first = gate.enter('A');
    const second = gate.enter('B');
    const third = gate.enter('C');
    first.leave();
    assert.equal(await second.admitted, true);
    second.leave();
    assert.equal(await third.admitted, true);
    assert.deepEqual(gate.stats(), { active: 1, queued: 0, lanes: 1 });
  });

  test("while another key is in work, a burst's freed turns refill it only to its share; alone it gets them all back", async () => {
    const gate = new AdmissionGate({ ...LIMITS, maxActive: 16, maxActivePerKey: 4, maxQueuedPerKey: 100, maxQueued: 100 });
    const log: string[] = [];
    const inWork = Array.from({ length: 4 }, () => gate.enter('A'));
    const waiting = Array.from({ length: 6 }, (_, i) => watch(gate.enter('A'), `a${i + 5}`, log));
    const b = gate.enter('B');
    assert.equal(b.admitted, true, 'B gets in at once');
    // B is in work: A's share is 4 / 2. Two turns A gives back are not refilled, the third is.
    inWork[0]!.leave();
    inWork[1]!.leave();
    await settle();
    assert.deepEqual(log, [], 'A still has 2 in work, its share');
    inWork[2]!.leave();
    await settle();
    assert.deepEqual(log, ['a5:in']);
    assert.deepEqual(gate.stats(), { active: 3, queued: 5, lanes: 2 });
    // B is done: A alone may have 4 again, at its next freed turn.
    b.leave();
    inWork[3]!.leave();
    await settle();
    assert.deepEqual(log, ['a5:in', 'a6:in', 'a7:in', 'a8:in']);
    assert.deepEqual(gate.stats(), { active: 4, queued: 2, lanes: 1 });
    for (const w of waiting) w.leave();
  });
});
