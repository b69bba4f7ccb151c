import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { powerOfTwoRuns, preparedQuery } from '../db/prepared.ts';

/** One audit record (D21); written in batches by audit-writer.ts and charge-batch.ts. */
export type AuditEntry = Insertable<AuditLogTable>;

/** Every column a record names (one multi-row INSERT cannot mix rows with and without one: SQLite has no DEFAULT in VALUES). */
const COLUMNS = [
  'at',
  'key_id',
  'member_id',
  'q',
  'type',
  'country',
  'status',
  'result_count',
  'response_ms',
  'client_address',
  'channel',
  'user_id',
  'actor',
] as const;

const insertQuery = preparedQuery(
  (db, p, rows: number) =>
    db
      .insertInto('audit_log')
      .values(Array.from({ length: rows }, (_, r) => Object.fromEntries(COLUMNS.map((column, i) => [column, p(r * COLUMNS.length + i)])) as AuditEntry)),
  (rows) => String(rows),
);

/**
 * Stores records, a multi-row INSERT per run of a power-of-two length (kept prepared: building
 * and compiling the INSERT cost more than SQLite takes to run it). A record without a channel is
 * an API search's.
 */
export async function insertAuditEntries(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  for (const run of powerOfTwoRuns(entries)) {
    const values: unknown[] = [];
    for (const e of run) {
      values.push(e.at, e.key_id ?? null, e.member_id ?? null, e.q ?? null, e.type ?? null, e.country ?? null, e.status, e.result_count ?? null);
      values.push(e.response_ms, e.client_address, e.channel ?? 'api', e.user_id ?? null, e.actor ?? null);
    }
    await insertQuery(db, values, run.length);
  }
}
