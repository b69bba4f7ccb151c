/**
 * Many-row inserts for the import, behind the dialect seam. PostgreSQL takes one INSERT of
 * column arrays per chunk. On SQLite, one prepared statement per table, run once per row on the same
 * connection, is several times faster than compiling a large INSERT for every chunk; it runs
 * inside the caller's Kysely transaction because better-sqlite3 has one connection.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Sqlite from 'better-sqlite3';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { sql, type Insertable } from 'kysely';
import type { CompaniesTable, ReportsTable, ReportStatusChangesTable } from './schema.ts';
import type { Db } from './types.ts';
import { FTS5_BUILD_SETTINGS, sqliteAddNameWords, sqliteAddNearMatchKeys, sqliteAddNearMatchWords } from './dialect-seam.ts';
import { startFreshNameIndexes, type FreshNameIndexes } from './fresh-name-indexes.ts';
import { powerOfTwoRuns } from './prepared.ts';

/**
 * A write session's pass (db/write-session.ts). The bulk writer's inserts skip the per-row
 * data-version triggers, so they are only safe inside a session, whose close bumps the version:
 * every insert checks that its ticket is open and throws otherwise.
 */
export interface BulkTicket {
  readonly trx: Db;
  /** Into an empty database: the name index is rebuilt once at the session's end, not per chunk. */
  readonly freshLoad: boolean;
  open: boolean;
}

/** Many-row inserts; reached only through a write session (db/write-session.ts). */
export interface BulkWriter {
  /** Called once at the start of a session, before its transaction. */
  prepareForImport(): void;
  insertCompanies(ticket: BulkTicket, rows: ReadonlyArray<Insertable<CompaniesTable>>): Promise<Array<{ id: number; taxIdNorm: string; country: string }>>;
  insertReports(ticket: BulkTicket, rows: ReadonlyArray<Insertable<ReportsTable>>): Promise<Array<{ id: number; status: string }>>;
  insertStatusChanges(ticket: BulkTicket, rows: ReadonlyArray<Insertable<ReportStatusChangesTable>>): Promise<void>;
  /**
   * Waits for every write of the session still under way (PostgreSQL's COPYs go out behind the
   * caller's back: see postgresBulkWriter) and throws the first one's error, if any failed. The
   * session calls it before its end and, when its work failed, prefers the error it gives: a
   * statement after a failed COPY only says that the transaction was aborted.
   */
  settle(ticket: BulkTicket): Promise<void>;
  /**
   * A fresh load's name words, sorted: every word of the `name_core` of the companies it
   * inserted; null when this writer does not keep them (rebuildNameIndex then reads the names).
   */
  freshLoadWords(ticket: BulkTicket): string[] | null;
  /**
   * SQLite: puts in place the name indexes a fresh load's thread built while its rows went in
   * (db/fresh-name-indexes.ts) and returns their names; rebuildNameIndex builds the others. [] when
   * there are none (PostgreSQL, a small load, or one whose thread's indexes could differ).
   */
  installFreshNameIndexes(ticket: BulkTicket): Promise<string[]>;
  /** The session's rows are all written, and settled: work that waited for them may begin (SQLite: the fresh load's name indexes' thread). */
  rowsWritten(ticket: BulkTicket): void;
  /** The session has ended, whatever its outcome: what the writer started for it stops. */
  endSession(ticket: BulkTicket): void;
}

/** Refuses a write whose session is closed (or that never had one): the data version would not move. */
function checkOpen(ticket: BulkTicket): Db {
  if (ticket?.open !== true) throw new Error('bulk write outside an open write session (db/write-session.ts): the data version would not move');
  return ticket.trx;
}

const PG_COMPANY_COLUMNS = [
  ['company_name', 'text'],
  ['tax_id', 'text'],
  ['tax_id_norm', 'text'],
  ['country', 'text'],
  ['city', 'text'],
  ['name_key', 'text'],
  ['name_core', 'text'],
  ['visible_report_count', 'integer'],
  ['updated_at', 'bigint'],
] as const;
const PG_REPORT_COLUMNS = [
  ['company_id', 'bigint'],
  ['ref', 'text'],
  ['type', 'text'],
  ['status', 'text'],
  ['filed_at', 'bigint'],
  ['description', 'text'],
  ['amount_minor', 'bigint'],
  ['currency', 'text'],
  ['court_decision_date', 'text'],
  ['concordat_start', 'text'],
  ['concordat_end', 'text'],
  ['case_json', 'text'],
  ['reported_by', 'bigint'],
  ['created_at', 'bigint'],
  ['updated_at', 'bigint'],
  ['retention_anchor', 'text'],
  ['expired_at', 'bigint'],
] as const;
const PG_CHANGE_COLUMNS = [
  ['report_id', 'bigint'],
  ['from_status', 'text'],
  ['to_status', 'text'],
  ['changed_at', 'bigint'],
  ['changed_by', 'text'],
  ['reason', 'text'],
] as const;

/**
 * A COPY's text is sent in pieces of about this many bytes (a few hundred rows), each a Buffer
 * written row by row: a row's line is made as a string, then encoded into the piece in place
 * (`utf8Write`). Concatenating a piece's fields into one string and encoding it at the end cost
 * 2.4 × the CPU (the string is a rope of thousands of parts, flattened to two bytes a character
 * by any Turkish letter before it is encoded: issue 28, docs/benchmarks.md).
 */
export const COPY_PIECE_BYTES = 64 * 1024;

/**
 * Node's own UTF-8 encoder into a Buffer (what `buffer.write` calls after checking its
 * arguments; half the CPU of `write` for a row's line, measured). Not in @types/node.
 */
type Utf8Writable = Buffer & { utf8Write(text: string, offset: number): number };

/**
 * One field of COPY's text format: `\N` for null, and the backslash, tab, newline and carriage
 * return escaped (the only characters the format gives a meaning to).
 */
function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text;
}

/**
 * COPY's text of `rows`, in Buffers of about `pieceBytes` (a piece ends at a line's end; a line
 * longer than a piece goes out alone), made one piece at a time as the consumer pulls them.
 */
export function* copyTextPieces<T>(
  rows: readonly T[],
  columns: readonly string[],
  field: (row: T, column: string, index: number) => string | number | null | undefined,
  pieceBytes = COPY_PIECE_BYTES,
): Generator<Buffer> {
  let piece = Buffer.allocUnsafe(2 * pieceBytes);
  let used = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let line = copyField(field(row, columns[0]!, i));
    for (let c = 1; c < columns.length; c++) line += '\t' + copyField(field(row, columns[c]!, i));
    line += '\n';
    // A UTF-16 unit takes at most three bytes in UTF-8 (a surrogate pair four for its two).
    if (used + 3 * line.length > piece.length) {
      if (used > 0) yield piece.subarray(0, used);
      // Each piece is a new buffer: the one given away may still be queued on the socket.
      piece = Buffer.allocUnsafe(Math.max(2 * pieceBytes, 3 * line.length));
      used = 0;
    }
    used += (piece as Utf8Writable).utf8Write(line, used);
    if (used >= pieceBytes) {
      yield piece.subarray(0, used);
      piece = Buffer.allocUnsafe(2 * pieceBytes);
      used = 0;
    }
  }
  if (used > 0) yield piece.subarray(0, used);
}

/**
 * A fresh load's name words, kept as the names go in (395,954 distinct words at 10^6 names):
 * splitting every name again in SQL at the end took 8 % of SQLite's import CPU, and on
 * PostgreSQL a scan of every name and a sort for DISTINCT (20.5 s of a loaded 10^6 import).
 */
class FreshLoadWords {
  private readonly words = new WeakMap<BulkTicket, Set<string>>();

  add(ticket: BulkTicket, rows: ReadonlyArray<{ name_core: string }>): void {
    let seen = this.words.get(ticket);
    if (!seen) this.words.set(ticket, (seen = new Set()));
    // Keys hold only letters, digits and single spaces (as the SQL of migration 0007 splits them).
    for (const row of rows) for (const word of row.name_core.split(' ')) if (word !== '') seen.add(word);
  }

  sorted(ticket: BulkTicket): string[] {
    return [...(this.words.get(ticket) ?? [])].sort();
  }
}

/**
 * The pg client behind a transaction, found by a statement it is asked to run: connect.ts notes
 * which client sends a statement that starts with WHICH_CLIENT and a token, and gives it for the
 * token (once). Not by the server's process id: behind a pooler the client knows the pooler's.
 */
export const WHICH_CLIENT = '/* risklookup client ';
export type ClientOfToken = (token: string) => pg.PoolClient | undefined;

/**
 * Ids from a table's sequence for one session, taken a block ahead once the loads are large: the
 * next block is asked for while the rows before it still go in, so a batch need not wait for the
 * COPYs queued before it to learn its ids (a statement runs after every statement sent before it
 * on the connection). The ids stay in the order taken; a large load leaves at most one block
 * unused, a gap in the sequence like a rolled-back insert's.
 */
class IdBlocks {
  private ids: number[] = [];
  private next = 0;
  private coming: Promise<number[]> | null = null;

  constructor(
    private readonly fetch: (count: number) => Promise<number[]>,
    /** Told of each fetch made ahead, which nobody awaits until the next take. */
    private readonly onFetch: (fetch: Promise<number[]>) => void,
  ) {}

  async take(count: number): Promise<number[]> {
    while (this.ids.length - this.next < count) {
      const coming = this.coming ?? this.fetch(count - (this.ids.length - this.next));
      this.coming = null;
      this.ids = [...this.ids.slice(this.next), ...(await coming)];
      this.next = 0;
    }
    const taken = this.ids.slice(this.next, this.next + count);
    this.next += count;
    if (count >= PREFETCH_FROM_ROWS && this.coming === null && this.ids.length - this.next < PREFETCH_AHEAD * count) {
      this.coming = this.fetch(Math.max(count, Math.min(ID_BLOCK_LOADS * count, ID_BLOCK_MAX)));
      // Awaited by the next take; the session also waits for it (settle) and gives its failure.
      this.onFetch(this.coming);
    }
    return taken;
  }
}

/** Loads of this many rows at a time or more take their ids a block ahead (IdBlocks). */
const PREFETCH_FROM_ROWS = 500;
/**
 * The next block is asked for when fewer than this many loads' ids are left: its statement runs
 * behind the COPYs already queued, so it needs a few batches' time to come back.
 */
const PREFETCH_AHEAD = 4;
/** A block of ids holds this many loads' worth (at 2,000 companies a batch: 32,000 ids)… */
const ID_BLOCK_LOADS = 16;
/** …and no more ids than this (a batch of many reports a line would reserve millions), unless one load needs more. */
const ID_BLOCK_MAX = 100_000;

/**
 * pg 8.23 warns, once a process, when a statement is sent to a client while another waits there
 * ("deprecated and will be removed in pg@9.0"). The bulk writer does that on purpose: pg 8 runs
 * them in the order sent, which is what keeps a batch's look-ups behind the COPYs before it.
 * package.json keeps pg below 9; pg 9 would need a queue of our own for the session's client.
 * That one notice is dropped; every other warning passes.
 */
export const PG_QUEUE_NOTICE = 'Calling client.query() when the client is already executing a query';
let pgQueueNoticeQuiet = false;
function quietPgQueueNotice(): void {
  if (pgQueueNoticeQuiet) return;
  pgQueueNoticeQuiet = true;
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  const quiet = (warning: unknown, ...rest: unknown[]): void => {
    if (typeof warning === 'string' && warning.startsWith(PG_QUEUE_NOTICE)) return;
    emit(warning, ...rest);
  };
  process.emitWarning = quiet;
}

/** COPYs queued on a session's connection at most (an import batch sends three: three batches). */
const COPIES_UNDER_WAY = 9;

/** A session's COPYs under way, and the first that failed. */
interface CopiesUnderWay {
  running: Set<Promise<void>>;
  failure: { error: unknown } | null;
}

/**
 * PostgreSQL: rows go in by `COPY … FROM STDIN` on the session's own connection, inside its
 * transaction (all or nothing as before), with ids taken from the tables' sequences first (COPY
 * returns nothing; the import needs the companies' ids for their reports). At 10^6 companies the
 * `INSERT … SELECT FROM unnest(…)` of each chunk took most of a 240–270 s import
 * (docs/benchmarks.md); COPY skips the parse, plan and executor of every row.
 *
 * An insert returns once its COPY is queued on the connection, not when PostgreSQL has taken it:
 * the caller makes its next batch while PostgreSQL works through this one (each waited for the
 * other before: issue 28, docs/benchmarks.md "Batches overlapped"). Order is kept by the
 * connection, which runs statements in the order they were sent: a later look-up sees the rows.
 * `settle` waits for them all and gives the first failure.
 */
export function postgresBulkWriter(clientOf: ClientOfToken): BulkWriter {
  const clients = new WeakMap<BulkTicket, pg.PoolClient>();
  async function clientFor(ticket: BulkTicket): Promise<pg.PoolClient> {
    const db = checkOpen(ticket);
    let client = clients.get(ticket);
    if (!client) {
      const token = randomUUID();
      try {
        await sql.raw(`${WHICH_CLIENT}${token} */ SELECT 1`).execute(db);
      } finally {
        // Taken whatever happened: the map keeps no client for a statement that failed.
        client = clientOf(token);
      }
      if (!client) throw new Error("the write session's PostgreSQL connection is not known to the pool");
      clients.set(ticket, client);
    }
    return client;
  }
  // The sequence's name once per table: pg_get_serial_sequence is evaluated for every row of
  // generate_series (a quarter of the ids' time at 2×10^5 companies).
  const sequences = new Map<string, string>();
  async function newIds(db: Db, table: string, count: number): Promise<number[]> {
    let sequence = sequences.get(table);
    if (sequence === undefined) {
      const { rows } = await sql<{ name: string }>`SELECT pg_get_serial_sequence(${table}, 'id') AS name`.execute(db);
      sequence = rows[0]!.name;
      sequences.set(table, sequence);
    }
    const { rows } = await sql<{ id: number }>`SELECT nextval(${sequence}::regclass) AS id FROM generate_series(1, ${count})`.execute(db);
    return rows.map((r) => Number(r.id));
  }
  const idBlocks = new WeakMap<BulkTicket, Map<string, IdBlocks>>();
  function idsFor(ticket: BulkTicket, table: string, count: number): Promise<number[]> {
    const db = checkOpen(ticket);
    let tables = idBlocks.get(ticket);
    if (!tables) idBlocks.set(ticket, (tables = new Map<string, IdBlocks>()));
    let blocks = tables.get(table);
    if (!blocks) {
      blocks = new IdBlocks(
        (n) => newIds(db, table, n),
        (fetch) => track(ticket, fetch),
      );
      tables.set(table, blocks);
    }
    return blocks.take(count);
  }
  const underWay = new WeakMap<BulkTicket, CopiesUnderWay>();
  function copiesOf(ticket: BulkTicket): CopiesUnderWay {
    let copies = underWay.get(ticket);
    if (!copies) underWay.set(ticket, (copies = { running: new Set(), failure: null }));
    return copies;
  }
  /** Counts `work` as under way for the session until it settles, and keeps the first failure. */
  function track(ticket: BulkTicket, work: Promise<unknown>): void {
    const copies = copiesOf(ticket);
    const tracked: Promise<void> = work.then(
      () => {
        copies.running.delete(tracked);
      },
      (error: unknown) => {
        copies.running.delete(tracked);
        copies.failure ??= { error };
      },
    );
    copies.running.add(tracked);
  }
  /** Queues the COPY of `rows` on the session's connection; returns once it is queued. */
  async function copy<T>(
    ticket: BulkTicket,
    table: string,
    columns: readonly string[],
    rows: readonly T[],
    field: (row: T, column: string, index: number) => string | number | null | undefined,
  ): Promise<void> {
    if (rows.length === 0) return;
    const client = await clientFor(ticket);
    const copies = copiesOf(ticket);
    // A few batches' COPYs queued at most: the rows of each are held until PostgreSQL has them.
    while (copies.running.size >= COPIES_UNDER_WAY && !copies.failure) await Promise.race(copies.running);
    // A COPY after a failed one would only be refused (the transaction is aborted): stop here with the first error.
    if (copies.failure) throw copies.failure.error;
    // The text goes out a piece at a time, each made when the connection can take it: PostgreSQL
    // parses one piece while this thread makes the next (issue 28, docs/benchmarks.md "The
    // import's COPY streamed"). Made whole beforehand, or ahead a piece a turn, it left
    // PostgreSQL waiting for this thread as often (docs/benchmarks.md "Batches overlapped").
    quietPgQueueNotice();
    track(
      ticket,
      pipeline(
        Readable.from(copyTextPieces(rows, columns, field), { objectMode: false }),
        client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)),
      ),
    );
  }
  const words = new FreshLoadWords();
  return {
    prepareForImport: () => {},
    freshLoadWords: (ticket) => words.sorted(ticket),
    installFreshNameIndexes: () => Promise.resolve([]),
    rowsWritten: () => {},
    endSession: () => {},
    insertCompanies: async (ticket, rows) => {
      checkOpen(ticket);
      if (rows.length === 0) return [];
      const ids = await idsFor(ticket, 'companies', rows.length);
      if (ticket.freshLoad) words.add(ticket, rows);
      const columns = ['id', ...PG_COMPANY_COLUMNS.map(([name]) => name)];
      await copy(ticket, 'companies', columns, rows, (row, c, i) => (c === 'id' ? ids[i] : (row[c as keyof typeof row] as string | number | null)));
      return rows.map((row, i) => ({ id: ids[i]!, taxIdNorm: row.tax_id_norm, country: row.country }));
    },
    insertReports: async (ticket, rows) => {
      checkOpen(ticket);
      if (rows.length === 0) return [];
      const ids = await idsFor(ticket, 'reports', rows.length);
      const columns = ['id', ...PG_REPORT_COLUMNS.map(([name]) => name)];
      await copy(ticket, 'reports', columns, rows, (row, c, i) => (c === 'id' ? ids[i] : (row[c as keyof typeof row] as string | number | null)));
      return rows.map((row, i) => ({ id: ids[i]!, status: row.status }));
    },
    insertStatusChanges: async (ticket, rows) => {
      await copy(
        ticket,
        'report_status_changes',
        PG_CHANGE_COLUMNS.map(([name]) => name),
        rows,
        (row, c) => row[c as keyof typeof row] as string | number | null,
      );
    },
    settle: async (ticket) => {
      const copies = underWay.get(ticket);
      if (!copies) return;
      while (copies.running.size > 0) await Promise.all(copies.running);
      if (copies.failure) throw copies.failure.error;
    },
  };
}

const COMPANY_COLUMNS = ['company_name', 'tax_id', 'tax_id_norm', 'country', 'city', 'name_key', 'name_core', 'visible_report_count', 'updated_at'] as const;
const REPORT_COLUMNS = [
  'company_id',
  'ref',
  'type',
  'status',
  'filed_at',
  'description',
  'amount_minor',
  'currency',
  'court_decision_date',
  'concordat_start',
  'concordat_end',
  'case_json',
  'reported_by',
  'created_at',
  'updated_at',
  'retention_anchor',
  'expired_at',
] as const;
const CHANGE_COLUMNS = ['report_id', 'from_status', 'to_status', 'changed_at', 'changed_by', 'reason'] as const;

/**
 * Rows a SQLite INSERT takes at most (issue 28): a statement a row paid its call, binding and
 * step for each row — a row of status changes 1.65 µs alone, 0.76 µs as one of 64 (a
 * micro-benchmark of 10^6 rows into that table and its index; docs/benchmarks.md has the import's).
 * A chunk's rows go 64 at a time, the rest in runs of a power of two (`powerOfTwoRuns`): at most
 * seven statements a table. A report's 17 columns make 1,088 parameters a statement: SQLite's
 * limit is 32,766 since 3.32 (better-sqlite3 bundles its own SQLite, newer than that).
 */
const ROWS_A_STATEMENT = 64;

function insertSql(table: string, columns: readonly string[], rows: number): string {
  const row = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array<string>(rows).fill(row).join(', ')}`;
}

/** A chunk's rows as runs of at most ROWS_A_STATEMENT, each of a power-of-two length. */
export function insertRuns<T>(rows: readonly T[]): T[][] {
  const whole = rows.length - (rows.length % ROWS_A_STATEMENT);
  const runs: T[][] = [];
  for (let at = 0; at < whole; at += ROWS_A_STATEMENT) runs.push(rows.slice(at, at + ROWS_A_STATEMENT));
  return runs.concat(powerOfTwoRuns(rows.slice(whole)));
}

/**
 * Inserts the rows, in their order, with a statement per run (`insertRuns`), and returns their ids
 * in the same order. An id is the table's own (INTEGER PRIMARY KEY AUTOINCREMENT): SQLite gives
 * the rows of one statement consecutive ids, the last of them its last insert rowid — checked by
 * the count of rows it says it inserted.
 */
export function insertRows<T>(statementFor: (rows: number) => Sqlite.Statement, columns: readonly (keyof T)[], rows: readonly T[]): number[] {
  const ids = new Array<number>(rows.length);
  let at = 0;
  for (const run of insertRuns(rows)) {
    const values = new Array<unknown>(run.length * columns.length);
    let v = 0;
    for (const row of run) for (const column of columns) values[v++] = row[column] ?? null;
    const { changes, lastInsertRowid } = statementFor(run.length).run(values);
    if (changes !== run.length) throw new Error(`an insert of ${run.length} rows inserted ${changes}`);
    const first = Number(lastInsertRowid) - run.length + 1;
    for (let i = 0; i < run.length; i++) ids[at + i] = first + i;
    at += run.length;
  }
  return ids;
}

/**
 * A fresh SQLite load builds its two name indexes of every company in a thread of its own once it
 * has inserted this many companies (db/fresh-name-indexes.ts). A smaller load's rebuild takes well
 * under a second (~13 µs a name at 10^6), of which a thread's start and the copy would leave little.
 */
export const FRESH_NAME_INDEXES_FROM = 50_000;

/** A fresh load's companies so far, and the thread building its name indexes (null: none will). */
interface FreshLoadState {
  inserted: number;
  side: FreshNameIndexes | null | undefined;
}

/** Hands rows to the thread in runs of consecutive ids (one writer in one transaction: normally one run). */
function addInRuns(side: FreshNameIndexes, rows: ReadonlyArray<{ name_key: string; name_core: string }>, ids: readonly number[]): void {
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    if (i < rows.length && ids[i] === ids[i - 1]! + 1) continue;
    side.add(rows.slice(start, i), ids[start]!);
    start = i;
  }
}

export function sqliteBulkWriter(database: Sqlite.Database, options: { freshNameIndexesFrom?: number } = {}): BulkWriter {
  const sideFrom = options.freshNameIndexesFrom ?? FRESH_NAME_INDEXES_FROM;
  const freshLoads = new WeakMap<BulkTicket, FreshLoadState>();
  /** A fresh load's companies just inserted: to the thread, started once there are enough (with the companies before). */
  const toSideIndexes = (ticket: BulkTicket, rows: ReadonlyArray<{ name_key: string; name_core: string }>, ids: readonly number[]) => {
    let state = freshLoads.get(ticket);
    if (!state) freshLoads.set(ticket, (state = { inserted: 0, side: undefined }));
    state.inserted += rows.length;
    if (state.side === undefined) {
      if (state.inserted < sideFrom) return;
      state.side = startFreshNameIndexes(database, FTS5_BUILD_SETTINGS);
      if (state.side) {
        const earlier = database.prepare('SELECT id, name_key, name_core FROM companies WHERE id < ? ORDER BY id').all(ids[0]) as Array<{
          id: number;
          name_key: string;
          name_core: string;
        }>;
        addInRuns(
          state.side,
          earlier,
          earlier.map((r) => r.id),
        );
      }
    }
    if (state.side) addInRuns(state.side, rows, ids);
  };
  type Statements = Record<'index' | 'wordIndex' | 'nearIndex' | 'nearWords' | 'words', Sqlite.Statement>;
  let statements: Statements | null = null;
  // Prepared on first use: the tables exist only after the migrations.
  const inserts = new Map<string, Sqlite.Statement>();
  const insertInto = (table: string, columns: readonly string[]) => (rows: number) => {
    const key = `${table} ${rows}`;
    let statement = inserts.get(key);
    if (!statement) inserts.set(key, (statement = database.prepare(insertSql(table, columns, rows))));
    return statement;
  };
  const companyInsert = insertInto('companies', COMPANY_COLUMNS);
  const reportInsert = insertInto('reports', REPORT_COLUMNS);
  const changeInsert = insertInto('report_status_changes', CHANGE_COLUMNS);
  const prepared = () =>
    (statements ??= {
      index: database.prepare('INSERT INTO company_name_fts (rowid, name_key) SELECT id, name_key FROM companies WHERE id BETWEEN ? AND ?'),
      wordIndex: database.prepare('INSERT INTO company_word_fts (rowid, name_core) SELECT id, name_core FROM companies WHERE id BETWEEN ? AND ?'),
      nearIndex: database.prepare(sqliteAddNearMatchKeys('c.id BETWEEN ? AND ?')),
      nearWords: database.prepare(sqliteAddNearMatchWords('c.id BETWEEN ? AND ?')),
      words: database.prepare(sqliteAddNameWords('c.id BETWEEN ? AND ?')),
    });
  const words = new FreshLoadWords();
  // Inside a session the bulk-load marker is set: no per-row trigger runs (write-session.ts).
  return {
    // SQLite's default page cache is 2 MB: a large import's transaction spills to the WAL
    // again and again. 64 MB took a 2×10^5-company import from 18.6 s to 14.5 s; 32 MB is as
    // fast at 10^6 (56.7 s against 56.2 s) and keeps the peak at 434 MB instead of 479 MB.
    prepareForImport: () => database.pragma('cache_size = -32768'),
    // Every insert has finished when it returns.
    settle: () => Promise.resolve(),
    rowsWritten: (ticket) => freshLoads.get(ticket)?.side?.finish(),
    freshLoadWords: (ticket) => words.sorted(ticket),
    installFreshNameIndexes: async (ticket) => (await freshLoads.get(ticket)?.side?.install()) ?? [],
    endSession: (ticket) => freshLoads.get(ticket)?.side?.discard(),
    // eslint-disable-next-line @typescript-eslint/require-await -- BulkWriter is async (PostgreSQL's awaits); a throw must reject
    insertCompanies: async (ticket, rows) => {
      checkOpen(ticket);
      if (rows.length === 0) return [];
      const s = prepared();
      const ids = insertRows(companyInsert, COMPANY_COLUMNS, rows);
      const inserted = rows.map((row, i) => ({ id: ids[i]!, taxIdNorm: row.tax_id_norm, country: row.country }));
      // A fresh load rebuilds the name index and words once at the end; otherwise they are
      // filled once for the whole chunk (the insert triggers are quiet while the marker is set).
      if (ticket.freshLoad) {
        words.add(ticket, rows);
        toSideIndexes(ticket, rows, ids);
        return inserted;
      }
      const first = inserted[0]!.id;
      const last = inserted[inserted.length - 1]!.id;
      // One writer inside one transaction: the ids of a chunk are consecutive.
      if (last - first + 1 !== inserted.length) throw new Error(`company ids ${first}..${last} are not consecutive`);
      s.index.run(first, last);
      s.wordIndex.run(first, last);
      s.nearIndex.run(first, last);
      s.nearWords.run(first, last);
      s.words.run(first, last);
      return inserted;
    },
    // eslint-disable-next-line @typescript-eslint/require-await -- BulkWriter is async (PostgreSQL's awaits); a throw must reject
    insertReports: async (ticket, rows) => {
      checkOpen(ticket);
      const ids = insertRows(reportInsert, REPORT_COLUMNS, rows);
      return rows.map((row, i) => ({ id: ids[i]!, status: row.status }));
    },
    // eslint-disable-next-line @typescript-eslint/require-await -- BulkWriter is async (PostgreSQL's awaits); a throw must reject
    insertStatusChanges: async (ticket, rows) => {
      checkOpen(ticket);
      insertRows(changeInsert, CHANGE_COLUMNS, rows);
    },
  };
}
