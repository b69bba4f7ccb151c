/**
 * Calendar dates `YYYY-MM-DD` on Turkey's clock (D4): the arithmetic that retention (D34) and the
 * dispute deadlines (D33) count in. Two rules of Turkish law for periods, which `Date` does not
 * follow by itself:
 *
 * - A period in months or years ends on the day of its last month that corresponds to the day it
 *   started, or on that month's last day when the month has no such day (TBK art. 92/1-3; İİK
 *   art. 19 says the same for enforcement periods): 2024-02-29 plus one year is 2025-02-28, and
 *   2024-01-31 plus one month is 2024-02-29. `Date#setUTCFullYear` would roll over to March 1.
 * - A period in days does not count the day it starts (TBK art. 92/1-1): 15 days from the 1st end
 *   with the 16th.
 *
 * Pure: no clock; instants come in as epoch milliseconds and are read in Turkey time.
 */
import { isCalendarDate, quotaDayOf, TURKEY_OFFSET_MS } from './turkey-time.ts';

const DAY_MS = 86_400_000;

/** A date written `YYYY-MM-DD` (years 0000–9999). */
export type CalendarDate = string;

function partsOf(date: CalendarDate): [number, number, number] {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date YYYY-MM-DD: '${date}'`);
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** Days since 1970-01-01 (H. Hinnant's days-from-civil, the inverse of turkey-time.ts's civil-from-days). */
function dayNumberOfParts(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Days since 1970-01-01 of a date (negative before it). */
export function dayNumberOf(date: CalendarDate): number {
  return dayNumberOfParts(...partsOf(date));
}

/** The date `days` days after 1970-01-01. */
export function dateOfDayNumber(days: number): CalendarDate {
  const date = quotaDayOf(days * DAY_MS - TURKEY_OFFSET_MS);
  if (!isCalendarDate(date)) throw new RangeError(`day ${days} is outside the years 0000–9999`);
  return date;
}

/** The Turkey-time date an instant falls on (the same day as the quota day, D19). */
export function turkeyDateOf(ms: number): CalendarDate {
  return quotaDayOf(ms);
}

/** The instant 00:00:00 Turkey time starts `date`. */
export function startOfTurkeyDay(date: CalendarDate): number {
  return dayNumberOf(date) * DAY_MS - TURKEY_OFFSET_MS;
}

/** `date` moved by `days` calendar days (negative: back). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  return dateOfDayNumber(dayNumberOf(date) + days);
}

/** Calendar days from `from` to `to`: 0 on the same day, negative when `to` is earlier. */
export function daysFromTo(from: CalendarDate, to: CalendarDate): number {
  return dayNumberOf(to) - dayNumberOf(from);
}

function daysInMonth(year: number, month: number): number {
  return dayNumberOfParts(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - dayNumberOfParts(year, month, 1);
}

/**
 * `date` plus `months` months (negative: back), ending on the corresponding day or, when the
 * month is shorter, on its last day (TBK art. 92/1-3). Years are 12 months.
 */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  if (!Number.isInteger(months)) throw new RangeError(`months must be a whole number, got ${months}`);
  const [year, month, day] = partsOf(date);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  if (y < 0 || y > 9999) throw new RangeError(`${date} plus ${months} months is outside the years 0000–9999`);
  const d = Math.min(day, daysInMonth(y, m));
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The earlier of two dates. */
export function earlierOf(a: CalendarDate, b: CalendarDate): CalendarDate {
  return a <= b ? a : b;
}
