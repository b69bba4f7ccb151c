/**
 * Daily allowances (D18–D20): a key's quota and the anonymous per-address allowance share one
 * counter table and one atomic consume. This module turns counts into the figures the
 * rate-limit headers and `meta` show.
 */
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { nextQuotaResetSeconds, quotaDayOf } from '../lib/turkey-time.ts';
import { consumeUsage, readUsage, refundUsage } from './usage.repository.ts';

export interface Allowance {
  limit: number;
  used: number;
  /** Unix seconds of the next quota-day start (D19). */
  resetAt: number;
}

export function keySubject(keyId: number): string {
  return `key:${keyId}`;
}

export function addressSubject(address: string): string {
  return `addr:${address}`;
}

export function remainingOf(a: Allowance): number {
  return Math.max(0, a.limit - a.used);
}

/** Length of the quota window (one quota day, D19) in seconds, for `RateLimit-Policy`. */
const QUOTA_WINDOW_SECONDS = 86_400;

/**
 * The D3 headers, and beside them the standard fields of the IETF httpapi draft
 * (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy: "daily";q=100;w=86400` and
 * `RateLimit: "daily";r=57;t=3600` (remaining, seconds until the reset).
 */
export function rateLimitHeaders(a: Allowance, nowMs: number): Record<string, string> {
  const remaining = remainingOf(a);
  const secondsToReset = Math.max(0, Math.ceil(a.resetAt - nowMs / 1000));
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(a.limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(a.resetAt),
    'x-ratelimit-used': String(Math.min(a.used, a.limit)),
    'ratelimit-policy': `"daily";q=${a.limit};w=${QUOTA_WINDOW_SECONDS}`,
    ratelimit: `"daily";r=${remaining};t=${secondsToReset}`,
  };
  if (remaining === 0) headers['retry-after'] = String(Math.max(1, secondsToReset));
  return headers;
}

/** Reads an allowance without using it (for answers that do not count, D18). */
export async function peekAllowance(db: Db, clock: Clock, subject: string, limit: number): Promise<Allowance> {
  const now = clock.now();
  return { limit, used: await readUsage(db, subject, quotaDayOf(now)), resetAt: nextQuotaResetSeconds(now) };
}

export interface Charge {
  allowance: Allowance;
  /** Gives the unit back, for a request that failed after it was charged. */
  refund(): Promise<void>;
}

/**
 * Uses one unit of the allowance, or throws 429 with the figures when none is left. The day is
 * fixed at the start so that a refund hits the same day's counter.
 */
export async function chargeAllowance(db: Db, clock: Clock, subject: string, limit: number, whatRanOut: string): Promise<Charge> {
  const now = clock.now();
  const day = quotaDayOf(now);
  const resetAt = nextQuotaResetSeconds(now);
  const used = await consumeUsage(db, subject, day, limit);
  if (used === null) {
    const allowance = { limit, used: limit, resetAt };
    const resetText = new Date(resetAt * 1000).toISOString().replace('.000Z', 'Z');
    throw new AppError(
      'rate_limited',
      `${whatRanOut} of ${limit} requests is used up; it resets at midnight Turkey time (${resetText}). ` + 'For a higher limit, contact the association',
      rateLimitHeaders(allowance, now),
    );
  }
  return { allowance: { limit, used, resetAt }, refund: () => refundUsage(db, subject, day) };
}
