/**
 * A large import into an empty database builds its indexes once, after the last row, instead
 * of keeping them up to date row by row (at 10^6 companies: see docs/benchmarks.md). Everything
 * happens inside the import's transaction, so a failed import leaves the schema as it was and
 * readers never see a table without its indexes.
 */
import { sql } from 'kysely';
import type { Engine } from '../db/connect.ts';
import type { Db } from '../db/types.ts';

/**
 * Only the companies' name-search indexes: rows arrive in random name order, so keeping them
 * up to date costs a random b-tree insert per row, and the import itself never reads them.
 * The reports' indexes grow in id order (cheap) and the import reads them.
 */
const DEFERRED_TABLES = ['companies'];

/** Whether the import starts on an empty database (only then is a deferred build cheaper). */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const row = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/** Drops the secondary indexes and defers the per-row work; returns the step that builds them again. */
export async function deferIndexes(engine: Pick<Engine, 'seam' | 'bulk'>, trx: Db): Promise<() => Promise<void>> {
  const indexes = await engine.seam.secondaryIndexes(trx, DEFERRED_TABLES);
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.name)}`.execute(trx);
  const finishLoad = await engine.bulk.beginFreshLoad(trx);
  return async () => {
    for (const index of indexes) await sql.raw(index.sql).execute(trx);
    await finishLoad();
  };
}
