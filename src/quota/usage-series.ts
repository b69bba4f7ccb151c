/**
 * A member's last quota days of answered searches, API and portal apart (D28), and their CSV.
 * Pure: the service reads the counters, these turn them into what the page and the file show.
 */
import { quotaDayOf } from '../lib/turkey-time.ts';
import { MEMBER_SUBJECT_PREFIX, USER_SUBJECT_PREFIX } from './allowance.ts';

export interface UsageDay {
  /** Quota day (D19), `YYYY-MM-DD` Turkey time. */
  day: string;
  api: number;
  portal: number;
}

const DAY_MS = 86_400_000;

/** The `count` quota days ending with today's (D19), oldest first. */
export function lastQuotaDays(nowMs: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => quotaDayOf(nowMs - (count - 1 - i) * DAY_MS));
}

/** One entry per day (zeros where nothing was counted); `member:` counters are the API, `user:` the portal. */
export function usageSeries(days: readonly string[], counters: ReadonlyArray<{ day: string; subject: string; used: number }>): UsageDay[] {
  const byDay = new Map(days.map((day) => [day, { day, api: 0, portal: 0 }]));
  for (const c of counters) {
    const entry = byDay.get(c.day);
    if (!entry) continue;
    if (c.subject.startsWith(MEMBER_SUBJECT_PREFIX)) entry.api += c.used;
    else if (c.subject.startsWith(USER_SUBJECT_PREFIX)) entry.portal += c.used;
  }
  return [...byDay.values()];
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, with quotes
 * doubled. A field a spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, tab or
 * carriage return) is prefixed with `'` (OWASP "CSV injection").
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `day,api,portal`, one row per day, CRLF line ends (RFC 4180). */
export function usageCsv(series: readonly UsageDay[]): string {
  const rows = [['day', 'api', 'portal'], ...series.map((d) => [d.day, d.api, d.portal])];
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
