/** The rows of the watchlist, the watched companies' baselines and the events (D31, migration 0016). */
import { sql, type Transaction } from 'kysely';
import type { Database, WatchedCompaniesTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { CompanyEventRow } from './company-event.ts';

export const watchKey = (country: string, taxIdNorm: string) => `${country}:${taxIdNorm}`;
/** The company a watchKey names (a country code holds no colon). */
export function companyOfWatchKey(key: string): { country: string; taxIdNorm: string } {
  const colon = key.indexOf(':');
  return { country: key.slice(0, colon), taxIdNorm: key.slice(colon + 1) };
}

/**
 * Takes the feed's head row for the rest of the transaction: event writers and new watches go
 * one at a time from here to their commit, so event ids are taken in commit order and a baseline
 * is never computed beside an uncommitted change that cannot see it.
 */
export async function lockFeedHead(trx: Transaction<Database>, now: number, eventsWritten = 0): Promise<void> {
  await trx
    .updateTable('event_feed_head')
    .set((eb) => ({ events_written: eb('events_written', '+', eventsWritten), updated_at: now }))
    .where('id', '=', 1)
    .execute();
}

/**
 * For a writer that takes the feed's head and reads a company's standing after it (a new watch):
 * waits first until it may read the tables a search answer is made of. Every writer takes them
 * before the head: a load into an empty database holds `companies` and `reports` exclusively (it
 * drops their indexes and keys) until its commit and takes the head at its end
 * (import.service.ts), so a watch holding the head while it waited for those tables would close a
 * cycle, and PostgreSQL would abort the load (test/import-watch-during.test.ts). A SELECT takes its
 * tables' ACCESS SHARE lock even when it reads no row; on SQLite it reads nothing.
 */
export async function awaitSearchTables(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT 1 FROM companies, reports LIMIT 0`.execute(trx);
}

/** Events written since the database was made (committed ones only), for /metrics. */
export async function readEventsWritten(db: Db): Promise<number> {
  const row = await db.selectFrom('event_feed_head').select('events_written').where('id', '=', 1).executeTakeFirst();
  return Number(row?.events_written ?? 0);
}

export type BaselineRow = Pick<WatchedCompaniesTable, 'country' | 'tax_id_norm' | 'threat_level' | 'report_count' | 'visible_ids'>;

/** The baselines of those of these companies that someone watches. */
export async function watchedAmong(db: Db, keys: ReadonlyArray<{ country: string; taxIdNorm: string }>): Promise<BaselineRow[]> {
  const wanted = new Set(keys.map((k) => watchKey(k.country, k.taxIdNorm)));
  const taxIds = [...new Set(keys.map((k) => k.taxIdNorm))];
  const out: BaselineRow[] = [];
  for (let i = 0; i < taxIds.length; i += 500) {
    const rows = await db
      .selectFrom('watched_companies')
      .select(['country', 'tax_id_norm', 'threat_level', 'report_count', 'visible_ids'])
      .where('tax_id_norm', 'in', taxIds.slice(i, i + 500))
      .execute();
    for (const r of rows) if (wanted.has(watchKey(r.country, r.tax_id_norm))) out.push(r);
  }
  return out;
}

/** The key (watchKey) of every company someone watches. */
export async function watchedKeys(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('watched_companies').select(['country', 'tax_id_norm']).execute();
  return new Set(rows.map((r) => watchKey(r.country, r.tax_id_norm)));
}

export async function updateBaseline(db: Db, row: BaselineRow, now: number): Promise<void> {
  await db
    .updateTable('watched_companies')
    .set({ threat_level: row.threat_level, report_count: row.report_count, visible_ids: row.visible_ids, updated_at: now })
    .where('country', '=', row.country)
    .where('tax_id_norm', '=', row.tax_id_norm)
    .execute();
}

/** The newest event's id (0 for none): under the feed's head (lockFeedHead), the events written next get larger ones. */
export async function lastEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('company_events')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/**
 * One event per member watching the company, in one statement (INSERT … SELECT from the
 * watchlist, in member order; nothing read back): returns how many. Their ids are those above
 * lastEventId() taken before it, under the feed's head.
 */
export async function insertEventsForWatchers(db: Db, event: Omit<CompanyEventRow, 'id' | 'member_id'>): Promise<number> {
  const text = (v: string | null) => sql<string>`cast(${v} as text)`;
  const int = (v: number) => sql<number>`cast(${v} as integer)`;
  const big = (v: number) => sql<number>`cast(${v} as bigint)`;
  const result = await db
    .insertInto('company_events')
    .columns(['member_id', 'country', 'tax_id_norm', 'threat_before', 'threat_after', 'count_before', 'count_after', 'kinds', 'occurred_at'])
    .expression(
      db
        .selectFrom('watchlist')
        .select([
          'member_id',
          'country',
          'tax_id_norm',
          text(event.threat_before).as('threat_before'),
          text(event.threat_after).as('threat_after'),
          int(event.count_before).as('count_before'),
          int(event.count_after).as('count_after'),
          text(event.kinds).as('kinds'),
          big(event.occurred_at).as('occurred_at'),
        ])
        .where('country', '=', event.country)
        .where('tax_id_norm', '=', event.tax_id_norm)
        .orderBy('member_id'),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** A member's events after `afterId`, oldest first (the feed, D31). */
export async function listEventsOfMember(db: Db, memberId: number, afterId: number, limit: number): Promise<CompanyEventRow[]> {
  return db
    .selectFrom('company_events')
    .select(['id', 'country', 'tax_id_norm', 'threat_before', 'threat_after', 'count_before', 'count_after', 'kinds', 'occurred_at'])
    .where('member_id', '=', memberId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Deletes events that occurred before `beforeMs` (30 days kept), a bounded batch at a time. */
export async function deleteEventsBefore(db: Db, beforeMs: number, batch = 5000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = await db.selectFrom('company_events').select('id').where('occurred_at', '<', beforeMs).orderBy('id').limit(batch).execute();
    if (ids.length === 0) return deleted;
    await db
      .deleteFrom('company_events')
      .where(
        'id',
        'in',
        ids.map((r) => Number(r.id)),
      )
      .execute();
    deleted += ids.length;
    if (ids.length < batch) return deleted;
  }
}
