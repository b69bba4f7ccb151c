import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addDays, addMonths, dateOfDayNumber, dayNumberOf, daysFromTo, startOfTurkeyDay, turkeyDateOf } from './calendar-date.ts';
import { isCalendarDate } from './turkey-time.ts';

/** Any date of the years 1900–2200 as `YYYY-MM-DD`. */
const anyDate = fc
  .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2200, 11, 31)), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

test('day numbers agree with Date.UTC from 1600 to 2400, and back', () => {
  fc.assert(
    fc.property(fc.date({ min: new Date(Date.UTC(1600, 0, 1)), max: new Date(Date.UTC(2400, 11, 31)), noInvalidDate: true }), (d) => {
      const date = d.toISOString().slice(0, 10);
      const expected = Math.floor(d.getTime() / 86_400_000);
      assert.equal(dayNumberOf(date), expected);
      assert.equal(dateOfDayNumber(expected), date);
    }),
  );
  assert.equal(dayNumberOf('1970-01-01'), 0);
  assert.equal(dayNumberOf('0000-03-01'), -719_468);
});

test('TBK art. 92/1-3: a period of months ends on the corresponding day, or the last day of a shorter month', () => {
  assert.equal(addMonths('2024-02-29', 12), '2025-02-28');
  assert.equal(addMonths('2024-02-29', 36), '2027-02-28');
  assert.equal(addMonths('2024-02-29', 48), '2028-02-29');
  assert.equal(addMonths('2023-01-31', 1), '2023-02-28');
  assert.equal(addMonths('2024-01-31', 1), '2024-02-29');
  assert.equal(addMonths('2024-03-31', 1), '2024-04-30');
  assert.equal(addMonths('2024-12-15', 1), '2025-01-15');
  assert.equal(addMonths('2025-01-15', -1), '2024-12-15');
  assert.equal(addMonths('2100-02-28', 0), '2100-02-28');
  assert.equal(addMonths('2096-02-29', 48), '2100-02-28', '2100 is not a leap year');
  assert.equal(addMonths('1996-02-29', 48), '2000-02-29', '2000 is');
});

test('adding months: a real date in the target month, never later than the same day, never a roll-over', () => {
  fc.assert(
    fc.property(anyDate, fc.integer({ min: -1200, max: 1200 }), (date, months) => {
      const result = addMonths(date, months);
      assert.ok(isCalendarDate(result), result);
      const monthIndex = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1;
      assert.equal(monthIndex(result), monthIndex(date) + months, `${date} + ${months} months = ${result}`);
      const day = Number(date.slice(8, 10));
      const got = Number(result.slice(8, 10));
      assert.ok(got === day || (got < day && addDays(result, 1).slice(8, 10) === '01'), `${date} + ${months} = ${result}`);
    }),
  );
});

test('adding months never goes back: a later start never ends earlier (what the retention cut-off relies on)', () => {
  fc.assert(
    fc.property(anyDate, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 240 }), (date, later, months) => {
      assert.ok(addMonths(addDays(date, later), months) >= addMonths(date, months));
    }),
  );
});

test('TBK art. 92/1-1: days do not count the first day; days between dates are a difference of day numbers', () => {
  assert.equal(addDays('2025-01-01', 15), '2025-01-16');
  assert.equal(addDays('2024-02-20', 10), '2024-03-01');
  assert.equal(addDays('2025-02-20', 10), '2025-03-02');
  assert.equal(addDays('2025-12-20', 30), '2026-01-19');
  assert.equal(daysFromTo('2025-01-16', '2025-01-01'), -15);
  fc.assert(
    fc.property(anyDate, fc.integer({ min: -5000, max: 5000 }), (date, days) => {
      assert.equal(daysFromTo(date, addDays(date, days)), days);
    }),
  );
});

test('D4: a Turkey day starts at 21:00 UTC the evening before; each instant belongs to one Turkey day', () => {
  assert.equal(startOfTurkeyDay('2025-06-01'), Date.UTC(2025, 4, 31, 21, 0, 0));
  assert.equal(turkeyDateOf(Date.UTC(2025, 4, 31, 20, 59, 59, 999)), '2025-05-31');
  assert.equal(turkeyDateOf(Date.UTC(2025, 4, 31, 21, 0, 0)), '2025-06-01');
  fc.assert(
    fc.property(anyDate, fc.integer({ min: 0, max: 86_399_999 }), (date, offset) => {
      assert.equal(turkeyDateOf(startOfTurkeyDay(date) + offset), date);
    }),
  );
});

test('a date that is no date is a bug upstream, refused loudly', () => {
  assert.throws(() => addMonths('2025-02-30', 1), RangeError);
  assert.throws(() => addDays('yesterday', 1), RangeError);
  assert.throws(() => addMonths('2025-01-01', 1.5), RangeError);
  assert.throws(() => addMonths('9999-12-01', 1), RangeError);
});
