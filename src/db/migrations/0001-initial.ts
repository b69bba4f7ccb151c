import type { Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/** The whole first schema; identical on both engines apart from the seam's parts. */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await seam
    .addIdColumn(db.schema.createTable('members'))
    .addColumn('ref', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('agreement_signed_on', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await seam
    .addIdColumn(db.schema.createTable('api_keys'))
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('members.id'))
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('daily_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_member').on('api_keys').column('member_id').execute();

  await seam
    .addIdColumn(db.schema.createTable('companies'))
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('tax_id_norm', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('name_core', 'text', (c) => c.notNull())
    .addColumn('visible_report_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // Tax ID first: a tax-ID search uses it with or without a country, and a country filter on
    // a name search cannot pick it over the name index (most companies share one country).
    .addUniqueConstraint('companies_tax_id_country', ['tax_id_norm', 'country'])
    .execute();
  await seam.createNameSearchIndex(db);

  await seam
    .addIdColumn(db.schema.createTable('reports'))
    .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id'))
    .addColumn('ref', 'text', (c) => c.unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('filed_at', 'bigint', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('court_decision_date', 'text')
    .addColumn('concordat_start', 'text')
    .addColumn('concordat_end', 'text')
    .addColumn('case_json', 'text')
    .addColumn('reported_by', 'bigint', (c) => c.references('members.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_company_status').on('reports').columns(['company_id', 'status']).execute();

  await seam
    .addIdColumn(db.schema.createTable('report_status_changes'))
    .addColumn('report_id', 'bigint', (c) => c.notNull().references('reports.id'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_status_changes_report').on('report_status_changes').column('report_id').execute();

  await db.schema
    .createTable('usage_counters')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['subject', 'day'])
    .execute();

  await seam
    .addIdColumn(db.schema.createTable('audit_log'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('key_id', 'bigint')
    .addColumn('member_id', 'bigint')
    .addColumn('q', 'text')
    .addColumn('type', 'text')
    .addColumn('country', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('result_count', 'integer')
    .addColumn('response_ms', 'integer', (c) => c.notNull())
    .addColumn('client_address', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
}
