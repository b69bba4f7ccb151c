/**
 * Daily allowances (D18–D20, D28): a member's API quota, the portal's per-user and per-member
 * allowances and the anonymous per-address allowance share one counter table and one atomic
 * consume. This module turns counts into the figures the rate-limit headers and `meta` show.
 */
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { nextQuotaResetSeconds, quotaDayOf } from '../lib/turkey-time.ts';
import { consumeUsage, readUsage } from './usage.repository.ts';
import { createChargeBatch, type ChargedRecord } from './charge-batch.ts';

export interface Allowance {
  limit: number;
  used: number;
  /** Unix seconds of the next quota-day start (D19). */
  resetAt: number;
}

/**
 * A member's API quota is `member:<id>` (D18 amended, issue 27 finding 1): the day's count belongs
 * to the member, not to one key string, so a key issued or regenerated during a day continues the
 * count of the key it replaces. Also joined in SQL by keys.repository.ts. Until migration 0013 it
 * was `key:<id>`, per key, and regenerating the key started the day afresh.
 */
export const MEMBER_SUBJECT_PREFIX = 'member:';

export function memberSubject(memberId: number): string {
  return `${MEMBER_SUBJECT_PREFIX}${memberId}`;
}

/**
 * A member's portal searches, all its users together (D28 amended, issue 27 finding 2): users
 * disabled later still count for that day, so inviting, searching and disabling gives no more.
 */
export const PORTAL_MEMBER_SUBJECT_PREFIX = 'portal:member:';

export function portalMemberSubject(memberId: number): string {
  return `${PORTAL_MEMBER_SUBJECT_PREFIX}${memberId}`;
}

export function addressSubject(address: string): string {
  return `addr:${address}`;
}

/** A portal user's counter is `user:<id>` (also read in SQL by member-usage.service.ts). */
export const USER_SUBJECT_PREFIX = 'user:';

/** A portal user's own daily allowance of searches (D28). */
export function userSubject(userId: number): string {
  return `${USER_SUBJECT_PREFIX}${userId}`;
}

/**
 * A member's invitations refused today (member-users.service.ts): a refusal says the address
 * has an account somewhere, so a member_admin gets only so many a day.
 */
export function refusedInvitationsSubject(memberId: number): string {
  return `invite_refused:member:${memberId}`;
}

/** A member's webhook test events and redeliveries of the day (webhook-deliveries.service.ts). */
export function webhookManualSendsSubject(memberId: number): string {
  return `webhook_manual:member:${memberId}`;
}

/** A member's webhook registrations refused for their address today (webhook-endpoints.service.ts). */
export function webhookRefusedAddressesSubject(memberId: number): string {
  return `webhook_refused:member:${memberId}`;
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
  return readAllowance(db, subject, limit, clock.now());
}

async function readAllowance(db: Db, subject: string, limit: number, now: number): Promise<Allowance> {
  return { limit, used: await readUsage(db, subject, quotaDayOf(now)), resetAt: nextQuotaResetSeconds(now) };
}

function usedUp(limit: number, now: number, whatRanOut: string): AppError {
  const allowance = { limit, used: limit, resetAt: nextQuotaResetSeconds(now) };
  const resetText = new Date(allowance.resetAt * 1000).toISOString().replace('.000Z', 'Z');
  return new AppError(
    'rate_limited',
    `${whatRanOut} of ${limit} requests is used up; it resets at midnight Turkey time (${resetText}). ` + 'For a higher limit, contact the association',
    rateLimitHeaders(allowance, now),
  );
}

/** A daily allowance and what to call it in the 429 message ("The daily API quota of member M-1"). */
export interface Meter {
  subject: string;
  limit: number;
  whatRanOut: string;
  /** The count already read on `day` (with the key, keys.repository.ts), so the check reads nothing more. */
  known?: { day: string; used: number };
}

/**
 * Throws 429 when the allowance is used up, from a read alone: no write, no lock (D18), so a
 * used-up key's burst costs the database one indexed read per request.
 */
export async function ensureAllowanceLeft(db: Db, meter: Meter, now: number): Promise<Allowance> {
  const known = meter.known?.day === quotaDayOf(now) ? meter.known : undefined;
  const allowance = known
    ? { limit: meter.limit, used: known.used, resetAt: nextQuotaResetSeconds(now) }
    : await readAllowance(db, meter.subject, meter.limit, now);
  if (allowance.used >= meter.limit) throw usedUp(meter.limit, now, meter.whatRanOut);
  return allowance;
}

/**
 * Takes one unit: one atomic statement that adds 1 only while `used < limit` (D18). Called when
 * the answer is ready, so a request that fails before takes nothing and never makes another see
 * the day as used up. Throws 429 when another request took the last unit in between.
 */
export async function takeUnit(db: Db, meter: Meter, now: number): Promise<Allowance> {
  const used = await consumeUsage(db, meter.subject, quotaDayOf(now), meter.limit);
  if (used === null) throw usedUp(meter.limit, now, meter.whatRanOut);
  return { limit: meter.limit, used, resetAt: nextQuotaResetSeconds(now) };
}

/** Thrown inside takeUnits' transaction so that it rolls back; carries the 429 out. */
class UnitRefused extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
  }
}

/**
 * Takes one unit of each allowance, all or none (a portal search: the user's and the member's,
 * D28 amended): one transaction of D18's conditional increments, rolled back when any is used up,
 * so a refused search takes nothing from the others either. Exact under concurrency and across
 * processes as takeUnit: each increment is decided on its row under the database's row lock
 * (PostgreSQL) or write lock (SQLite), always in the meters' order, so two searches never wait
 * on each other crosswise. One meter: takeUnit's single statement, no transaction.
 */
export async function takeUnits(db: Db, meters: readonly Meter[], now: number): Promise<Allowance[]> {
  if (meters.length === 1) return [await takeUnit(db, meters[0]!, now)];
  try {
    return await db.transaction().execute(async (trx) => {
      const taken: Allowance[] = [];
      for (const meter of meters) {
        try {
          taken.push(await takeUnit(trx, meter, now));
        } catch (error) {
          throw error instanceof AppError ? new UnitRefused(error) : error;
        }
      }
      return taken;
    });
  } catch (error) {
    throw error instanceof UnitRefused ? error.refusal : error;
  }
}

/** The quota steps a search takes, bound to a database (the use case's narrow view of it). */
export interface Quota {
  /** Checks every allowance by reads alone; throws the first one's 429 that is used up. */
  ensureLeft(meters: readonly Meter[], now: number): Promise<Allowance[]>;
  /**
   * Takes one unit of every allowance, all or none (takeUnits). One allowance (an API key's): by
   * group commit (charge-batch.ts), with `record`, the answer's audit record, in the same
   * transaction; resolved once committed.
   */
  take(meters: readonly Meter[], now: number, record?: ChargedRecord): Promise<Allowance[]>;
}

export function quotaOn(db: Db): Quota {
  const batch = createChargeBatch(db);
  return {
    ensureLeft: async (meters, now) => {
      const left: Allowance[] = [];
      for (const meter of meters) left.push(await ensureAllowanceLeft(db, meter, now));
      return left;
    },
    take: async (meters, now, record) => {
      if (meters.length !== 1) {
        if (record) throw new Error('an audit record is stored with a single allowance only');
        return takeUnits(db, meters, now);
      }
      const meter = meters[0]!;
      const used = await batch.take(meter.subject, quotaDayOf(now), meter.limit, record);
      if (used === null) throw usedUp(meter.limit, now, meter.whatRanOut);
      return [{ limit: meter.limit, used, resetAt: nextQuotaResetSeconds(now) }];
    },
  };
}
