/**
 * SQLite, a fresh load (db/write-session.ts): the two name indexes made of every company —
 * `company_name_fts` (the trigrams of `name_key`, migration 0001) and `company_word_fts` (the
 * words of `name_core`, migration 0012) — built by a thread of their own while the load's writing
 * thread inserts the rows, instead of by FTS5's `rebuild` at the load's end, where the writing
 * thread works alone and was the longest single step (issue 28: at 10^6 names the two rebuilds
 * and their merge ~11 s of a 65 s import; docs/benchmarks.md).
 *
 * How:
 * - The thread (fresh-name-indexes.worker.ts) keeps a database file of its own beside the load's
 *   (`<file>.fresh-names-<pid>`, deleted when the load ends; one a crashed process left is
 *   deleted by the next open of the database), with a table of each company's id, `name_key` and
 *   `name_core`, and each index with the same tokenizer and options as the load's (read from its
 *   schema) but that table for content: the same tables as `rebuild` makes from `companies`.
 * - The bulk writer sends it each chunk of companies as they go in (their ids are consecutive,
 *   bulk-writer.ts); it only stores them while the rows are written (the cores are busy then),
 *   and builds once told the rows are all in, while the load builds its other indexes.
 * - At the load's end (`install`, inside the load's transaction): each index is dropped and
 *   created again from its own statement, which gives FTS5 a new table object (none of the old
 *   one's cached structure survives), and its three tables (`_data`, `_idx`, `_docsize`) are
 *   filled with the thread's rows. FTS5 refuses writes to those tables in SQLite's defensive mode
 *   (better-sqlite3's default), so it is lifted for the copy only.
 *
 * When the thread's index could differ from what `rebuild` would make, it is not used and the load
 * rebuilds as before: a company renamed, deleted or given another id during the load (temporary
 * triggers note it), a company inserted other than through the bulk writer (the counts differ),
 * or anything failed before the load's own indexes were dropped (the thread, its file).
 * SQLite refuses ATTACH inside a transaction, so the rows are copied through this connection's
 * statements rather than by one INSERT … SELECT (at 10^6 ~2 s of pages and ~3.5 s of sizes).
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../lib/worker-thread.ts';

/** The indexes the thread builds: of `name_key` and of `name_core`, the columns it is sent. */
export const SIDE_BUILT_INDEXES = ['company_name_fts', 'company_word_fts'] as const;

export interface SideIndexDefinition {
  readonly table: string;
  /** The index's statement in the load's schema (external content: `companies`). */
  readonly mainSql: string;
  /** The same index in the thread's file, whose content is SIDE_CONTENT_TABLE. */
  readonly sideSql: string;
}

/** The thread's table of the companies' ids and name columns, the content of its indexes. */
export const SIDE_CONTENT_TABLE = 'names';

/** FTS5's shadow tables that hold an external-content index (its `_config` stays the load's own). */
const INDEX_TABLES = ['data', 'idx', 'docsize'] as const;

const EXTERNAL_CONTENT = "content='companies', content_rowid='id'";

/** Rows a statement in the copy. */
const ROWS_A_STATEMENT = 64;
/** Of a `_docsize` table, rows a statement (one JSON text). */
const SIZES_A_STATEMENT = 10_000;

export interface FreshNameIndexes {
  /** Companies just inserted, whose ids run from `firstId`. */
  add(rows: ReadonlyArray<{ name_key: string; name_core: string }>, firstId: number): void;
  /** No more rows: the thread builds, merges and commits (while the load's end builds its other indexes). */
  finish(): void;
  /** Puts the thread's indexes in place of the load's (empty) ones; returns their names, or [] when the load must rebuild them. */
  install(): Promise<string[]>;
  /** Stops the thread and deletes its file (the load's end, whatever its outcome). */
  discard(): void;
}

/** The indexes' statements as the schema has them, and their twins in the thread's file; null when a statement is not as expected. */
function definitionsOf(database: SQLite.Database): SideIndexDefinition[] | null {
  const definitions: SideIndexDefinition[] = [];
  for (const table of SIDE_BUILT_INDEXES) {
    const row = database.prepare('SELECT sql FROM main.sqlite_master WHERE type = ? AND name = ?').get('table', table) as { sql: string } | undefined;
    if (!row?.sql.includes(EXTERNAL_CONTENT)) return null;
    definitions.push({ table, mainSql: row.sql, sideSql: row.sql.replace(EXTERNAL_CONTENT, `content='${SIDE_CONTENT_TABLE}', content_rowid='id'`) });
  }
  return definitions;
}

function removeFile(path: string): void {
  for (const file of [path, `${path}-journal`]) rmSync(file, { force: true });
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes the scratch files beside the database at `path` of fresh loads whose process no longer
 * runs (killed mid-load: ~250 MB at 10^6). Each open of the database calls it (db/connect.ts); a
 * file wrongly taken for a dead process's only makes that load rebuild its indexes itself.
 */
export function removeLeftScratchFiles(path: string): void {
  const prefix = `${basename(path)}.fresh-names-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(/^(\d+)(-journal)?$/.exec(name.slice(prefix.length))?.[1]) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !processIsAlive(pid)) rmSync(join(dirname(path), name), { force: true });
  }
}

/**
 * Starts the thread for a fresh load on `database` (inside the load's transaction); null when the
 * database is not a file or its indexes are not the ones this knows.
 */
export function startFreshNameIndexes(database: SQLite.Database, buildSettings: Readonly<Record<string, number>>): FreshNameIndexes | null {
  if (database.memory || database.name === '') return null;
  const indexes = definitionsOf(database);
  if (!indexes) return null;
  const path = `${database.name}.fresh-names-${process.pid}`;
  let worker: Worker | null = null;
  try {
    removeFile(path);
    worker = startWorkerThread(import.meta.url, 'fresh-name-indexes.worker', { workerData: { path, indexes, buildSettings } });
    // Temporary: this connection only, and gone with the transaction if it rolls back.
    database.exec(NOTE_CHANGES);
  } catch {
    // No thread: the load rebuilds its indexes itself, as a small one does.
    void worker?.terminate();
    dropNotes(database);
    return null;
  }
  return sideBuilder(database, indexes, path, worker);
}

/** What a fresh load does to its companies besides inserting them, noted: any of it and the thread's indexes are not used. */
const NOTE_CHANGES = `CREATE TEMP TABLE IF NOT EXISTS fresh_load_changed (id INTEGER);
  CREATE TEMP TRIGGER IF NOT EXISTS fresh_load_rename_noted AFTER UPDATE OF id, name_key, name_core ON main.companies
    WHEN OLD.id IS NOT NEW.id OR OLD.name_key IS NOT NEW.name_key OR OLD.name_core IS NOT NEW.name_core
    BEGIN INSERT INTO fresh_load_changed (id) VALUES (OLD.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS fresh_load_delete_noted AFTER DELETE ON main.companies
    BEGIN INSERT INTO fresh_load_changed (id) VALUES (OLD.id); END;`;

function dropNotes(database: SQLite.Database): void {
  database.exec(
    'DROP TRIGGER IF EXISTS temp.fresh_load_rename_noted; DROP TRIGGER IF EXISTS temp.fresh_load_delete_noted; DROP TABLE IF EXISTS temp.fresh_load_changed;',
  );
}

function sideBuilder(database: SQLite.Database, indexes: readonly SideIndexDefinition[], path: string, worker: Worker): FreshNameIndexes {
  let failure: unknown = null;
  let posted = 0;
  let finished = false;
  let discarded = false;
  const built = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { built?: true; error?: unknown }) => {
      if (message.built) return resolve();
      failure = message.error;
      reject(message.error instanceof Error ? message.error : new Error(String(message.error)));
    });
    worker.on('error', (error) => {
      failure = error;
      reject(error);
    });
    worker.on('exit', () => {
      const error = new Error('the name index thread ended before its indexes were built');
      failure ??= error;
      reject(error);
    });
  });
  built.catch(() => {}); // read by install(); a load that fails first never asks

  /**
   * A `_docsize` table (a row of each company: its id and a varint or two), in chunks that cross
   * as one JSON text each and are read and written by SQLite's own JSON functions: at 10^6 rows
   * 0.45–0.7 × the time of binding each row's two values (docs/benchmarks.md).
   */
  function copySizes(side: SQLite.Database, table: string): void {
    database.prepare(`DELETE FROM main.${table}`).run();
    const read = side.prepare(
      `SELECT max(id) AS last, json_group_array(json_array(id, hex(sz))) AS rows FROM (SELECT id, sz FROM ${table} WHERE id > ? ORDER BY id LIMIT ${SIZES_A_STATEMENT})`,
    );
    const write = database.prepare(`INSERT INTO main.${table} (id, sz) SELECT value ->> 0, unhex(value ->> 1) FROM json_each(?)`);
    for (let after = -1; ;) {
      const chunk = read.get(after) as { last: number | null; rows: string };
      if (chunk.last === null) return;
      write.run(chunk.rows);
      after = chunk.last;
    }
  }

  function copyRows(side: SQLite.Database, table: string): void {
    const columns = (database.prepare(`PRAGMA main.table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
    if (table.endsWith('_docsize') && columns.join() === 'id,sz') return copySizes(side, table);
    const statements = new Map<number, SQLite.Statement>();
    const insert = (rows: number) => {
      let statement = statements.get(rows);
      if (!statement) {
        const row = `(${columns.map(() => '?').join(', ')})`;
        statements.set(
          rows,
          (statement = database.prepare(`INSERT INTO main.${table} (${columns.join(', ')}) VALUES ${Array<string>(rows).fill(row).join(', ')}`)),
        );
      }
      return statement;
    };
    database.prepare(`DELETE FROM main.${table}`).run();
    let values: unknown[] = [];
    for (const row of side
      .prepare(`SELECT ${columns.join(', ')} FROM ${table}`)
      .raw()
      .iterate() as IterableIterator<unknown[]>) {
      for (const value of row) values.push(value);
      if (values.length === ROWS_A_STATEMENT * columns.length) {
        insert(ROWS_A_STATEMENT).run(values);
        values = [];
      }
    }
    if (values.length > 0) insert(values.length / columns.length).run(values);
  }

  return {
    add(rows, firstId) {
      if (failure !== null || finished || rows.length === 0) return;
      const wire = new Array<string | number>(1 + 2 * rows.length);
      wire[0] = firstId;
      for (let r = 0; r < rows.length; r++) {
        wire[1 + r] = rows[r]!.name_key;
        wire[1 + rows.length + r] = rows[r]!.name_core;
      }
      worker.postMessage({ rows: wire });
      posted += rows.length;
    },
    finish() {
      if (finished) return;
      finished = true;
      worker.postMessage({ finish: true });
    },
    async install() {
      this.finish();
      let side: SQLite.Database;
      try {
        await built;
        side = new SQLite(path, { readonly: true, fileMustExist: true });
      } catch {
        // The thread or its file failed: nothing of the load's is touched yet, it rebuilds.
        dropNotes(database);
        return [];
      }
      const changed = database.prepare('SELECT 1 FROM temp.fresh_load_changed LIMIT 1').get() !== undefined;
      dropNotes(database);
      const companies = Number((database.prepare('SELECT count(*) AS n FROM main.companies').get() as { n: number }).n);
      if (changed || companies !== posted) {
        side.close();
        return [];
      }
      try {
        for (const index of indexes) {
          database.exec(`DROP TABLE main.${index.table}`);
          database.exec(index.mainSql);
          database.unsafeMode(true);
          try {
            for (const suffix of INDEX_TABLES) copyRows(side, `${index.table}_${suffix}`);
          } finally {
            database.unsafeMode(false);
          }
        }
      } finally {
        side.close();
      }
      return indexes.map((i) => i.table);
    },
    discard() {
      if (discarded) return;
      discarded = true;
      void worker.terminate();
      try {
        removeFile(path);
      } catch {
        // Left for the next open of the database to delete (removeLeftScratchFiles): the load's outcome stands.
      }
    },
  };
}
