import type { Kysely } from 'kysely';

/**
 * Indexes on the disputes' links to a report (D33). Frozen: its own DDL.
 *
 * The retention job's purge (D34) sets `report_id` to null in `dispute_steps` and
 * `dispute_attachments` for every report it deletes, a batch at a time, and each deleted report's
 * foreign keys are checked against both tables: without an index each of those is a scan of the
 * whole table, once per batch and once per deleted report.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('dispute_steps_report').on('dispute_steps').column('report_id').execute();
  await db.schema.createIndex('dispute_attachments_report').on('dispute_attachments').column('report_id').execute();
}
