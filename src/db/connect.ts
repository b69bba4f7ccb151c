/**
 * Opens the database named by a URL (D23): `sqlite:PATH` (or a bare path) for the embedded
 * engine, `postgres://...` for PostgreSQL.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteStatement } from 'kysely';
import pg from 'pg';
import { postgresBulkWriter, sqliteBulkWriter, WHICH_CLIENT, type BulkWriter } from './bulk-writer.ts';
import { seamFor, type DialectSeam } from './dialect-seam.ts';
import { YieldingSqliteDialect } from './sqlite-yield-when-busy.ts';
import { SERVING_CHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer.ts';
import { removeLeftScratchFiles } from './fresh-name-indexes.ts';
import type { Database } from './schema.ts';
import { KEEP_PREPARED } from './prepared.ts';
import { planModeTracker, type PlanMode } from './plan-cache-mode.ts';
import { ownsConnection, poolerOf, type Pooler } from './pooler.ts';
import { createHash } from 'node:crypto';
import type { Db } from './types.ts';

export { DEFAULT_DATABASE_URL } from './database-url.ts';

export interface Engine {
  readonly db: Db;
  /**
   * The server's background work (src/serve/background-work.ts: deliveries' claims and outcomes,
   * the runner's lease, the daily jobs): on PostgreSQL a pool of its own when `backgroundPoolSize`
   * was given, so that its statements never take a connection a request waits for, nor wait for
   * one behind the requests (issue 30); otherwise, and on SQLite (one connection), `db` itself.
   */
  readonly backgroundDb: Db;
  readonly seam: DialectSeam;
  /** Many-row inserts for the import (fast path per engine). */
  readonly bulk: BulkWriter;
  /** Where the data lives, without credentials; for messages. */
  readonly description: string;
  /** PostgreSQL: what stands between the process and the database (db/pooler.ts); `none` on SQLite. */
  readonly pooler: Pooler;
  /**
   * Opens every pooled connection now (a server, before it listens): opening one takes a fork on
   * the database server, too slow to do in the middle of a burst (PostgreSQL; nothing on SQLite).
   */
  openPool(): Promise<void>;
  close(): Promise<void>;
  /** D36's metrics: requests waiting for a pooled connection (PostgreSQL; absent on SQLite). */
  poolStats?(): { waiting: number; total: number; idle: number };
  /** SQLite with `backgroundCheckpoints`: the checkpoints' thread's count of checkpoints that copied pages. */
  checkpoints?(): Promise<number>;
}

export interface EngineOptions {
  /** SQLite: a fresh load's companies from which a thread builds its name indexes (db/bulk-writer.ts; tests lower it). */
  freshNameIndexesFrom?: number;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** PostgreSQL: connections of a pool of their own for `backgroundDb` (absent or 0: none, `backgroundDb` is `db`). */
  backgroundPoolSize?: number;
  /**
   * PostgreSQL: what stands between this process and the database (db/pooler.ts); when
   * absent, RISKLOOKUP_DB_POOLER (every command and thread reads the same), else `none`.
   */
  pooler?: Pooler;
  /** PostgreSQL statement timeout, milliseconds; none when absent (operator commands). */
  statementTimeoutMs?: number;
  /** Longest wait for a PostgreSQL pool connection, or for SQLite's write lock, milliseconds. */
  connectionWaitMs?: number;
  /**
   * A server: never block the event loop waiting for SQLite's lock (db/sqlite-yield-when-busy.ts).
   * Operator commands wait inside SQLite, up to 10 s.
   */
  yieldWhenBusy?: boolean;
  /**
   * A server on SQLite: checkpoints in a thread of their own, not in the serving thread's commits
   * (db/sqlite-checkpointer.ts).
   */
  backgroundCheckpoints?: boolean;
  /** Told when the checkpoints' thread fails (the serving connection's own threshold then takes over). */
  onCheckpointerError?: (error: Error) => void;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function sqlitePathOf(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/i, '');
}

// count(*) and bigint columns come back from pg as strings; every such value here is far
// below 2^53 (epoch milliseconds, counters), so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running a small query. The
 * service runs a few dozen distinct statements, so keep them prepared (SQLite re-prepares a
 * cached statement by itself after a schema change).
 */
function withStatementCache(database: SQLite.Database) {
  const cache = new Map<string, SqliteStatement>();
  const schemaVersion = database.prepare('PRAGMA schema_version').pluck();
  // Inside a transaction the version may yet be rolled back, and another process's change may
  // then reach the same number: it is not trusted there (nor when it cannot be read).
  const readSchemaVersion = (): number | null => {
    if (database.inTransaction) return null;
    try {
      return schemaVersion.get() as number;
    } catch {
      return null;
    }
  };
  return {
    close: () => database.close(),
    prepare(sql: string) {
      // Kysely opens transactions with a plain (deferred) BEGIN: a transaction that reads and
      // then writes fails at once with SQLITE_BUSY when another process (a server's quota and
      // audit writes) committed in between, whatever the busy timeout. IMMEDIATE takes the
      // write lock first, waiting for it up to the busy timeout.
      if (/^begin$/i.test(sql)) sql = 'begin immediate';
      let stmt = cache.get(sql);
      if (!stmt) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        stmt = rowsAsObjectLiterals(database.prepare(sql), shapeCanChange(sql) ? readSchemaVersion : NO_SCHEMA_VERSION);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

type RowBuilder = (raw: unknown[]) => unknown;

/**
 * Whether a statement's result columns can change with the schema: only a `*` (or `t.*`) names
 * columns the statement does not list (a `*` inside a comment does not). Every other result
 * column is named by its alias or its own text, in the order written, whatever the schema.
 * Statements without a `*` (the search's kept-prepared ones name their columns) skip the
 * schema version's reads around each run: a tax-ID search made eight of them.
 */
const shapeCanChange = (sql: string) => sql.replace(/\/\*.*?\*\//gs, '').includes('*');
/** For statements whose columns are fixed: a constant version, so the builder made for their first rows stays. */
const NO_SCHEMA_VERSION = () => 0;

/**
 * A function that makes a row object from a raw row (an array in column order) with one object
 * literal, so that every row of a shape shares one hidden class; a name that repeats keeps its
 * last value in its first place, as both drivers' own objects do. The names are written as JSON
 * string literals, which are JavaScript string literals. `__proto__` is written as a computed
 * key, so it is an own property holding the value, as in `pg`'s rows (a plain one would set the
 * prototype).
 */
function objectLiteralOf(names: readonly string[]): RowBuilder {
  const keys = names.map((name) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a row builder made from column names, never from values
  return new Function('r', `return {${keys.map((key, i) => `${key}: r[${i}]`).join(', ')}};`) as RowBuilder;
}

/**
 * better-sqlite3's own row objects for a result with a column named `__proto__`: Node 20's build
 * assigns each property in column order, so such a column sets the prototype (when its value is
 * an object); newer builds make the objects whole, with `__proto__` as a property of their own.
 * Which one the installed driver does is asked once. Every other shape gets its object literal.
 */
function sqliteRowBuilder(names: readonly string[]): RowBuilder {
  if (!names.includes('__proto__') || driverKeepsProtoAsProperty()) return objectLiteralOf(names);
  return (raw) => {
    const row: Record<string, unknown> = {};
    // Reflect.set returns false where the driver's assignment is silently refused (a `length`
    // column when a Buffer became the prototype); a strict-mode assignment would throw.
    for (let i = 0; i < names.length; i++) Reflect.set(row, names[i]!, raw[i]);
    return row;
  };
}

let protoKeptAsProperty: boolean | undefined;
function driverKeepsProtoAsProperty(): boolean {
  if (protoKeptAsProperty === undefined) {
    const probe = new SQLite(':memory:');
    try {
      protoKeptAsProperty = Object.hasOwn(probe.prepare(`SELECT x'01' AS "__proto__"`).get() as object, '__proto__');
    } finally {
      probe.close();
    }
  }
  return protoKeptAsProperty;
}

/**
 * A reading statement that returns the same row objects, built in JavaScript from better-sqlite3's
 * raw rows (arrays): its own objects are made property by property through V8's API, at about
 * twice the cost. The 208 report rows of a common name's answer at 10^6: 0.68 → 0.40 ms.
 * Writing statements are left as they are.
 *
 * SQLite prepares a statement again by itself when the schema changed (another process migrated
 * the file), and a `SELECT *` then has other columns; a statement prepared on a connection that
 * has not yet seen the change gets its new columns only when it runs. So the columns are read
 * after a run: the first with rows, and whenever the schema's version (read before and after the
 * run, 3.5 µs each) changed, was not the same on both sides of the run, or was not to be trusted,
 * or the rows' width changed. An iterator reads the version inside its own read, after its first row.
 */
function rowsAsObjectLiterals(stmt: SQLite.Statement, readSchemaVersion: () => number | null): SqliteStatement {
  if (!stmt.reader) return stmt;
  let builtFor: { version: number | null; width: number } = { version: null, width: -1 };
  let toRow: RowBuilder = () => undefined;
  const builderFor = (version: number | null, width: number) => {
    if (version === null || version !== builtFor.version || width !== builtFor.width) {
      const names = stmt.columns().map((c) => c.name);
      builtFor = { version, width: names.length };
      toRow = sqliteRowBuilder(names);
    }
    return toRow;
  };
  const raw = stmt.raw(true);
  return {
    reader: true,
    all(parameters) {
      const before = readSchemaVersion();
      const rows = raw.all(parameters) as unknown[][];
      if (rows.length === 0) return rows;
      const after = before === null ? null : readSchemaVersion();
      const build = builderFor(before === after ? after : null, rows[0]!.length);
      const objects: unknown[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) objects[i] = build(rows[i]!);
      return objects;
    },
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      let build: RowBuilder | null = null;
      for (const row of raw.iterate(parameters) as IterableIterator<unknown[]>) yield (build ??= builderFor(readSchemaVersion(), row.length))(row);
    },
  };
}

function openSqlite(url: string, options: EngineOptions): Engine {
  const path = sqlitePathOf(url);
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    removeLeftScratchFiles(path);
  }
  const database = new SQLite(path);
  try {
    database.pragma('journal_mode = WAL');
  } catch (error) {
    database.close();
    // An import into an empty database holds the file alone while it runs (db/write-session.ts).
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new Error(`${path} is locked by another process (an import into an empty database holds it until it ends): try again when it has finished`);
    }
    throw error;
  }
  database.pragma(`busy_timeout = ${options.yieldWhenBusy ? 0 : 10000}`);
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  const checkpointer =
    options.backgroundCheckpoints && path !== ':memory:'
      ? (database.pragma(`wal_autocheckpoint = ${SERVING_CHECKPOINT_PAGES}`), startCheckpointer(path, options.onCheckpointerError ?? (() => {})))
      : null;
  const config = { database: withStatementCache(database) };
  const dialect = options.yieldWhenBusy ? new YieldingSqliteDialect(config, options.connectionWaitMs ?? 5000) : new SqliteDialect(config);
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    backgroundDb: db,
    seam: seamFor('sqlite'),
    bulk: sqliteBulkWriter(database, options.freshNameIndexesFrom === undefined ? {} : { freshNameIndexesFrom: options.freshNameIndexesFrom }),
    description: `SQLite ${path}`,
    pooler: 'none',
    openPool: async () => {},
    close: async () => {
      await db.destroy();
      await checkpointer?.stop();
    },
    ...(checkpointer ? { checkpoints: () => checkpointer.checkpoints() } : {}),
  };
}

function openPostgres(url: string, options: EngineOptions): Engine {
  const statementTimeout = options.statementTimeoutMs;
  const poolSize = options.poolSize ?? 10;
  const backgroundPoolSize = options.backgroundPoolSize ?? 0;
  const pooler = options.pooler ?? poolerFromEnvironment();
  // The import's COPY runs on the write session's own connection (db/bulk-writer.ts): the client
  // that sent a statement marked with a token, by the token.
  const clientsByToken = new Map<string, pg.PoolClient>();
  const makePool = (size: number) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: size,
      // For the server (not for operators' long imports): the server cancels a slow statement,
      // and the client gives up too when the server is unreachable and cannot cancel anything.
      // Neither lets a request hang.
      // A pooler refuses the timeout as a startup parameter (db/pooler.ts).
      ...(statementTimeout ? { ...(pooler === 'none' ? { statement_timeout: statementTimeout } : {}), query_timeout: statementTimeout + 1000 } : {}),
      // Bounded and shorter than what clients wait for (D26): admission keeps the requests in work
      // near the pool size, so a wait for a connection is short or a sign of a stuck database.
      connectionTimeoutMillis: options.connectionWaitMs ?? 5000,
      // Opened connections are kept (openPool): none is closed for being idle.
      min: size,
      keepAlive: true,
      // Behind a session pooler the timeout is set on each new connection, before the pool
      // gives it out; a connection where it fails is closed and the caller told. pg-pool awaits
      // the hook's promise (pg-pool/index.js, `_promiseTry`), which @types/pg types as void.
      ...(pooler === 'session' && statementTimeout
        ? // eslint-disable-next-line @typescript-eslint/no-misused-promises
          { onConnect: async (client: pg.ClientBase) => void (await client.query(`SET statement_timeout = ${statementTimeout}`)) }
        : {}),
    });
    // A client that loses its server emits 'error'; with no listener that is an uncaught
    // exception that ends the process. The query in flight fails on its own (→ 503) and the pool
    // drops the broken client, so the event itself needs no handling beyond being heard.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      keepPrepared(client, pooler, clientsByToken);
    });
    return pool;
  };
  const pool = makePool(poolSize);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const backgroundPool = backgroundPoolSize > 0 ? makePool(backgroundPoolSize) : null;
  const backgroundDb = backgroundPool ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: backgroundPool }) }) : db;
  const open = async (p: pg.Pool, size: number) => {
    const clients = await Promise.all(Array.from({ length: size }, () => p.connect()));
    for (const client of clients) client.release();
  };
  const safe = new URL(url);
  safe.password = '';
  return {
    db,
    backgroundDb,
    seam: seamFor('postgres'),
    bulk: postgresBulkWriter((token) => {
      const client = clientsByToken.get(token);
      clientsByToken.delete(token);
      return client;
    }),
    description: `PostgreSQL ${safe.host}${safe.pathname}`,
    pooler,
    openPool: async () => {
      await open(pool, poolSize);
      if (backgroundPool) await open(backgroundPool, backgroundPoolSize);
    },
    close: async () => {
      await Promise.all([db.destroy(), backgroundDb === db ? null : backgroundDb.destroy()]);
      // Kysely ends a pool only once a query went through it; openPool may have opened one that no
      // query used (`serve --background no` leaves the background pool idle), and its connections
      // would keep the process alive.
      for (const p of [pool, backgroundPool]) if (p && !p.ended) await p.end();
    },
    poolStats: () => ({ waiting: pool.waitingCount, total: pool.totalCount, idle: pool.idleCount }),
  };
}

/**
 * The statements compiled once (db/prepared.ts, marked KEEP_PREPARED) become named statements
 * on each connection: parsed and planned once per connection instead of on every run (their
 * generic plan: db/plan-cache-mode.ts). Their
 * SQL is fixed and names its columns, so a later migration that adds columns does not change
 * what they return. Name searches with LIKE patterns stay unnamed: a plan made for one pattern
 * may not suit the next. Their rows are read as arrays and made into objects here (rowBuilderOf).
 */
function keepPrepared(client: pg.PoolClient, pooler: Pooler, clientsByToken: Map<string, pg.PoolClient>) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // Kept statements run with their generic plan, unnamed ones with values are planned for their
  // values (db/plan-cache-mode.ts): the SET, when the connection needs one, is queued before.
  // Behind a transaction pooler the connection is not ours to set: nothing is.
  const planMode = ownsConnection(pooler) ? planModeTracker() : null;
  const setPlanMode = (wanted: PlanMode | null, text: string) => {
    const set = planMode?.before(wanted, text) ?? null;
    if (set !== null) (query(set) as Promise<unknown>).catch(() => planMode!.failed());
  };
  // A statement that fails may abort its transaction, whose end undoes a SET made in it: a
  // ROLLBACK, or a COMMIT that PostgreSQL answers as one (whatever failed in the transaction,
  // a COPY included). The tracker hears of either before the caller does.
  const heard = <T>(sent: T, text: string): T => {
    if (!planMode || !(sent instanceof Promise)) return sent;
    const ending = /^\s*(commit|end)\b/i.test(text);
    return sent.then(
      (result: unknown) => {
        if (ending && (result as { command?: string } | undefined)?.command === 'ROLLBACK') planMode.failed();
        return result;
      },
      (error: unknown) => {
        planMode.failed();
        throw error;
      },
    ) as T;
  };
  const withFailureHeard = (callback: unknown) =>
    planMode && typeof callback === 'function'
      ? (error: unknown, result: unknown) => {
          if (error || (result as { command?: string } | undefined)?.command === 'ROLLBACK') planMode.failed();
          (callback as (e: unknown, r: unknown) => void)(error, result);
        }
      : callback;
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string') return query(text, ...rest);
    const [values, callback] = rest;
    if (!text.startsWith(KEEP_PREPARED)) {
      if (text.startsWith(WHICH_CLIENT)) clientsByToken.set(text.slice(WHICH_CLIENT.length).split(' ', 1)[0]!, client);
      setPlanMode(Array.isArray(values) && values.length > 0 ? 'auto' : null, text);
      if (typeof values === 'function') return query(text, withFailureHeard(values));
      return callback === undefined ? heard(query(text, ...rest), text) : query(text, values, withFailureHeard(callback));
    }
    setPlanMode('generic', text);
    const name = statementName(text);
    if (callback !== undefined) return query({ name, text, values }, withFailureHeard(callback));
    return heard(query({ name, text, values, rowMode: 'array' }) as Promise<pg.QueryResult<unknown[]>>, text).then((result) => {
      const toRow = rowBuilderOf(name, result.fields);
      const rows = result.rows as unknown[];
      for (let i = 0; i < rows.length; i++) rows[i] = toRow(rows[i] as unknown[]);
      return result;
    });
  };
}

/** RISKLOOKUP_DB_POOLER, for engines opened without a `pooler` (the commands, the sending thread). */
function poolerFromEnvironment(): Pooler {
  const read = poolerOf(process.env.RISKLOOKUP_DB_POOLER);
  if ('problem' in read) throw new Error(read.problem);
  return read.pooler;
}

/**
 * The row objects of a kept statement, built from `pg`'s arrays by one object literal per
 * statement and columns: `pg`'s own objects are copied from a template and filled field by
 * field. The 208 report rows of a common name's answer at 10^6: the server's CPU 0.92 → 0.80 ms
 * for the arrays alone (docs/benchmarks.md, 2026-11-25, third session).
 */
const rowBuilders = new Map<string, { names: string[]; toRow: RowBuilder }>();
function rowBuilderOf(name: string, fields: readonly pg.FieldDef[]): RowBuilder {
  let builder = rowBuilders.get(name);
  // A kept statement names its columns, so they stay the same; checked all the same.
  if (!builder || builder.names.length !== fields.length || fields.some((f, i) => f.name !== builder!.names[i])) {
    const names = fields.map((f) => f.name);
    rowBuilders.set(name, (builder = { names, toRow: objectLiteralOf(names) }));
  }
  return builder.toRow;
}

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `rlk_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

export function openEngine(url: string, options: EngineOptions = {}): Engine {
  return isPostgresUrl(url) ? openPostgres(url, options) : openSqlite(url, options);
}
