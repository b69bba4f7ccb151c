import { sql } from 'kysely';
import { preparedQuery } from './prepared.ts';
import type { Db } from './types.ts';

const readQuery = preparedQuery((db) => db.selectFrom('data_version').select('version').where('id', '=', 1));

/** The version of the searchable data (migration 0003); moves on every committed change. */
export async function readDataVersion(db: Db): Promise<number> {
  const [row] = await readQuery(db, []);
  return Number(row!.version);
}

/** For writers that bypass the per-row triggers (SQLite bulk writes): one bump for all. */
export async function bumpDataVersion(db: Db): Promise<void> {
  await db
    .updateTable('data_version')
    .set({ version: sql`version + 1` })
    .where('id', '=', 1)
    .execute();
}

/**
 * For the same writers: logs that any company may have changed (migration 0021), at the version
 * just bumped, so that every process builds its index of the names again (search/visible-names-keeper.ts).
 */
export async function logEverythingChanged(db: Db): Promise<void> {
  await sql`INSERT INTO company_changes (version, company_id) SELECT version, NULL FROM data_version WHERE id = 1`.execute(db);
}
