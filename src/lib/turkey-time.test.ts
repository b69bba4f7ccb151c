import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTurkeyDateTime, isCalendarDate, nextQuotaResetSeconds, parseTurkeyDateTime, quotaDayOf } from './turkey-time.ts';

test('D4: timestamps are shown in UTC+3', () => {
  assert.equal(formatTurkeyDateTime(Date.UTC(2026, 10, 21, 1, 46, 33)), '2026-11-21 04:46:33');
  assert.equal(formatTurkeyDateTime(Date.UTC(2026, 11, 31, 22, 0, 0)), '2027-01-01 01:00:00');
});

test('D4: the arithmetic formatting agrees with Date#toISOString shifted by 3 hours, day by day and at random instants', () => {
  const viaIso = (ms: number) => {
    const iso = new Date(ms + 3 * 3600_000).toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  };
  const DAY = 86_400_000;
  // Every day from 1900 to 2100 (leap days, 1900 and 2100 not leap, 2000 leap), at the last
  // millisecond before and the first of each Turkey-time midnight.
  for (let day = Date.UTC(1900, 0, 1); day <= Date.UTC(2100, 11, 31); day += DAY) {
    for (const ms of [day - 3 * 3600_000, day - 3 * 3600_000 - 1]) {
      assert.equal(formatTurkeyDateTime(ms), viaIso(ms));
      assert.equal(quotaDayOf(ms), viaIso(ms).slice(0, 10));
    }
  }
  // Park–Miller: every product stays below 2^53, so the 100,000 instants are all different.
  let seed = 7;
  const seen = new Set<number>();
  for (let i = 0; i < 100_000; i++) {
    seed = (seed * 48_271) % 2_147_483_647;
    const ms = Math.floor((seed / 2_147_483_647) * Date.UTC(2200, 0, 1));
    seen.add(ms);
    assert.equal(formatTurkeyDateTime(ms), viaIso(ms));
  }
  assert.equal(seen.size, 100_000);
  // What Date#toISOString refused is refused still (a quota day of "NaN-NaN-NaN" is never written).
  for (const bad of [NaN, Infinity, 8.64e15 + 1]) {
    assert.throws(() => formatTurkeyDateTime(bad), RangeError);
    assert.throws(() => quotaDayOf(bad), RangeError);
  }
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
