import { sql, type Kysely } from 'kysely';

/**
 * Indexes that keep the webhook delivery claim cheap and its plan the same whatever the
 * statistics say (a fresh database right after a big enqueue included). Frozen: its own DDL.
 *
 * - `webhook_deliveries_due_order (state, next_attempt_at, id)`: the claim walks the pending rows
 *   oldest due first, in exactly its ORDER BY, and stops at its LIMIT (no sort of every pending
 *   row). It replaces `webhook_deliveries_due (state, next_attempt_at)`, of which it is a superset.
 * - `webhook_deliveries_unattempted (endpoint_id, id)` over rows not yet attempted and still to
 *   deliver: "does an older message of this endpoint still wait for its first attempt" is one
 *   probe, however long the endpoint's history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_due_order').on('webhook_deliveries').columns(['state', 'next_attempt_at', 'id']).execute();
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema
    .createIndex('webhook_deliveries_unattempted')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .where(sql<boolean>`first_attempt_at IS NULL AND state IN ('pending', 'delivering')`)
    .execute();
}
