import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Watchlists and their events (D31). Frozen: this file holds its own DDL and calls no live code
 * but the engine's kind.
 *
 * - `members.watchlist_cap`: companies a member may watch; null = the server's default (500).
 * - `watchlist`: one row per member and watched company, keyed by country and normalised tax ID
 *   (the company need not exist: watching never tells whether it has records).
 * - `watched_companies`: the baseline of each watched company (what a search answered at the last
 *   change: threat level, report count, the visible reports' ids), one row however many watch it.
 * - `company_events`: the `company.changed` events, one per watching member, kept 30 days; the id
 *   orders the feed.
 * - `event_feed_head`: one row; every transaction that writes events (or adds a watch) updates it
 *   first, so that event ids are taken in commit order (a feed reader never skips an event that
 *   commits later with a smaller id) and a new baseline never misses a change in flight.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  const kind = seam.kind;
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    kind === 'sqlite' ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn('id', 'bigserial', (c) => c.primaryKey());

  await db.schema.alterTable('members').addColumn('watchlist_cap', 'integer').execute();

  await db.schema
    .createTable('watchlist')
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('members.id'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('tax_id_norm', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('watchlist_pk', ['member_id', 'country', 'tax_id_norm'])
    .execute();
  await db.schema.createIndex('watchlist_company').on('watchlist').columns(['country', 'tax_id_norm', 'member_id']).execute();

  await db.schema
    .createTable('watched_companies')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('tax_id_norm', 'text', (c) => c.notNull())
    .addColumn('threat_level', 'text')
    .addColumn('report_count', 'integer', (c) => c.notNull())
    // The visible reports' ids, ascending, comma-separated ('' for none).
    .addColumn('visible_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('watched_companies_pk', ['country', 'tax_id_norm'])
    .execute();
  await db.schema.createIndex('watched_companies_created').on('watched_companies').column('created_at').execute();

  await withId(db.schema.createTable('company_events'))
    .addColumn('member_id', 'bigint', (c) => c.notNull().references('members.id'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('tax_id_norm', 'text', (c) => c.notNull())
    .addColumn('threat_before', 'text')
    .addColumn('threat_after', 'text')
    .addColumn('count_before', 'integer', (c) => c.notNull())
    .addColumn('count_after', 'integer', (c) => c.notNull())
    // Comma-separated kinds of change (report_published, report_removed, report_disputed, dispute_closed).
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('company_events_member').on('company_events').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('company_events_occurred').on('company_events').column('occurred_at').execute();

  await db.schema
    .createTable('event_feed_head')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('events_written', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('event_feed_head' as never)
    .values({ id: 1, events_written: 0, updated_at: 0 })
    .execute();
}
