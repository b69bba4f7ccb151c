/** Failed sign-ins, by subject (`email:<norm>`, `addr:<ip>`), for throttling (D27). */
import type { Db } from '../db/types.ts';

export async function countFailuresSince(db: Db, subject: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subject', '=', subject)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function recordFailures(db: Db, subjects: readonly string[], at: number): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values(subjects.map((subject) => ({ subject, at })))
    .execute();
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
