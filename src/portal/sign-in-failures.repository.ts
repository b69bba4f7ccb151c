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
  await db.insertInto('sign_in_failures').values(subjects.map((subject) => ({ subject, at }))).execute();
}

/** Forgets a subject's failures (all of them, or those at or before `before`). */
export async function deleteFailures(db: Db, subjects: readonly string[], before?: number): Promise<void> {
  let query = db.deleteFrom('sign_in_failures').where('subject', 'in', subjects);
  if (before !== undefined) query = query.where('at', '<=', before);
  await query.execute();
}
