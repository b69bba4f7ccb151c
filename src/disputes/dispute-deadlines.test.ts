import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addDays, startOfTurkeyDay } from '../lib/calendar-date.ts';
import { compareByDaysLeft, daysLeft, deadlinesOf, decisionDueOn, memberDueOn } from './dispute-deadlines.ts';

const at = (date: string, hh = 12) => startOfTurkeyDay(date) + hh * 3_600_000;

test('D33: 30 calendar days for the decision from receipt, 15 for the member from being told, the first day not counted', () => {
  assert.equal(decisionDueOn('2025-01-31'), '2025-03-02');
  assert.equal(decisionDueOn('2024-01-31'), '2024-03-01', 'a leap year');
  assert.equal(memberDueOn(at('2025-12-20')), '2026-01-04');
  // 23:30 UTC on 1 March is 2 March in Turkey: the 15 days count from 2 March.
  assert.equal(memberDueOn(Date.UTC(2025, 2, 1, 23, 30)), '2025-03-17');
});

test('days left: 0 on the last day, negative when late, counted in Turkey days', () => {
  assert.equal(daysLeft('2025-03-17', at('2025-03-10')), 7);
  assert.equal(daysLeft('2025-03-17', at('2025-03-17', 23)), 0);
  assert.equal(daysLeft('2025-03-17', Date.UTC(2025, 2, 17, 21, 0)), -1, '18 March 00:00 in Turkey');
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 23 }), (day, offset, hour) => {
      const today = addDays('1990-01-01', day);
      assert.equal(daysLeft(addDays(today, offset), at(today, hour)), offset);
    }),
  );
});

test('the queue: what each dispute owes, fewest days left first, late ones most late first', () => {
  const now = at('2025-03-20');
  const make = (id: number, state: 'open' | 'awaiting_member' | 'decided', receivedOn: string, toldOn: string | null = null) => ({
    id,
    receivedOn,
    deadlines: deadlinesOf({ state, receivedOn, membersToldAt: toldOn === null ? null : at(toldOn) }, now),
  });
  const waiting = make(1, 'awaiting_member', '2025-03-10', '2025-03-11');
  assert.deepEqual(waiting.deadlines, { decision: { dueOn: '2025-04-09', daysLeft: 20 }, member: { dueOn: '2025-03-26', daysLeft: 6 } });
  const decided = make(2, 'decided', '2025-01-01');
  assert.deepEqual(decided.deadlines, { decision: null, member: null });
  const late = make(3, 'open', '2025-02-10');
  assert.equal(late.deadlines.decision!.daysLeft, -8);
  const lateToo = make(4, 'open', '2025-02-12');
  const sameDayAsWaiting = make(5, 'open', '2025-03-10');
  const queue = [decided, waiting, sameDayAsWaiting, lateToo, late].sort(compareByDaysLeft).map((d) => d.id);
  assert.deepEqual(queue, [3, 4, 1, 5, 2]);
});
