import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/** Tables whose rows make up a search answer (D8–D13); a change to any of them may change one. */
export const SEARCH_SOURCE_TABLES = ['companies', 'reports'];

/** A version number of the searchable data, so that a server can keep answers until it moves. */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await db.schema
    .createTable('data_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO data_version (id, version) VALUES (1, 0)`.execute(db);
  await seam.createDataVersionTriggers(db, SEARCH_SOURCE_TABLES);
}
