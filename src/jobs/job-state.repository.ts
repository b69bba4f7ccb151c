/**
 * The rows of `job_state` (migration 0011): a periodic job's next due instant and the claim on
 * its run, or a lease. Every take is one conditional UPDATE: on PostgreSQL the row lock makes a
 * second process's UPDATE wait for the first and then find the condition false (READ COMMITTED
 * re-reads the row); SQLite has one writer at a time. Either way one process wins.
 */
import type { Db } from '../db/types.ts';

export interface Claim {
  readonly name: string;
  readonly holder: string;
  /** Fresh for each claim: a holder that lost the row (expired) cannot write over its successor. */
  readonly token: string;
}

/** Adds the job's row once (the first process to start adds it; the others leave it). */
export async function ensureJobRow(db: Db, name: string, nextDueAt: number | null): Promise<void> {
  await db
    .insertInto('job_state')
    .values({ name, next_due_at: nextDueAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Takes the run of a periodic job that is due and held by nobody (or by a holder whose lease
 * ran out); returns the due instant it runs for, or null when another process has it or it is
 * not due.
 */
export async function claimDueRun(db: Db, claim: Claim, now: number, leaseUntil: number): Promise<number | null> {
  const row = await db
    .updateTable('job_state')
    .set({ holder: claim.holder, claim_token: claim.token, lease_until: leaseUntil, last_started_at: now })
    .where('name', '=', claim.name)
    .where('next_due_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .returning('next_due_at')
    .executeTakeFirst();
  return row?.next_due_at ?? null;
}

/**
 * Takes or renews a lease: free, expired, or already this claim's. True when held afterwards.
 * A lease another holder keeps alive is only read: SQLite has one writer at a time, and the
 * processes that wait should not take its lock every second.
 */
export async function takeLease(db: Db, claim: Claim, now: number, leaseUntil: number): Promise<boolean> {
  const row = await db.selectFrom('job_state').select(['claim_token', 'lease_until']).where('name', '=', claim.name).executeTakeFirst();
  if (row && row.claim_token !== claim.token && row.lease_until !== null && row.lease_until > now) return false;
  if (!row) await ensureJobRow(db, claim.name, null);
  const result = await db
    .updateTable('job_state')
    .set({ holder: claim.holder, claim_token: claim.token, lease_until: leaseUntil })
    .where('name', '=', claim.name)
    .where((eb) => eb.or([eb('claim_token', '=', claim.token), eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends a claim still held; false when it was lost (expired and taken by another). */
export async function renewClaim(db: Db, claim: Claim, leaseUntil: number): Promise<boolean> {
  const result = await db
    .updateTable('job_state')
    .set({ lease_until: leaseUntil })
    .where('name', '=', claim.name)
    .where('claim_token', '=', claim.token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A run finished: the next due instant, and the row free. */
export async function finishRun(db: Db, claim: Claim, now: number, nextDueAt: number): Promise<void> {
  await db
    .updateTable('job_state')
    .set({ next_due_at: nextDueAt, holder: null, claim_token: null, lease_until: null, last_finished_at: now, last_error: null })
    .where('name', '=', claim.name)
    .where('claim_token', '=', claim.token)
    .execute();
}

/**
 * A run failed: the due instant stays (the run is owed), and nobody takes it before `retryAt`
 * (the lease of no holder), so a failing job does not run in a tight loop.
 */
export async function failRun(db: Db, claim: Claim, now: number, retryAt: number, error: string): Promise<void> {
  await db
    .updateTable('job_state')
    .set({ holder: null, claim_token: null, lease_until: retryAt, last_finished_at: now, last_error: error.slice(0, 500) })
    .where('name', '=', claim.name)
    .where('claim_token', '=', claim.token)
    .execute();
}

/** Gives a claim or a lease back at once (a drain): the next process may take it now. */
export async function releaseClaim(db: Db, claim: Claim): Promise<void> {
  await db
    .updateTable('job_state')
    .set({ holder: null, claim_token: null, lease_until: null })
    .where('name', '=', claim.name)
    .where('claim_token', '=', claim.token)
    .execute();
}
