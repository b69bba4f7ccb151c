/**
 * SQLite for a server that shares its file with other processes (D18 across processes). SQLite's
 * own busy handler sleeps inside the call, and better-sqlite3 runs on the event loop: while one
 * process waited for another's write lock, it answered nothing, parsed nothing, and Node's request
 * timer then answered 408 to clients that had sent their requests at once. Here the busy timeout
 * is 0 and a statement that finds the database locked is retried after a short asynchronous
 * pause, so the wait costs the waiting request only. A statement refused with SQLITE_BUSY has
 * done nothing (BEGIN IMMEDIATE takes the lock first, and a refused COMMIT may be repeated), so a
 * retry is safe. After `maxWaitMs` the error stands (503, db/unavailable.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

async function retryWhileBusy<T>(run: () => Promise<T>, maxWaitMs: number): Promise<T> {
  const started = Date.now();
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 16)) {
    try {
      return await run();
    } catch (error) {
      if (!isBusy(error) || Date.now() - started >= maxWaitMs) throw error;
      await sleep(pauseMs);
    }
  }
}

class YieldingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly maxWaitMs: number,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return retryWhileBusy(() => this.inner.executeQuery<R>(query), this.maxWaitMs);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Kysely's SQLite driver with its one connection wrapped; transactions run through the wrapper too. */
class YieldingDriver implements Driver {
  private connection: YieldingConnection | null = null;

  constructor(
    private readonly inner: Driver,
    private readonly maxWaitMs: number,
  ) {}

  init = () => this.inner.init();
  destroy = () => this.inner.destroy();

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    this.connection ??= new YieldingConnection(inner, this.maxWaitMs);
    return this.connection;
  }

  beginTransaction = (connection: DatabaseConnection, settings: TransactionSettings) => this.inner.beginTransaction(connection, settings);
  commitTransaction = (connection: DatabaseConnection) => this.inner.commitTransaction(connection);
  rollbackTransaction = (connection: DatabaseConnection) => this.inner.rollbackTransaction(connection);
  releaseConnection = (connection: DatabaseConnection) => this.inner.releaseConnection(connection);
}

export class YieldingSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly maxWaitMs: number,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new YieldingDriver(super.createDriver(), this.maxWaitMs);
  }
}
