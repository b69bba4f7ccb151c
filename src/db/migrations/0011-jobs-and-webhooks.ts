import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Background work (src/jobs/) and webhook delivery (src/webhooks/, D32). Frozen: this file holds
 * its own DDL and calls no live code but the engine's kind.
 *
 * - `job_state`: one row per periodic job (when it is next due, who holds its run and until
 *   when) and one per lease (SQLite: the process that runs background work). A row is taken by a
 *   conditional UPDATE, which both engines make atomic with a row lock.
 * - `webhook_endpoints`: a member's receivers, with their signing secrets sealed (D35).
 * - `webhook_deliveries`: one row per message and endpoint, the queue the delivery worker
 *   claims from (SKIP LOCKED on PostgreSQL, under the lease on SQLite), kept 30 days.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  const kind = seam.kind;
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    kind === 'sqlite' ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn('id', 'bigserial', (c) => c.primaryKey());

  await db.schema
    .createTable('job_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // Periodic jobs: the instant the next run is due; null for a lease row.
    .addColumn('next_due_at', 'bigint')
    // Who holds the row (a process's id), the claim's own token (fences a holder that lost it),
    // and until when; a holder that stops renewing loses the row then.
    .addColumn('holder', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_started_at', 'bigint')
    .addColumn('last_finished_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();

  await withId(db.schema.createTable('webhook_endpoints'))
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('members.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // enabled, disabled (with the reason in words and the time, for the portal)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'bigint')
    // Sealed (D35): `whsec_…` never stored in the clear. After a rotation the previous secret
    // signs too, until previous_secret_until (24 h).
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('created_by_user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_member').on('webhook_endpoints').column('member_id').execute();

  await withId(db.schema.createTable('webhook_deliveries'))
    .addColumn('endpoint_id', 'bigint', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    // The `webhook-id` header: the event's stable id, the same on every attempt.
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    // The exact body sent on every attempt ({"type","timestamp","data"}).
    .addColumn('payload', 'text', (c) => c.notNull())
    // pending, delivering (claimed until claim_until), succeeded, failed
    .addColumn('state', 'text', (c) => c.notNull())
    // Attempts finished since the delivery (or its redelivery) began: the retry schedule's position.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('first_attempt_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('claim_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_deliveries_message').unique().on('webhook_deliveries').columns(['endpoint_id', 'webhook_id']).execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
}
