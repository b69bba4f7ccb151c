import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Disputes by the reported company (D33). Frozen: its own DDL, calling no live code but the
 * engine's kind.
 *
 * - `disputes`: one per request the bureau received (identification, the day received, grounds),
 *   its state (`awaiting_member`, `open`, `decided`) and outcome, the decision's reason and the
 *   company's statement after `upheld`. `version` makes every step a conditional update: of two
 *   steps at once exactly one wins.
 * - `dispute_reports`: which reports, each one's filing member and that member's answer.
 *   `undecided` is 1 while the dispute is undecided and NULL after: the unique index on
 *   (report_id, undecided) keeps a report in at most one undecided dispute, even for two
 *   recordings at once (NULLs never collide).
 * - `dispute_attachments`: the company's documents (operators only) and a member's supporting
 *   documents (that member's users and operators), checked as D29's.
 * - `dispute_steps`: the dispute's history (who, when, what, the text given).
 * - `reports.disputed` (0/1) and `reports.dispute_statement`: what a search shows of a report
 *   (`"disputed"`, `"statement"`), kept by the dispute steps in their transaction. On the report
 *   row, so that the search reads them with the report and the data-version triggers (0003) move
 *   the search cache when they change.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  const kind = seam.kind;
  const blob = kind === 'sqlite' ? 'blob' : 'bytea';
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    kind === 'sqlite' ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn('id', 'bigserial', (c) => c.primaryKey());

  await withId(db.schema.createTable('disputes'))
    .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id'))
    // awaiting_member, open, decided
    .addColumn('state', 'text', (c) => c.notNull())
    // upheld, corrected, removed; null until decided
    .addColumn('outcome', 'text')
    // kep, e_signature, notarised_letter, and its reference (the KEP address, the certificate, the notary's number)
    .addColumn('identification_method', 'text', (c) => c.notNull())
    .addColumn('identification_reference', 'text', (c) => c.notNull())
    // YYYY-MM-DD: the 30 days run from it
    .addColumn('received_on', 'text', (c) => c.notNull())
    .addColumn('grounds', 'text', (c) => c.notNull())
    // When the filing members were told (the 15 days run from it); null when none was asked
    .addColumn('members_told_at', 'bigint')
    .addColumn('decision_reason', 'text')
    .addColumn('decided_at', 'bigint')
    .addColumn('statement', 'text')
    .addColumn('recorded_by_user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('disputes_state').on('disputes').columns(['state', 'received_on']).execute();
  await db.schema.createIndex('disputes_company').on('disputes').column('company_id').execute();

  await db.schema
    .createTable('dispute_reports')
    .addColumn('dispute_id', 'bigint', (c) => c.notNull().references('disputes.id'))
    .addColumn('report_id', 'bigint', (c) => c.notNull().references('reports.id'))
    .addColumn('filing_member_id', 'bigint', (c) => c.references('members.id'))
    // not_asked, awaited, supported, withdrawn, lapsed, unanswered
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('response_text', 'text')
    .addColumn('responded_at', 'bigint')
    .addColumn('responded_by_user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('undecided', 'integer')
    .addPrimaryKeyConstraint('dispute_reports_pk', ['dispute_id', 'report_id'])
    .execute();
  await db.schema.createIndex('dispute_reports_one_undecided').unique().on('dispute_reports').columns(['report_id', 'undecided']).execute();
  await db.schema.createIndex('dispute_reports_member').on('dispute_reports').columns(['filing_member_id', 'dispute_id']).execute();

  await withId(db.schema.createTable('dispute_attachments'))
    .addColumn('dispute_id', 'bigint', (c) => c.notNull().references('disputes.id'))
    // null: the company's document; else the report a member's supporting document is about
    .addColumn('report_id', 'bigint', (c) => c.references('reports.id'))
    // the member whose users may download it; null: operators only
    .addColumn('member_id', 'bigint', (c) => c.references('members.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', blob as 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dispute_attachments_dispute').on('dispute_attachments').column('dispute_id').execute();

  await withId(db.schema.createTable('dispute_steps'))
    .addColumn('dispute_id', 'bigint', (c) => c.notNull().references('disputes.id'))
    // record, support, withdraw, lapse, decide, set_statement
    .addColumn('step', 'text', (c) => c.notNull())
    // the report a member's step is about; null for a step on the whole dispute
    .addColumn('report_id', 'bigint', (c) => c.references('reports.id'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('by_label', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .execute();
  await db.schema.createIndex('dispute_steps_dispute').on('dispute_steps').columns(['dispute_id', 'id']).execute();

  await db.schema
    .alterTable('reports')
    .addColumn('disputed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('reports').addColumn('dispute_statement', 'text').execute();
}
