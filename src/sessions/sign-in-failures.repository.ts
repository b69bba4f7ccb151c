/** Failed sign-ins, by subject (`email:<norm>`, `addr:<ip>`, `device:<id>`), for throttling (D27, sign-in-throttle.ts). */
import type { Db } from '../db/types.ts';

/**
 * A subject's failures since `since` and the time of the latest, leaving out the rows `except`
 * (the attempt's own). Rows of attempts still in flight count too: see attemptSignIn.
 */
export async function failuresSince(db: Db, subject: string, since: number, except: readonly number[]): Promise<{ count: number; lastAt: number | null }> {
  let query = db
    .selectFrom('sign_in_failures')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('at').as('last')])
    .where('subject', '=', subject)
    .where('at', '>', since);
  if (except.length > 0) query = query.where('id', 'not in', except);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.n), lastAt: row.last === null ? null : Number(row.last) };
}

/** Records one failure per subject; returns the rows' ids (an attempt's provisional rows). */
export async function recordFailures(db: Db, subjects: readonly string[], at: number): Promise<number[]> {
  const rows = await db
    .insertInto('sign_in_failures')
    .values(subjects.map((subject) => ({ subject, at })))
    .returning('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function deleteFailureRows(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('sign_in_failures').where('id', 'in', ids).execute();
}

/** Forgets every failure of the given subjects (an email that has just signed in). */
export async function deleteFailures(db: Db, subjects: readonly string[]): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('subject', 'in', subjects).execute();
}

/**
 * Forgets failures older than the window, of every subject: the table holds at most one window
 * of failures, itself bounded by the per-address throttle.
 */
export async function purgeFailuresBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('at', '<=', before).execute();
}
