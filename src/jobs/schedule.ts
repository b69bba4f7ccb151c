/**
 * When a periodic job is due: pure rules over instants (epoch milliseconds), no I/O. The runner
 * (job-runner.ts) stores the next due instant in `job_state`; these functions say what it is.
 *
 * - `every`: runs at a fixed period from its first due instant. A process that was down for many
 *   periods runs once, not once per missed period, and keeps its phase.
 * - `daily`: runs at a whole hour of Turkey time (D4, fixed UTC+3). A missed day is caught up:
 *   the run due at 03:00 runs when the next process starts at 09:00, once, however many days were
 *   missed; the next one is due at 03:00 the next day.
 */
import { TURKEY_OFFSET_MS } from '../lib/turkey-time.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type Schedule = { readonly kind: 'every'; readonly ms: number } | { readonly kind: 'daily'; readonly hourTurkey: number };

/** Every `seconds` seconds (at least 1). */
export function every(seconds: number): Schedule {
  if (!Number.isInteger(seconds) || seconds < 1) throw new RangeError(`a period is a whole number of seconds from 1, got ${seconds}`);
  return { kind: 'every', ms: seconds * 1000 };
}

/** Once a day at `hour`:00 Turkey time (0 to 23). */
export function dailyAt(hour: number): Schedule {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`a daily hour is a whole number from 0 to 23, got ${hour}`);
  return { kind: 'daily', hourTurkey: hour };
}

/** The latest `hour`:00 Turkey time at or before `now`. */
function latestDailyAt(hourTurkey: number, now: number): number {
  const dayStart = Math.floor((now + TURKEY_OFFSET_MS) / DAY_MS) * DAY_MS - TURKEY_OFFSET_MS;
  const today = dayStart + hourTurkey * HOUR_MS;
  return today <= now ? today : today - DAY_MS;
}

/**
 * The due instant of a job seen for the first time: now for `every` (the audit purge ran at start
 * before it had a runner); for `daily`, today's hour if it has passed (a new installation does not
 * wait a day for its first run), else yesterday's, which is also passed: the job runs at once.
 */
export function firstDue(schedule: Schedule, now: number): number {
  return schedule.kind === 'every' ? now : latestDailyAt(schedule.hourTurkey, now);
}

/** After a run due at `due` finished at `now`: the next due instant, strictly after `now`. */
export function nextDue(schedule: Schedule, due: number, now: number): number {
  if (schedule.kind === 'daily') return latestDailyAt(schedule.hourTurkey, now) + DAY_MS;
  const periods = Math.max(1, Math.floor((now - due) / schedule.ms) + 1);
  return due + periods * schedule.ms;
}

/** In words, for logs and docs. */
export function describeSchedule(schedule: Schedule): string {
  if (schedule.kind === 'daily') return `daily at ${String(schedule.hourTurkey).padStart(2, '0')}:00 Turkey time`;
  const s = schedule.ms / 1000;
  return s % 3600 === 0 ? `every ${s / 3600} h` : s % 60 === 0 ? `every ${s / 60} min` : `every ${s} s`;
}
