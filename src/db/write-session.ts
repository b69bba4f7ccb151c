/**
 * The write protocol of the searchable data, in one place.
 *
 * THE RULE: every committed change to a table a search answer is made of (SEARCH_SOURCE_TABLES)
 * moves `data_version` in the same transaction. The search cache (search/search-cache.ts) keeps
 * an answer until the version moves, so a writer that skips this serves stale answers to every
 * server process. There are exactly two ways to write those tables:
 *
 * 1. An ordinary statement (Kysely insert, update or delete, from any process, including the
 *    portal and the CLI): the triggers of migration 0003 move the version. Nothing to do, but do
 *    not suspend them.
 * 2. Many rows at once (the import, the demo data): only through `runWriteSession`. It suspends
 *    the per-row work for speed (on SQLite the `fts_bulk_load` marker silences the per-row
 *    triggers; into an empty database it also drops the triggers and the name-search indexes),
 *    and its successful close rebuilds what it suspended and bumps the version once, before the
 *    commit. The bulk writer (db/bulk-writer.ts) takes a session's ticket and refuses any other.
 *
 * test/write-protocol.test.ts fails when a module outside this one suspends the triggers, writes
 * the version, or reaches the bulk writer, and when a bulk write outside a session is accepted.
 */
import { availableParallelism } from 'node:os';
import { sql, type Insertable, type Transaction } from 'kysely';
import { bumpDataVersion, logEverythingChanged } from './data-version.repository.ts';
import type { BulkTicket, BulkWriter } from './bulk-writer.ts';
import type { DialectSeam } from './dialect-seam.ts';
import type { CompaniesTable, Database, ReportsTable, ReportStatusChangesTable } from './schema.ts';
import type { Db } from './types.ts';

/** Tables whose rows make up a search answer (D8–D13); migration 0003 puts the version triggers on these. */
export const SEARCH_SOURCE_TABLES = ['companies', 'reports'] as const;

/**
 * Many-row writes inside one transaction. Everything written through it (and through `trx`)
 * commits together with one bump of the data version, or not at all.
 */
export interface WriteSession {
  /** The session's transaction, for the ordinary statements between bulk inserts. */
  readonly trx: Transaction<Database>;
  /** The session began on an empty database: every row there is one it wrote. */
  readonly freshLoad: boolean;
  insertCompanies(rows: ReadonlyArray<Insertable<CompaniesTable>>): Promise<Array<{ id: number; taxIdNorm: string; country: string }>>;
  insertReports(rows: ReadonlyArray<Insertable<ReportsTable>>): Promise<Array<{ id: number; status: string }>>;
  insertStatusChanges(rows: ReadonlyArray<Insertable<ReportStatusChangesTable>>): Promise<void>;
}

/** What a session needs of an engine. */
export interface WriteEngine {
  readonly db: Db;
  readonly seam: DialectSeam;
  readonly bulk: BulkWriter;
}

/**
 * The companies' name-search indexes: rows arrive in random name order, so keeping them up to
 * date costs a random b-tree insert per row, and the import itself never reads them. Of the
 * reports' indexes, the four the import never reads (by status, by reporting member, and the
 * retention job's two; built once at the end, sorted, instead of a b-tree insert per report); the one by company grows in
 * id order and counts a repeated company's reports, the unique ones check the rows.
 */
const DEFERRED_INDEX_TABLES = ['companies'];
const DEFERRED_REPORT_INDEXES = new Set(['reports_status_created', 'reports_reported_by', 'reports_retention_due', 'reports_expired_at']);

/**
 * PostgreSQL's memory for one index build, for the builds at a fresh load's end (the default is
 * 64 MB; a GIN build keeps its posting lists in it before it writes them). Taken only while an
 * index is built; SET LOCAL ends with the transaction. At 2×10^5 names the trigram index took
 * 10.3 s against 11.0 (docs/benchmarks.md).
 */
const INDEX_BUILD_MEMORY = '512MB';

/**
 * PostgreSQL checks a new row's foreign keys one row at a time (a trigger per row looks the
 * referenced row up): at 2×10^5 companies most of the COPY of 600,000 reports and of their
 * status changes. A fresh load drops these foreign keys and adds them again at its end,
 * where one join checks every row (a violation fails the import, which then rolls back whole).
 */
const FOREIGN_KEYS_CHECKED_AT_END = ['reports', 'report_status_changes'];
/**
 * Only the keys to the rows the load itself writes (a report's company, a status change's
 * report): dropping a key also locks the table it refers to until the commit, and members and
 * users must stay writable while a large load runs (sign-ins, the portal).
 */
const referencedBy = (table: string) => (table === 'reports' ? 'companies' : 'reports');

async function suspendForeignKeys(trx: Db, tables: readonly string[]): Promise<() => Promise<void>> {
  const { rows } = await sql<{ tbl: string; name: string; definition: string }>`SELECT conrelid::regclass::text AS tbl, conname AS name,
      pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE contype = 'f' AND conrelid::regclass::text IN (${sql.join(tables)}) AND confrelid::regclass::text IN (${sql.join(tables.map(referencedBy))})
    ORDER BY conname`.execute(trx);
  for (const fk of rows) await sql`ALTER TABLE ${sql.table(fk.tbl)} DROP CONSTRAINT ${sql.ref(fk.name)}`.execute(trx);
  return async () => {
    for (const fk of rows) await sql`ALTER TABLE ${sql.table(fk.tbl)} ADD CONSTRAINT ${sql.ref(fk.name)} ${sql.raw(fk.definition)}`.execute(trx);
  };
}

/** Whether the session starts on an empty database (only then is a deferred build cheaper). */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const row = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/**
 * Into an empty database: drops the secondary indexes and the per-row triggers (even a trigger
 * whose WHEN skips it costs ~6 µs a row: 5 s of a 2×10^5-company import) and returns the step
 * that creates them again, exactly as they were, and rebuilds the name index. Inside the
 * transaction, so a failed load leaves the schema as it was and readers never see it without.
 */
async function suspendForFreshLoad(
  seam: DialectSeam,
  trx: Db,
): Promise<(words: readonly string[] | null, builtNameIndexes: () => Promise<readonly string[]>) => Promise<void>> {
  const reportIndexes = await seam.secondaryIndexes(trx, ['reports']);
  const indexes = [...(await seam.secondaryIndexes(trx, DEFERRED_INDEX_TABLES)), ...reportIndexes.filter((i) => DEFERRED_REPORT_INDEXES.has(i.name))];
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.name)}`.execute(trx);
  const triggers = await seam.perRowTriggers(trx, SEARCH_SOURCE_TABLES);
  for (const trigger of triggers) {
    // PostgreSQL names a trigger within its table; SQLite knows no ON.
    const on = seam.kind === 'postgres' ? sql` ON ${sql.table(trigger.table)}` : sql``;
    await sql`DROP TRIGGER ${sql.ref(trigger.name)}${on}`.execute(trx);
  }
  const restoreForeignKeys = seam.kind === 'postgres' ? await suspendForeignKeys(trx, FOREIGN_KEYS_CHECKED_AT_END) : null;
  return async (words, builtNameIndexes) => {
    if (seam.kind === 'postgres') await sql`SET LOCAL maintenance_work_mem = ${sql.lit(INDEX_BUILD_MEMORY)}`.execute(trx);
    const restoreSorter = seam.kind === 'sqlite' ? await sqliteParallelSort(trx) : null;
    try {
      for (const index of indexes) await sql.raw(index.sql).execute(trx);
    } finally {
      await restoreSorter?.();
    }
    for (const trigger of triggers) await sql.raw(trigger.sql).execute(trx);
    // Those a thread builds meanwhile are put in place (db/fresh-name-indexes.ts).
    await seam.rebuildNameIndex(trx, words, builtNameIndexes);
    await restoreForeignKeys?.();
  };
}

/**
 * SQLite sorts an index's keys on the connection's thread unless `PRAGMA threads` lets it sort
 * parts of them on helper threads, which only happens when the keys outgrow the sort's memory
 * (set by the page cache's size). At a fresh load's end the writing thread is alone (the lines
 * are all checked): two of the reports' indexes at 10^6 took 2.6–3.4 s instead of 3.7–4.3 with
 * helper threads and an 8 MB cache, against the load's 32 MB (docs/benchmarks.md). Both are set
 * back afterwards: the name indexes' builds that follow want the larger cache.
 */
async function sqliteParallelSort(trx: Db): Promise<() => Promise<void>> {
  const threads = await sql<{ threads: number }>`PRAGMA threads`.execute(trx);
  const cache = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(trx);
  await sql`PRAGMA threads = ${sql.lit(SORT_HELPER_THREADS)}`.execute(trx);
  await sql`PRAGMA cache_size = ${sql.lit(-SORT_CACHE_KB)}`.execute(trx);
  return async () => {
    await sql`PRAGMA threads = ${sql.lit(Number(threads.rows[0]?.threads ?? 0))}`.execute(trx);
    await sql`PRAGMA cache_size = ${sql.lit(Number(cache.rows[0]?.cache_size ?? -2000))}`.execute(trx);
  };
}
/** Helper threads for an index's sort: the machine's other cores, at most 4. */
const SORT_HELPER_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));
/** The page cache while indexes are sorted, KB: the sort's pieces are this size, one a thread. */
const SORT_CACHE_KB = 8192;

/**
 * SQLite checks a new row's foreign keys as it goes in (a look-up of the report's company and
 * member, of the status change's report: 9–16 % of the bare writes' CPU at 10^5 companies,
 * docs/benchmarks.md). A fresh load turns the checks off for its transaction and runs
 * `PRAGMA foreign_key_check` once before its commit instead: a violation fails the load, which
 * rolls back whole. The pragma is a no-op inside a transaction, so it is set on the connection
 * before the transaction begins, while the session holds that one connection (nothing else in
 * the process runs a statement in between), and set back after it ends, whatever the outcome.
 */
async function sqliteForeignKeysOff(connection: Db): Promise<(() => Promise<void>) | null> {
  const { rows } = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(connection);
  if (Number(rows[0]?.foreign_keys) !== 1) return null;
  await sql`PRAGMA foreign_keys = OFF`.execute(connection);
  return async () => {
    await sql`PRAGMA foreign_keys = ON`.execute(connection);
  };
}

/**
 * A fresh SQLite load without the WAL. In WAL mode every page of the load is written twice (to
 * the WAL, then by the checkpoint into the database), and the WAL grows to the size of the data
 * (~2 GB at 10^6 companies, ~16 GB more disk at 10^7). With a rollback journal SQLite journals a
 * page only when it changes a page the file had when the transaction began (the schema's and the
 * members' pages: a few hundred KB); every page past the file's original end is written once and
 * a rollback (a failure, or the next open after a crash) truncates the file back to its old end.
 * The load stays all or nothing.
 *
 * Leaving WAL mode needs the only connection to the file (SQLite refuses at once with
 * SQLITE_BUSY while another one holds it, a running `serve` among them): then the load keeps the
 * WAL, as before, and says so. While it runs, no other process can open the file (every open
 * asks for WAL mode and is refused; a reader would wait for the load's exclusive lock anyway).
 *
 * `synchronous = EXTRA` for the load: the journal (and its directory entry) is synced before any
 * page it guards is overwritten, its header again after (NORMAL syncs once, which SQLite's
 * documentation allows to corrupt on a power loss on older file systems), and the journal's
 * deletion, the commit itself, is synced too (with FULL a power loss right after the commit
 * could find the journal again and roll the load back). It costs nothing measurable: only the
 * pages of the original file are journalled, so the journal is synced a handful of times. A
 * load that returned is on disk (WAL with NORMAL may lose its last commits on a power loss). A
 * power loss or a kill -9 during the load leaves the file longer and the journal hot: the next
 * open rolls it back (every open of the file does, before it switches to WAL;
 * test/import-fresh-load.test.ts kills an import mid-load).
 *
 * Switched back to WAL with the connection's own synchronous after the transaction ends, whatever
 * the outcome; should that fail (another process opened the file since), the next open of the
 * file switches it.
 */
async function sqliteRollbackJournal(connection: Db, onNotice: (message: string) => void): Promise<(() => Promise<void>) | null> {
  const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(connection);
  if (mode.rows[0]?.journal_mode !== 'wal') return null;
  const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(connection);
  const synchronous = Number(rows[0]?.synchronous);
  try {
    const changed = await sql<{ journal_mode: string }>`PRAGMA journal_mode = DELETE`.execute(connection);
    if (changed.rows[0]?.journal_mode !== 'delete') throw Object.assign(new Error('journal mode unchanged'), { code: 'SQLITE_BUSY' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    onNotice(
      'another connection has the database file open (a running `serve`?): this load into an empty database keeps the WAL, ' +
        'which is slower and needs free disk about the size of the data until the end',
    );
    return null;
  }
  await sql`PRAGMA synchronous = EXTRA`.execute(connection);
  return async () => {
    await sql`PRAGMA synchronous = ${sql.lit(synchronous)}`.execute(connection);
    try {
      await sql`PRAGMA journal_mode = WAL`.execute(connection);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      onNotice('the database file is in rollback journal mode: another process opened it during the load; its next open switches it back to WAL');
    }
  };
}

/** A fresh SQLite load's settings of the connection, made before its transaction begins; returns what sets them back. */
async function sqliteFreshLoadSettings(
  connection: Db,
  onNotice: (message: string) => void,
): Promise<{ restore: () => Promise<void>; checkForeignKeys: boolean } | null> {
  if (!(await isEmptyDatabase(connection))) return null;
  const restoreJournal = await sqliteRollbackJournal(connection, onNotice);
  let restoreForeignKeys: (() => Promise<void>) | null = null;
  try {
    restoreForeignKeys = await sqliteForeignKeysOff(connection);
  } catch (error) {
    await restoreJournal?.();
    throw error;
  }
  return {
    checkForeignKeys: restoreForeignKeys !== null,
    restore: async () => {
      try {
        await restoreForeignKeys?.();
      } finally {
        await restoreJournal?.();
      }
    },
  };
}

/** Every row of every table whose foreign key points nowhere (SQLite); throws on the first table that has one. */
async function checkSqliteForeignKeys(trx: Db): Promise<void> {
  const { rows } = await sql<{ table: string; parent: string }>`PRAGMA foreign_key_check`.execute(trx);
  if (rows.length > 0) throw new Error(`the load wrote ${rows.length} row(s) whose foreign key points nowhere (first: ${rows[0]!.table} → ${rows[0]!.parent})`);
}

export interface WriteSessionOptions {
  /** Told what the operator should know about how the session writes (a fresh SQLite load that keeps the WAL). */
  onNotice?: (message: string) => void;
}

/**
 * Runs `work` in one transaction as a write session (see the rule above). When `work` throws,
 * the transaction rolls back and the error passes through; nothing was written.
 */
export async function runWriteSession<T>(engine: WriteEngine, work: (session: WriteSession) => Promise<T>, options: WriteSessionOptions = {}): Promise<T> {
  engine.bulk.prepareForImport();
  if (engine.seam.kind !== 'sqlite') return inTransaction(engine, engine.db, work, false);
  return engine.db.connection().execute(async (connection) => {
    const freshLoad = await sqliteFreshLoadSettings(connection, options.onNotice ?? (() => {}));
    try {
      return await inTransaction(engine, connection, work, freshLoad?.checkForeignKeys ?? false);
    } finally {
      await freshLoad?.restore();
    }
  });
}

async function inTransaction<T>(engine: WriteEngine, db: Db, work: (session: WriteSession) => Promise<T>, checkForeignKeys: boolean): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const finishFreshLoad = (await isEmptyDatabase(trx)) ? await suspendForFreshLoad(engine.seam, trx) : null;
    await engine.seam.markBulkLoad(trx, true);
    const ticket: BulkTicket = { trx, freshLoad: finishFreshLoad !== null, open: true };
    const session: WriteSession = {
      trx,
      freshLoad: ticket.freshLoad,
      insertCompanies: (rows) => engine.bulk.insertCompanies(ticket, rows),
      insertReports: (rows) => engine.bulk.insertReports(ticket, rows),
      insertStatusChanges: (rows) => engine.bulk.insertStatusChanges(ticket, rows),
    };
    try {
      let result: T;
      try {
        result = await work(session);
        await engine.bulk.settle(ticket);
      } catch (error) {
        // Nothing may still be writing when the transaction ends; and a statement after a failed
        // COPY only says that the transaction was aborted: the COPY's own error is the one to give.
        await engine.bulk.settle(ticket);
        throw error;
      }
      engine.bulk.rowsWritten(ticket);
      await finishFreshLoad?.(engine.bulk.freshLoadWords(ticket), () => engine.bulk.installFreshNameIndexes(ticket));
      if (checkForeignKeys) await checkSqliteForeignKeys(trx);
      await engine.seam.markBulkLoad(trx, false);
      // The per-row triggers were quiet: one bump for the whole session, before the commit.
      await bumpDataVersion(trx);
      // The change log's triggers were quiet too: every process reads the companies again.
      await logEverythingChanged(trx);
      return result;
    } finally {
      ticket.open = false;
      engine.bulk.endSession(ticket);
    }
  });
}
