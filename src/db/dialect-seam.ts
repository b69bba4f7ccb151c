/**
 * Everything that differs between SQLite and PostgreSQL, in one small seam (STYLE: "two engines,
 * one code path"): the id column type, the name-search index and how a name query uses it.
 */
import { sql, type CreateTableBuilder, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
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
  /**
   * Ids of up to `limit` companies (visible or not) whose `name_key` holds every word, straight
   * from the substring index: how many there are decides the name search's strategy. With
   * `indexTerm` (SQLite), only that part of each word (a rare trigram) is looked up: a superset
   * of the matches, which the caller checks against the whole words.
   */
  nameCandidateIds(words: readonly string[], limit: number, indexTerm?: (word: string) => string): RawBuilder<{ id: number }>;
  /** A condition that holds when `companies.id` is one of `ids` (one parameter, any count). */
  idIn(ids: readonly number[]): Expression<SqlBool>;
  /** Creates the indexes for ranked name search (D8): by `name_core` prefix, and in rank order. */
  createNameRankIndexes(db: Kysely<unknown>): Promise<void>;
  /**
   * A condition that holds when `companies.name_core` starts with `core` (keys hold only
   * letters, digits and single spaces), answered from the prefix index.
   */
  nameCoreStartsWith(core: string): Expression<SqlBool>;
  /**
   * The indexes on `tables` that no constraint needs, each with the statement that creates it
   * again exactly (a fresh import drops them and builds them once at the end).
   */
  secondaryIndexes(db: Kysely<any>, tables: readonly string[]): Promise<Array<{ name: string; sql: string }>>;
  /**
   * Triggers that bump `data_version` on any change to the tables search answers come from.
   * SQLite's are per row, so they stay quiet while a bulk writer is active (fts_bulk_load);
   * the import bumps the version itself.
   */
  createDataVersionTriggers(db: Kysely<unknown>, tables: readonly string[]): Promise<void>;
  /** After rows were inserted with explicit ids: the next generated id follows the largest. */
  resetIdSequences(db: Kysely<any>, tables: readonly string[]): Promise<void>;
  /**
   * The per-row triggers on `tables`, each with the statement that creates it again exactly
   * (a fresh load drops them; db/write-session.ts). PostgreSQL's run once per statement: none.
   */
  perRowTriggers(db: Kysely<any>, tables: readonly string[]): Promise<Array<{ name: string; sql: string }>>;
  /**
   * Sets or clears the bulk-load marker (SQLite: the `fts_bulk_load` row, seen only inside the
   * transaction) that keeps the per-row triggers quiet. Only db/write-session.ts calls this.
   */
  markBulkLoad(db: Kysely<any>, active: boolean): Promise<void>;
  /** Builds the name-search index again from `companies` (SQLite's FTS table; PostgreSQL's is an ordinary index). */
  rebuildNameIndex(db: Kysely<any>): Promise<void>;
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
  nameCandidateIds(words, limit, indexTerm = (w) => w) {
    const match = words.map((w) => `"${indexTerm(w)}"`).join(' AND ');
    return sql`SELECT rowid AS id FROM company_name_fts WHERE company_name_fts MATCH ${match} LIMIT ${limit}`;
  },
  idIn: (ids) => sql<SqlBool>`companies.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  async createNameRankIndexes(db) {
    // Partial (only companies that can be shown) and covering (the words are checked in the
    // index, the table row is read only for a result).
    await sql`CREATE INDEX companies_name_core_visible ON companies (name_core, visible_report_count, id, name_key, country) WHERE visible_report_count > 0`.execute(db);
    await sql`CREATE INDEX companies_rank_visible ON companies (visible_report_count DESC, name_core, id, name_key, country) WHERE visible_report_count > 0`.execute(db);
  },
  nameCoreStartsWith(core) {
    // A range the index answers (SQLite's LIKE folds case, so it cannot), then the exact test;
    // U+10FFFF is the largest code point, so the range holds every key that starts with core.
    return sql<SqlBool>`(companies.name_core >= ${core} AND companies.name_core < ${`${core}\u{10FFFF}`} AND substr(companies.name_core, 1, ${[...core].length}) = ${core})`;
  },
  async secondaryIndexes(db, tables) {
    // sql is NULL for the indexes behind UNIQUE and PRIMARY KEY constraints.
    const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
      WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${sql.join(tables)}) ORDER BY name`.execute(db);
    return rows;
  },
  async createDataVersionTriggers(db, tables) {
    for (const table of tables) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        await sql.raw(`CREATE TRIGGER ${table}_${op.toLowerCase()}_data_version AFTER ${op} ON ${table}
          WHEN NOT EXISTS (SELECT 1 FROM fts_bulk_load)
          BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END`).execute(db);
      }
    }
  },
  // AUTOINCREMENT already follows the largest id inserted.
  resetIdSequences: async () => {},
  async perRowTriggers(db, tables) {
    const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
      WHERE type = 'trigger' AND tbl_name IN (${sql.join(tables)}) ORDER BY name`.execute(db);
    return rows;
  },
  async markBulkLoad(db, active) {
    await (active ? sql`INSERT INTO fts_bulk_load (active) VALUES (1)` : sql`DELETE FROM fts_bulk_load`).execute(db);
  },
  async rebuildNameIndex(db) {
    await sql`INSERT INTO company_name_fts (company_name_fts) VALUES ('rebuild')`.execute(db);
  },
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
  nameCandidateIds(words, limit) {
    const parts = words.map((w) => sql<SqlBool>`name_key LIKE ${`%${w}%`}`);
    return sql`SELECT id FROM companies WHERE ${sql.join(parts, sql` AND `)} LIMIT ${limit}`;
  },
  idIn: (ids) => sql<SqlBool>`companies.id = ANY(${ids}::bigint[])`,
  async createNameRankIndexes(db) {
    // text_pattern_ops: a LIKE 'prefix%' uses the index whatever the database's collation.
    await sql`CREATE INDEX companies_name_core_visible ON companies (name_core text_pattern_ops) INCLUDE (visible_report_count, name_key, country) WHERE visible_report_count > 0`.execute(db);
    await sql`CREATE INDEX companies_rank_visible ON companies (visible_report_count DESC, name_core, id) INCLUDE (name_key, country) WHERE visible_report_count > 0`.execute(db);
  },
  // Keys hold no LIKE metacharacter.
  nameCoreStartsWith: (core) => sql<SqlBool>`companies.name_core LIKE ${`${core}%`}`,
  async secondaryIndexes(db, tables) {
    const { rows } = await sql<{ name: string; sql: string }>`SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename IN (${sql.join(tables)})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)
      ORDER BY i.indexname`.execute(db);
    return rows;
  },
  async createDataVersionTriggers(db, tables) {
    await sql`CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(db);
    for (const table of tables) {
      // Once per statement: a 1 000-row insert bumps once.
      await sql.raw(`CREATE TRIGGER ${table}_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()`).execute(db);
    }
  },
  async resetIdSequences(db, tables) {
    for (const table of tables) {
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), COALESCE((SELECT MAX(id) FROM ${sql.table(table)}), 0) + 1, false)`.execute(db);
    }
  },
  perRowTriggers: async () => [],
  markBulkLoad: async () => {},
  rebuildNameIndex: async () => {},
};

export function seamFor(kind: EngineKind): DialectSeam {
  return kind === 'sqlite' ? sqliteSeam : postgresSeam;
}
