/**
 * Many-row inserts for the import, behind the dialect seam. PostgreSQL takes one INSERT of
 * column arrays per chunk. On SQLite, one prepared statement per table, run once per row on the same
 * connection, is several times faster than compiling a large INSERT for every chunk; it runs
 * inside the caller's Kysely transaction because better-sqlite3 has one connection.
 */
import type Sqlite from 'better-sqlite3';
import { sql, type Insertable } from 'kysely';
import type { CompaniesTable, ReportsTable, ReportStatusChangesTable } from './schema.ts';
import type { Db } from './types.ts';
import { sqliteAddNameWords } from './dialect-seam.ts';

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
}

/** Refuses a write whose session is closed (or that never had one): the data version would not move. */
function checkOpen(ticket: BulkTicket): Db {
  if (ticket?.open !== true) throw new Error('bulk write outside an open write session (db/write-session.ts): the data version would not move');
  return ticket.trx;
}

/** Rows per statement, under every engine's bound-parameter limit. */
const CHUNK = 1000;

async function inChunks<T, R>(rows: readonly T[], write: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(...(await write(rows.slice(i, i + CHUNK))));
  return out;
}

/**
 * PostgreSQL: one `INSERT … SELECT * FROM unnest($1::text[], …)` per chunk, one array per
 * column. PostgreSQL parses and plans one small statement instead of a VALUES list of up to
 * 15 000 parameters (10^5 companies: see docs/benchmarks.md). RETURNING order is not promised,
 * so results are matched by value (tax ID and country; a report's id with its own status).
 */
function unnestInsert<T>(table: string, columns: ReadonlyArray<readonly [keyof T & string, string]>, rows: readonly T[], returning: string) {
  const arrays = columns.map(([name, type]) => sql`${rows.map((row) => row[name] ?? null)}::${sql.raw(type)}[]`);
  return sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map(([name]) => sql.ref(name)))})
    SELECT * FROM unnest(${sql.join(arrays)}) ${sql.raw(returning ? `RETURNING ${returning}` : '')}`;
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
] as const;
const PG_CHANGE_COLUMNS = [
  ['report_id', 'bigint'],
  ['from_status', 'text'],
  ['to_status', 'text'],
  ['changed_at', 'bigint'],
  ['changed_by', 'text'],
] as const;

export const postgresBulkWriter: BulkWriter = {
  prepareForImport: () => {},
  insertCompanies: async (ticket, rows) => {
    const db = checkOpen(ticket);
    return inChunks(rows, async (chunk) => {
      const { rows: out } = await unnestInsert<Insertable<CompaniesTable>>('companies', PG_COMPANY_COLUMNS, chunk, 'id, tax_id_norm, country').execute(db);
      return (out as Array<{ id: number; tax_id_norm: string; country: string }>).map((r) => ({
        id: Number(r.id),
        taxIdNorm: r.tax_id_norm,
        country: r.country,
      }));
    });
  },
  insertReports: async (ticket, rows) => {
    const db = checkOpen(ticket);
    return inChunks(rows, async (chunk) => {
      const { rows: out } = await unnestInsert<Insertable<ReportsTable>>('reports', PG_REPORT_COLUMNS, chunk, 'id, status').execute(db);
      return (out as Array<{ id: number; status: string }>).map((r) => ({ id: Number(r.id), status: r.status }));
    });
  },
  insertStatusChanges: async (ticket, rows) => {
    const db = checkOpen(ticket);
    await inChunks(rows, async (chunk) => {
      await unnestInsert<Insertable<ReportStatusChangesTable>>('report_status_changes', PG_CHANGE_COLUMNS, chunk, '').execute(db);
      return [];
    });
  },
};

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
] as const;
const CHANGE_COLUMNS = ['report_id', 'from_status', 'to_status', 'changed_at', 'changed_by'] as const;

function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

export function sqliteBulkWriter(database: Sqlite.Database): BulkWriter {
  type Statements = Record<'company' | 'report' | 'change' | 'index' | 'wordIndex' | 'words', Sqlite.Statement>;
  let statements: Statements | null = null;
  // Prepared on first use: the tables exist only after the migrations.
  const prepared = () =>
    (statements ??= {
      company: database.prepare(insertSql('companies', COMPANY_COLUMNS)),
      report: database.prepare(insertSql('reports', REPORT_COLUMNS)),
      change: database.prepare(insertSql('report_status_changes', CHANGE_COLUMNS)),
      index: database.prepare('INSERT INTO company_name_fts (rowid, name_key) SELECT id, name_key FROM companies WHERE id BETWEEN ? AND ?'),
      wordIndex: database.prepare('INSERT INTO company_word_fts (rowid, name_core) SELECT id, name_core FROM companies WHERE id BETWEEN ? AND ?'),
      words: database.prepare(sqliteAddNameWords('c.id BETWEEN ? AND ?')),
    });
  const values = <T>(row: T, columns: readonly (keyof T)[]) => columns.map((c) => row[c] ?? null);
  // Inside a session the bulk-load marker is set: no per-row trigger runs (write-session.ts).
  return {
    // SQLite's default page cache is 2 MB: a large import's transaction spills to the WAL
    // again and again. 64 MB took a 2×10^5-company import from 18.6 s to 14.5 s; 32 MB is as
    // fast at 10^6 (56.7 s against 56.2 s) and keeps the peak at 434 MB instead of 479 MB.
    prepareForImport: () => database.pragma('cache_size = -32768'),
    // eslint-disable-next-line @typescript-eslint/require-await -- BulkWriter is async (PostgreSQL's awaits); a throw must reject
    insertCompanies: async (ticket, rows) => {
      checkOpen(ticket);
      if (rows.length === 0) return [];
      const s = prepared();
      const inserted = rows.map((row) => ({
        id: Number(s.company.run(values(row, COMPANY_COLUMNS)).lastInsertRowid),
        taxIdNorm: row.tax_id_norm,
        country: row.country,
      }));
      // A fresh load rebuilds the name index and words once at the end; otherwise they are
      // filled once for the whole chunk (the insert triggers are quiet while the marker is set).
      if (ticket.freshLoad) return inserted;
      const first = inserted[0]!.id;
      const last = inserted[inserted.length - 1]!.id;
      // One writer inside one transaction: the ids of a chunk are consecutive.
      if (last - first + 1 !== inserted.length) throw new Error(`company ids ${first}..${last} are not consecutive`);
      s.index.run(first, last);
      s.wordIndex.run(first, last);
      s.words.run(first, last);
      return inserted;
    },
    // eslint-disable-next-line @typescript-eslint/require-await -- BulkWriter is async (PostgreSQL's awaits); a throw must reject
    insertReports: async (ticket, rows) => {
      checkOpen(ticket);
      const { report } = prepared();
      return rows.map((row) => ({ id: Number(report.run(values(row, REPORT_COLUMNS)).lastInsertRowid), status: row.status }));
    },
    // eslint-disable-next-line @typescript-eslint/require-await -- BulkWriter is async (PostgreSQL's awaits); a throw must reject
    insertStatusChanges: async (ticket, rows) => {
      checkOpen(ticket);
      const { change } = prepared();
      for (const row of rows) change.run(values(row, CHANGE_COLUMNS));
    },
  };
}
