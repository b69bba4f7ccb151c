import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/** Tables whose rows make up a search answer (D8–D13); a change to any of them may change one. */
export const SEARCH_SOURCE_TABLES = ['companies', 'reports'];

/**
 * A version number of the searchable data, so that a server can keep answers until it moves
 * (the write protocol: db/write-session.ts). Frozen: its own DDL per engine.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await db.schema
    .createTable('data_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO data_version (id, version) VALUES (1, 0)`.execute(db);
  const tables = SEARCH_SOURCE_TABLES;
  if (seam.kind === 'sqlite') {
    // Per row, quiet while a write session's bulk-load marker is set (the session bumps once).
    for (const table of tables) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        await sql
          .raw(
            `CREATE TRIGGER ${table}_${op.toLowerCase()}_data_version AFTER ${op} ON ${table}
          WHEN NOT EXISTS (SELECT 1 FROM fts_bulk_load)
          BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END`,
          )
          .execute(db);
      }
    }
  } else {
    await sql`CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(db);
    for (const table of tables) {
      // Once per statement: a 1 000-row insert bumps once.
      await sql
        .raw(
          `CREATE TRIGGER ${table}_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()`,
        )
        .execute(db);
    }
  }
}
