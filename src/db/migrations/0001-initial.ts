import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectSeam, EngineKind } from '../dialect-seam.ts';

/**
 * The whole first schema; identical on both engines apart from the id column and the name-search
 * index. Frozen: this file holds its own DDL and calls no live code but the engine's kind, so
 * editing the seam never changes what it created (test/migrations.test.ts).
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  const kind = seam.kind;
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    kind === 'sqlite' ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn('id', 'bigserial', (c) => c.primaryKey());

  await withId(db.schema.createTable('members'))
    .addColumn('ref', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('agreement_signed_on', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('api_keys'))
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('members.id'))
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('daily_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_member').on('api_keys').column('member_id').execute();

  await withId(db.schema.createTable('companies'))
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
  await createNameSearchIndex(db, kind);

  await withId(db.schema.createTable('reports'))
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

  await withId(db.schema.createTable('report_status_changes'))
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

  await withId(db.schema.createTable('audit_log'))
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

/** The substring index that D8 name search runs on. */
async function createNameSearchIndex(db: Kysely<unknown>, kind: EngineKind): Promise<void> {
  if (kind === 'sqlite') {
    // FTS5 with the trigram tokenizer gives substring search over the application-made key
    // (SQLite's own LIKE folds ASCII only). External content: the text lives in `companies`.
    await sql`CREATE VIRTUAL TABLE company_name_fts USING fts5(name_key, content='companies', content_rowid='id', tokenize='trigram')`.execute(db);
    // Indexing row by row costs ~45 µs a company, one INSERT … SELECT for many ~4 µs: a write
    // session marks its inserts in fts_bulk_load (inside its transaction, unseen by others) and
    // indexes them itself (db/write-session.ts). Every other insert goes through the trigger.
    await sql`CREATE TABLE fts_bulk_load (active INTEGER NOT NULL)`.execute(db);
    await sql`CREATE TRIGGER companies_fts_insert AFTER INSERT ON companies WHEN NOT EXISTS (SELECT 1 FROM fts_bulk_load) BEGIN
      INSERT INTO company_name_fts(rowid, name_key) VALUES (new.id, new.name_key); END`.execute(db);
    await sql`CREATE TRIGGER companies_fts_delete AFTER DELETE ON companies BEGIN
      INSERT INTO company_name_fts(company_name_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key); END`.execute(db);
    await sql`CREATE TRIGGER companies_fts_update AFTER UPDATE OF name_key ON companies BEGIN
      INSERT INTO company_name_fts(company_name_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key);
      INSERT INTO company_name_fts(rowid, name_key) VALUES (new.id, new.name_key); END`.execute(db);
  } else {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX companies_name_key_trgm ON companies USING gin (name_key gin_trgm_ops)`.execute(db);
  }
}
