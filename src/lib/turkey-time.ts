/**
 * Turkey time (D4, D19): a fixed UTC+3 with no daylight saving since 2016. Every
 * `YYYY-MM-DD HH:MM:SS` the API shows and the quota day use this one clock.
 */
export const TURKEY_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function shifted(ms: number): string {
  return new Date(ms + TURKEY_OFFSET_MS).toISOString();
}

/** `YYYY-MM-DD HH:MM:SS` in Turkey time. */
export function formatTurkeyDateTime(ms: number): string {
  const iso = shifted(ms);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** The quota day (D19) an instant falls on, as `YYYY-MM-DD` in Turkey time. */
export function quotaDayOf(ms: number): string {
  return shifted(ms).slice(0, 10);
}

/** Unix seconds of the next 00:00:00 Turkey time strictly after `ms` (X-RateLimit-Reset). */
export function nextQuotaResetSeconds(ms: number): number {
  const dayStartShifted = Math.floor((ms + TURKEY_OFFSET_MS) / DAY_MS) * DAY_MS;
  return (dayStartShifted + DAY_MS - TURKEY_OFFSET_MS) / 1000;
}

/**
 * Parses `YYYY-MM-DD HH:MM:SS` (Turkey time, as the API shows it) or an ISO 8601 instant with
 * an offset. Returns epoch milliseconds, or null when the text is not one of those.
 */
export function parseTurkeyDateTime(text: string): number | null {
  const local = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (local) {
    const [, y, mo, d, h, mi, s] = local;
    const ms = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +(s ?? 0)) - TURKEY_OFFSET_MS;
    return formatTurkeyDateTime(ms).startsWith(`${y}-${mo}-${d} ${h}:${mi}`) ? ms : null;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}
