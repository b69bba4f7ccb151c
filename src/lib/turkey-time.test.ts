import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTurkeyDateTime, isCalendarDate, nextQuotaResetSeconds, parseTurkeyDateTime, quotaDayOf } from './turkey-time.ts';

test('D4: timestamps are shown in UTC+3', () => {
  assert.equal(formatTurkeyDateTime(Date.UTC(2026, 10, 21, 1, 46, 33)), '2026-11-21 04:46:33');
  assert.equal(formatTurkeyDateTime(Date.UTC(2026, 11, 31, 22, 0, 0)), '2027-01-01 01:00:00');
});

test('D19: 20:59:59 UTC and 21:00:00 UTC fall on different quota days', () => {
  const before = Date.UTC(2026, 10, 21, 20, 59, 59);
  const after = Date.UTC(2026, 10, 21, 21, 0, 0);
  assert.equal(quotaDayOf(before), '2026-11-21');
  assert.equal(quotaDayOf(after), '2026-11-22');
});

test('D19: the reset is the next midnight in UTC+3', () => {
  const midnightTr = Date.UTC(2026, 10, 21, 21, 0, 0) / 1000;
  assert.equal(nextQuotaResetSeconds(Date.UTC(2026, 10, 21, 8, 0, 0)), midnightTr);
  assert.equal(nextQuotaResetSeconds(Date.UTC(2026, 10, 21, 20, 59, 59, 999)), midnightTr);
  // At midnight itself the day has just begun: the reset is 24 h later.
  assert.equal(nextQuotaResetSeconds(midnightTr * 1000), midnightTr + 86_400);
});

test('parses Turkey local time and ISO instants, refuses impossible dates', () => {
  assert.equal(parseTurkeyDateTime('2026-11-21 04:46:33'), Date.UTC(2026, 10, 21, 1, 46, 33));
  assert.equal(parseTurkeyDateTime('2026-11-21T01:46:33Z'), Date.UTC(2026, 10, 21, 1, 46, 33));
  assert.equal(parseTurkeyDateTime('2026-02-30 10:00:00'), null);
  assert.equal(parseTurkeyDateTime('yesterday'), null);
  assert.equal(isCalendarDate('2024-02-29'), true);
  assert.equal(isCalendarDate('2023-02-29'), false);
});
