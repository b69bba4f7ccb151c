import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dailyAt, describeSchedule, every, firstDue, nextDue } from './schedule.ts';

/** 2026-11-21 HH:MM Turkey time (UTC+3). */
const tr = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour - 3, minute);

test('every N seconds: first due at once, then one period on', () => {
  const sixHours = every(6 * 3600);
  const start = tr(21, 10);
  assert.equal(firstDue(sixHours, start), start);
  assert.equal(nextDue(sixHours, start, start + 5_000), tr(21, 16));
});

test('every N seconds: after a long stop it runs once and keeps its phase', () => {
  const hourly = every(3600);
  // Due at 10:00, the process was down until 15:20: the next is 16:00, not 11:00 (no burst of runs).
  assert.equal(nextDue(hourly, tr(21, 10), tr(21, 15, 20)), tr(21, 16));
  // Finished exactly on a period boundary: strictly after now.
  assert.equal(nextDue(hourly, tr(21, 10), tr(21, 11)), tr(21, 12));
});

test("daily at an hour of Turkey time: the first run is today's if its hour has passed", () => {
  const three = dailyAt(3);
  assert.equal(firstDue(three, tr(21, 9)), tr(21, 3));
  // 01:00 Turkey time is still the previous UTC day's 22:00: yesterday's 03:00 is the latest passed.
  assert.equal(firstDue(three, tr(21, 1)), tr(20, 3));
});

test('daily: a missed day is caught up once, and the next run is at the hour the next day', () => {
  const three = dailyAt(3);
  // Due 2026-11-18 03:00; every process was down until 2026-11-21 09:00.
  const due = tr(18, 3);
  assert.ok(due <= tr(21, 9), 'the missed run is due when the process starts');
  assert.equal(nextDue(three, due, tr(21, 9, 1)), tr(22, 3));
  // Run on time: the next is tomorrow's.
  assert.equal(nextDue(three, tr(21, 3), tr(21, 3, 2)), tr(22, 3));
  // A run that finished just before midnight Turkey time (20:59 UTC): tomorrow 03:00.
  assert.equal(nextDue(dailyAt(23), tr(21, 23), tr(21, 23, 59)), tr(22, 23));
});

test('bad schedules are refused with the rule', () => {
  assert.throws(() => every(0), /whole number of seconds from 1/);
  assert.throws(() => every(1.5), /whole number of seconds from 1/);
  assert.throws(() => dailyAt(24), /from 0 to 23/);
});

test('schedules in words', () => {
  assert.equal(describeSchedule(every(6 * 3600)), 'every 6 h');
  assert.equal(describeSchedule(every(90)), 'every 90 s');
  assert.equal(describeSchedule(every(300)), 'every 5 min');
  assert.equal(describeSchedule(dailyAt(3)), 'daily at 03:00 Turkey time');
});
