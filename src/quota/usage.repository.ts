import { sql } from 'kysely';
import type { Db } from '../db/types.ts';
import { preparedQuery } from '../db/prepared.ts';

/**
 * The atomic check-and-increment (D18): one statement that adds 1 only while `used < limit`.
 * Returns the new count, or null when the allowance is used up. Exact under concurrency and
 * across processes because the database serialises the upsert on the row.
 */
export async function consumeUsage(db: Db, subject: string, day: string, limit: number): Promise<number | null> {
  if (limit <= 0) return null;
  const [row] = await consumeQuery(db, [subject, day, limit]);
  return row ? Number(row.used) : null;
}

const consumeQuery = preparedQuery((db, p) =>
  db
    .insertInto('usage_counters')
    .values({ subject: p(0), day: p(1), used: 1 })
    .onConflict((oc) =>
      oc
        .columns(['subject', 'day'])
        .doUpdateSet({ used: sql`usage_counters.used + 1` })
        .where('usage_counters.used', '<', p(2)),
    )
    .returning('used'),
);

/**
 * n units of one (subject, day) at once, for a writer that holds the database's only write lock
 * (SQLite, in a transaction begun IMMEDIATE: charge-batch.ts): the count read, then raised by what
 * is left of the n, in two statements instead of n conditional increments. The same outcome as n
 * consumeUsage calls one after the other: the first `taken` got before + 1 … before + taken, the
 * others none. Not for PostgreSQL, where the read would not hold the row.
 */
export async function consumeUnitsUnderWriteLock(db: Db, subject: string, day: string, limit: number, n: number): Promise<{ before: number; taken: number }> {
  const before = await readUsage(db, subject, day);
  const taken = Math.max(0, Math.min(n, limit - before));
  if (taken > 0) await addUnitsQuery(db, [subject, day, taken]);
  return { before, taken };
}

const addUnitsQuery = preparedQuery((db, p) =>
  db
    .insertInto('usage_counters')
    .values({ subject: p(0), day: p(1), used: p(2) })
    .onConflict((oc) => oc.columns(['subject', 'day']).doUpdateSet({ used: sql`usage_counters.used + excluded.used` })),
);

/**
 * Gives back one unit taken by consumeUsage whose use did not happen (never below 0). Only for
 * counters that are reserved before the work they count (member-users.service.ts); D18's
 * quotas are taken after their answer is ready and never given back.
 */
export async function releaseUsage(db: Db, subject: string, day: string): Promise<void> {
  await db
    .updateTable('usage_counters')
    .set({ used: sql`used - 1` })
    .where('subject', '=', subject)
    .where('day', '=', day)
    .where('used', '>', 0)
    .execute();
}

const readQuery = preparedQuery((db, p) => db.selectFrom('usage_counters').select('used').where('subject', '=', p(0)).where('day', '=', p(1)));

export async function readUsage(db: Db, subject: string, day: string): Promise<number> {
  const [row] = await readQuery(db, [subject, day]);
  return row ? Number(row.used) : 0;
}

export async function listUsageBySubjects(db: Db, subjects: readonly string[]) {
  if (subjects.length === 0) return [];
  const rows = await db
    .selectFrom('usage_counters')
    .select(['day', (eb) => eb.fn.sum<number>('used').as('used')])
    .where('subject', 'in', subjects)
    .groupBy('day')
    .orderBy('day', 'desc')
    .execute();
  return rows.map((r) => ({ day: r.day, used: Number(r.used) }));
}
