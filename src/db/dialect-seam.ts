/**
 * Everything that differs between SQLite and PostgreSQL, in one small seam (STYLE: "two engines,
 * one code path"): the id column type, the name-search index and how a name query uses it.
 */
import { sql, type CreateTableBuilder, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from './schema.ts';

export type EngineKind = 'sqlite' | 'postgres';

export interface DialectSeam {
  readonly kind: EngineKind;
  /** Adds an auto-incrementing integer primary key named `id`. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
  /** Creates the substring index that D8 name search runs on. */
  createNameSearchIndex(db: Kysely<unknown>): Promise<void>;
  /**
   * A condition on `companies` that holds when every word (each 3+ characters, D8) occurs in
   * `companies.name_key`, written so that the engine answers it from the index.
   */
  nameKeyContainsAll(words: readonly string[]): Expression<SqlBool>;
  /** After rows were inserted with explicit ids: the next generated id follows the largest. */
  resetIdSequences(db: Kysely<any>, tables: readonly string[]): Promise<void>;
}

const sqliteSeam: DialectSeam = {
  kind: 'sqlite',
  addIdColumn: (table) => table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  async createNameSearchIndex(db) {
    // FTS5 with the trigram tokenizer gives substring search over the application-made key
    // (SQLite's own LIKE folds ASCII only). External content: the text lives in `companies`.
    await sql`CREATE VIRTUAL TABLE company_name_fts USING fts5(name_key, content='companies', content_rowid='id', tokenize='trigram')`.execute(db);
    // Indexing row by row costs ~45 µs a company, one INSERT … SELECT for many ~4 µs: the bulk
    // writer marks its inserts in fts_bulk_load (inside its transaction, unseen by others) and
    // indexes them itself (db/bulk-writer.ts). Every other insert goes through the trigger.
    await sql`CREATE TABLE fts_bulk_load (active INTEGER NOT NULL)`.execute(db);
    await sql`CREATE TRIGGER companies_fts_insert AFTER INSERT ON companies WHEN NOT EXISTS (SELECT 1 FROM fts_bulk_load) BEGIN
      INSERT INTO company_name_fts(rowid, name_key) VALUES (new.id, new.name_key); END`.execute(db);
    await sql`CREATE TRIGGER companies_fts_delete AFTER DELETE ON companies BEGIN
      INSERT INTO company_name_fts(company_name_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key); END`.execute(db);
    await sql`CREATE TRIGGER companies_fts_update AFTER UPDATE OF name_key ON companies BEGIN
      INSERT INTO company_name_fts(company_name_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key);
      INSERT INTO company_name_fts(rowid, name_key) VALUES (new.id, new.name_key); END`.execute(db);
  },
  nameKeyContainsAll(words) {
    // Keys hold only letters, digits and single spaces, so a quoted phrase needs no escaping.
    const match = words.map((w) => `"${w}"`).join(' AND ');
    return sql<SqlBool>`companies.id IN (SELECT rowid FROM company_name_fts WHERE company_name_fts MATCH ${match})`;
  },
  // AUTOINCREMENT already follows the largest id inserted.
  resetIdSequences: async () => {},
};

const postgresSeam: DialectSeam = {
  kind: 'postgres',
  addIdColumn: (table) => table.addColumn('id', 'bigserial', (c) => c.primaryKey()),
  async createNameSearchIndex(db) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX companies_name_key_trgm ON companies USING gin (name_key gin_trgm_ops)`.execute(db);
  },
  nameKeyContainsAll(words) {
    // Keys hold only letters, digits and spaces: no LIKE metacharacter can reach the pattern.
    const parts = words.map((w) => sql<SqlBool>`companies.name_key LIKE ${`%${w}%`}`);
    return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
  },
  async resetIdSequences(db, tables) {
    for (const table of tables) {
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), COALESCE((SELECT MAX(id) FROM ${sql.table(table)}), 0) + 1, false)`.execute(db);
    }
  },
};

export function seamFor(kind: EngineKind): DialectSeam {
  return kind === 'sqlite' ? sqliteSeam : postgresSeam;
}
