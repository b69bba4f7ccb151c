/**
 * A serving process's SQLite reads that take the most CPU, off the thread that serves requests.
 *
 * SQLite works inside the calling thread, so every statement's CPU is the serving thread's, and a
 * two-core machine's other core sat mostly idle while fresh name searches queued behind each
 * other (issue 28: at 10^6 companies, near matches' candidate statements were about half a fresh
 * name's CPU). Here a thread of its own, with a connection of its own to the same file (WAL: a
 * reader waits for no writer), runs the statements it is sent, one at a time, and the serving
 * thread goes on with other requests meanwhile. `db` is a Kysely instance like the engine's, for
 * reading statements only: no transactions, nothing that writes (the connection is `query_only`).
 *
 * What a statement sees: what was committed when it began, as on a pooled PostgreSQL connection
 * (each statement its own snapshot). Callers that combine such reads with the serving
 * connection's check what they show (near-match-lookups.ts, CandidateChanged).
 *
 * If the thread stops (it fails, or the server stops it), the statements waiting for it and every
 * later one run on `fallback`, the serving connection: slower, never lost.
 */
import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema.ts';
import type { Db } from './types.ts';
import { sqliteRowBuilder, type RowBuilder } from './sqlite-row-builder.ts';

export interface ReaderData {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

export interface ReaderQuestion {
  readonly id: number;
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** The rows as column names and their values row after row; or the statement's error. */
export type ReaderAnswer =
  | { readonly id: number; readonly names: string[]; readonly values: unknown[] }
  | { readonly id: number; readonly error: { readonly message: string; readonly code?: string } };

export interface SqliteReader {
  /** Reading statements only. */
  readonly db: Db;
  /** Statements the thread has answered so far (tests). */
  answered(): number;
  /** Whether the thread still runs statements (false once it failed or stopped: `fallback` runs them). */
  running(): boolean;
  /** The thread ends; statements from now on run on `fallback`. */
  stop(): Promise<void>;
  /** The thread ends at once, as a crash would end it (tests): what waits for it runs on `fallback`. */
  terminate(): Promise<void>;
}

function startThread(workerData: ReaderData): Worker {
  // Built: dist/bundle/*.js (an entry of its own). Under tsx the thread registers tsx first.
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./sqlite-reader.worker.js', import.meta.url), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./sqlite-reader.worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(source)}))`;
  return new Worker(boot, { eval: true, workerData });
}

interface Waiting {
  readonly query: CompiledQuery;
  readonly resolve: (result: QueryResult<unknown>) => void;
  readonly reject: (error: Error) => void;
}

/** A Buffer read by the thread arrives as a Uint8Array: made a Buffer again, as better-sqlite3 gives blobs. */
function asDriverValue(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
}

/**
 * Starts the thread for the database file at `path` (in WAL mode). `fallback` runs the
 * statements when the thread cannot; `onError` hears why it stopped.
 */
export function startSqliteReader(path: string, fallback: Db, onError: (error: Error) => void, busyTimeoutMs = 5000): SqliteReader {
  const thread = startThread({ path, busyTimeoutMs });
  const waiting = new Map<number, Waiting>();
  let nextId = 0;
  let answered = 0;
  let running = true;
  const builders = new Map<string, RowBuilder>();

  const onFallback = (w: Waiting) => void fallback.executeQuery(w.query).then(w.resolve, w.reject);
  const stopped = (error: Error | null) => {
    if (!running) return;
    running = false;
    if (error) onError(error);
    for (const w of waiting.values()) onFallback(w);
    waiting.clear();
  };
  thread.on('message', (answer: ReaderAnswer) => {
    const w = waiting.get(answer.id);
    if (!w) return;
    waiting.delete(answer.id);
    // Nothing waits: the thread need not keep the process alive.
    if (waiting.size === 0) thread.unref();
    answered++;
    if ('error' in answer) {
      w.reject(Object.assign(new Error(answer.error.message), answer.error.code === undefined ? {} : { code: answer.error.code }));
      return;
    }
    const { names, values } = answer;
    const width = names.length;
    const rows: unknown[] = [];
    if (width > 0) {
      const key = names.join('\u0000');
      let build = builders.get(key);
      if (!build) builders.set(key, (build = sqliteRowBuilder(names)));
      const raw: unknown[] = new Array(width);
      for (let k = 0; k < values.length; k += width) {
        for (let i = 0; i < width; i++) raw[i] = asDriverValue(values[k + i]);
        rows.push(build(raw));
      }
    }
    w.resolve({ rows });
  });
  thread.on('error', (error) => stopped(error));
  const ended = new Promise<void>((resolve) =>
    thread.once('exit', (code) => {
      stopped(new Error(`SQLite's reading thread ended (exit code ${code}): the serving connection reads from now on`));
      resolve();
    }),
  );

  // Unreferenced after its listeners are on (a 'message' listener references the thread's port
  // again): an idle thread never keeps the process alive.
  thread.unref();

  const connection: DatabaseConnection = {
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      if (!running) return fallback.executeQuery<R>(query);
      return new Promise<QueryResult<R>>((resolve, reject) => {
        const id = nextId++;
        // While a statement waits for its answer the thread keeps the process alive.
        if (waiting.size === 0) thread.ref();
        waiting.set(id, { query, resolve: resolve as Waiting['resolve'], reject });
        thread.postMessage({ id, sql: query.sql, parameters: query.parameters } satisfies ReaderQuestion);
      });
    },
    streamQuery() {
      throw new Error("SQLite's reading thread does not stream rows: read them whole");
    },
  };
  const noTransactions = () => Promise.reject(new Error("SQLite's reading thread runs single reading statements, no transactions"));
  const stop = async () => {
    if (!running) return;
    running = false;
    // After the statements sent before it, which the thread still answers.
    thread.postMessage('stop');
    const timer = setTimeout(() => void thread.terminate(), 5000);
    await ended;
    clearTimeout(timer);
  };
  const driver: Driver = {
    init: () => Promise.resolve(),
    // One connection for every caller at once: the thread answers them in turn.
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: () => Promise.resolve(),
    destroy: stop,
  };
  const dialect: Dialect = {
    createDriver: () => driver,
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    answered: () => answered,
    running: () => running,
    // Not db.destroy(): Kysely destroys only a driver it has used.
    stop,
    terminate: async () => {
      await thread.terminate();
      await ended;
    },
  };
}
