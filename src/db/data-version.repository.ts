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
