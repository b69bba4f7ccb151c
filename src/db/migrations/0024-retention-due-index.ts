import { sql, type Kysely } from 'kysely';

/**
 * The retention job's index (D34) holds only the reports it can still expire. Frozen: its own DDL.
 *
 * `reports_retention (type, retention_anchor)` (0018) held every report, and an expired one keeps
 * its anchor for two more years: each daily run's look-up of the reports due ("anchor at or before
 * the cutoff, not expired") read past every report it had already expired, a type's whole
 * history; at 10^6 a page took 1.25 s on PostgreSQL, the statement timeout under load. The
 * partial index leaves expired reports out, and with `id` as its last column a page resumes where
 * the last one stopped (the keyset's `anchor >= last` bound) instead of rereading from the start.
 * The queries name the same predicate with a literal (a bound parameter would not let the
 * engines prove the index applies).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reports_retention').execute();
  await db.schema
    .createIndex('reports_retention_due')
    .on('reports')
    .columns(['type', 'retention_anchor', 'id'])
    .where(sql.ref('status'), '<>', sql.lit('expired'))
    .execute();
}
