import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * The portal (D27, D28) and member-filed reports with their moderation (D29, D30). Frozen: this
 * file holds its own DDL and calls no live code but the engine's kind, so editing the seam
 * never changes what it created.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  const kind = seam.kind;
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    kind === 'sqlite' ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn('id', 'bigserial', (c) => c.primaryKey());
  const blob = kind === 'sqlite' ? 'blob' : 'bytea';

  // People who sign in (D27). A user belongs to a member (member_admin, member_user) or is an
  // operator (member_id null). email_norm is the case-folded email, unique.
  await withId(db.schema.createTable('users'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_norm', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('member_id', 'bigint', (c) => c.references('members.id'))
    // invited (no password yet), active, disabled
    .addColumn('status', 'text', (c) => c.notNull())
    // scrypt or argon2id hash in PHC-like string form; null until the invitation is accepted
    .addColumn('password_hash', 'text')
    // Operators' TOTP (RFC 6238) secret and the last time step accepted (a replayed code is refused)
    .addColumn('totp_secret', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_member').on('users').column('member_id').execute();

  // One-time links: invitations and password resets (valid 72 h, used once). Only a digest is kept.
  await withId(db.schema.createTable('user_tokens'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_tokens_user').on('user_tokens').column('user_id').execute();

  // Server-side sessions: only a digest of the 256-bit id is stored (D27).
  await withId(db.schema.createTable('sessions'))
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('locale', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  // Failed sign-ins, for throttling per email and per address (D27); subject is `email:<norm>` or `addr:<ip>`.
  await withId(db.schema.createTable('sign_in_failures'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_subject_at').on('sign_in_failures').columns(['subject', 'at']).execute();

  // Who signed which version of the data agreement when (D28); members.agreement_signed_on stays
  // the flag D17 reads, set in the same transaction.
  await withId(db.schema.createTable('agreement_signatures'))
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('members.id'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agreement_signatures_member').on('agreement_signatures').column('member_id').execute();

  // Daily limit given to the member's next key (D30); null = the server's default.
  await db.schema.alterTable('members').addColumn('key_daily_limit', 'integer').execute();

  // Searches come from the API, the portal (a user's own allowance, D28) or the CLI (support staff).
  await db.schema
    .alterTable('audit_log')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('api'))
    .execute();
  await db.schema.alterTable('audit_log').addColumn('user_id', 'bigint').execute();
  await db.schema.alterTable('audit_log').addColumn('actor', 'text').execute();

  // Reports filed by members (D29): who filed, the date of the underlying event.
  await db.schema
    .alterTable('reports')
    .addColumn('filed_by_user_id', 'bigint', (c) => c.references('users.id'))
    .execute();
  await db.schema.alterTable('reports').addColumn('event_date', 'text').execute();
  await db.schema.createIndex('reports_status_created').on('reports').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('reports_reported_by').on('reports').column('reported_by').execute();
  // Every step keeps its reason and the user who took it (D29); changed_by stays the readable actor.
  await db.schema.alterTable('report_status_changes').addColumn('reason', 'text').execute();
  await db.schema.alterTable('report_status_changes').addColumn('changed_by_user_id', 'bigint').execute();

  // Attachments of filed reports (D29): content in the database, checked by magic bytes.
  await withId(db.schema.createTable('report_attachments'))
    .addColumn('report_id', 'bigint', (c) => c.notNull().references('reports.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', blob as 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_attachments_report').on('report_attachments').column('report_id').execute();

  // The operator log (D30): append-only; the database itself refuses to change or delete a row.
  await withId(db.schema.createTable('operator_log'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .execute();
  await db.schema.createIndex('operator_log_at').on('operator_log').column('at').execute();
  if (kind === 'sqlite') {
    await sql`CREATE TRIGGER operator_log_no_update BEFORE UPDATE ON operator_log BEGIN SELECT RAISE(ABORT, 'the operator log is append-only'); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER operator_log_no_delete BEFORE DELETE ON operator_log BEGIN SELECT RAISE(ABORT, 'the operator log is append-only'); END`.execute(
      db,
    );
  } else {
    await sql`CREATE FUNCTION operator_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the operator log is append-only'; END $$`.execute(db);
    await sql`CREATE TRIGGER operator_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON operator_log
      FOR EACH STATEMENT EXECUTE FUNCTION operator_log_append_only()`.execute(db);
  }
}
