/** What the in-memory index of names reads (visible-names-keeper.ts): companies by id range or by id, and the change log (migration 0021). */
import { sql } from 'kysely';
import type { Db } from '../db/types.ts';
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { VisibleName } from './visible-names.ts';

const INDEX_COLUMNS = ['id', 'name_key', 'name_core', 'country', 'visible_report_count'] as const;

type IndexRow = { id: number | string; name_key: string; name_core: string; country: string; visible_report_count: number | string };

const toVisibleName = (r: IndexRow): VisibleName => ({
  id: Number(r.id),
  nameKey: r.name_key,
  nameCore: r.name_core,
  country: r.country,
  visibleReportCount: Number(r.visible_report_count),
});

/** Up to `limit` companies with a visible report and an id above `afterId`, in id order. */
export async function readVisibleNames(db: Db, afterId: number, limit: number): Promise<VisibleName[]> {
  const rows = await db
    .selectFrom('companies')
    .select(INDEX_COLUMNS)
    .where('id', '>', afterId)
    // `+ 0`: the primary key leads (the partial indexes hold most of the table, out of id order).
    .where(sql<boolean>`visible_report_count + 0 > 0`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toVisibleName);
}

/**
 * Up to `limit` companies (any visibility) with an id above `afterId`, in id order: the index of
 * names keeps the visible ones, the names' words (all-name-words.ts) every one.
 */
export async function readNamesAfter(db: Db, afterId: number, limit: number): Promise<VisibleName[]> {
  const rows = await db.selectFrom('companies').select(INDEX_COLUMNS).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map(toVisibleName);
}

/** The companies (any visibility) among `ids` that exist now. */
export async function readNamesByIds(db: Db, seam: DialectSeam, ids: readonly number[]): Promise<VisibleName[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('companies').select(INDEX_COLUMNS).where(seam.idIn(ids)).execute();
  return rows.map(toVisibleName);
}

/** Up to `limit` rows of the change log above `version`, in version order (company null: everything). */
export async function readChangesSince(db: Db, version: number, limit: number): Promise<Array<{ version: number; companyId: number | null }>> {
  const rows = await db
    .selectFrom('company_changes')
    .select(['version', 'company_id'])
    .where('version', '>', version)
    .orderBy('version')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ version: Number(r.version), companyId: r.company_id === null ? null : Number(r.company_id) }));
}

/**
 * Deletes the change log's rows but the newest `keep`, leaving one NULL row at the newest
 * version deleted: a process that had not read them builds its index again. Returns the rows deleted.
 */
export async function purgeChanges(db: Db, keep: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const cut = await trx.selectFrom('company_changes').select('version').orderBy('version', 'desc').offset(keep).limit(1).executeTakeFirst();
    if (!cut) return 0;
    const result = await trx.deleteFrom('company_changes').where('version', '<=', Number(cut.version)).executeTakeFirst();
    await trx
      .insertInto('company_changes')
      .values({ version: Number(cut.version), company_id: null })
      .execute();
    return Number(result.numDeletedRows);
  });
}

/**
 * Whether the database orders text by code point (D8's ties by `name_core` are then computed in
 * memory alike): SQLite's BINARY always; PostgreSQL's under the "C"/"POSIX" collations.
 */
export async function ordersByCodePoint(db: Db, seam: DialectSeam): Promise<boolean> {
  if (seam.kind === 'sqlite') return true;
  const { rows } = await sql<{ collation: string }>`SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()`.execute(db);
  const collation = rows[0]?.collation ?? '';
  // `name_core` has no collation of its own (migration 0001): the database's applies.
  return /^(C|POSIX|C\.UTF-?8|ucs_basic)$/i.test(collation);
}
