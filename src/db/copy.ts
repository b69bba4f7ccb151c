/**
 * `risklookup copy`: moves a whole installation between engines (SQLite → PostgreSQL to scale
 * out, or back for a portable backup). Rows keep their ids; the target must be empty; the copy
 * is one transaction and is verified by counting every table on both sides.
 */
import type { Kysely } from 'kysely';
import { DomainError } from '../lib/errors.ts';
import type { Engine } from './connect.ts';
import type { Db } from './types.ts';

/**
 * In dependency order: a row's references are copied before it. `job_state` is not copied: it is
 * the running processes' schedule and claims, which the target's first process makes anew.
 */
export const TABLES_WITH_ID = [
  'members',
  'users',
  'trusted_devices',
  'api_keys',
  'companies',
  'reports',
  'report_status_changes',
  'report_attachments',
  'audit_log',
  'user_tokens',
  'sessions',
  'sign_in_failures',
  'agreement_signatures',
  'operator_log',
  'webhook_endpoints',
  'webhook_deliveries',
] as const;
export const ALL_TABLES = [...TABLES_WITH_ID, 'usage_counters', 'company_lookups'] as const;
type TableName = (typeof ALL_TABLES)[number];

const BATCH = 500;

async function countRows(db: Db, table: TableName): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAllTables(db: Db): Promise<Record<TableName, number>> {
  const out = {} as Record<TableName, number>;
  for (const table of ALL_TABLES) out[table] = await countRows(db, table);
  return out;
}

// The rows are passed through as they are: one schema on both sides.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one loop copies every table, its rows untyped
type AnyDb = Kysely<any>;

async function copyTableById(from: AnyDb, to: AnyDb, table: string, onBatch: (n: number) => void) {
  let last = 0;
  for (;;) {
    const rows = await from.selectFrom(table).selectAll().where('id', '>', last).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) return;
    await to.insertInto(table).values(rows).execute();
    last = Number(rows[rows.length - 1]!.id);
    onBatch(rows.length);
  }
}

async function copyUsageCounters(from: AnyDb, to: AnyDb, onBatch: (n: number) => void) {
  let after: { subject: string; day: string } | null = null;
  for (;;) {
    let query = from.selectFrom('usage_counters').selectAll().orderBy('subject').orderBy('day').limit(BATCH);
    if (after) {
      const { subject, day } = after;
      query = query.where((eb) => eb.or([eb('subject', '>', subject), eb.and([eb('subject', '=', subject), eb('day', '>', day)])]));
    }
    const rows = await query.execute();
    if (rows.length === 0) return;
    await to.insertInto('usage_counters').values(rows).execute();
    after = rows[rows.length - 1]! as { subject: string; day: string };
    onBatch(rows.length);
  }
}

/** D34's lookup counts: keyed by (company, month), no id. */
async function copyCompanyLookups(from: AnyDb, to: AnyDb, onBatch: (n: number) => void) {
  let after: { company_id: number; month: string } | null = null;
  for (;;) {
    let query = from.selectFrom('company_lookups').selectAll().orderBy('company_id').orderBy('month').limit(BATCH);
    if (after) {
      const { company_id, month } = after;
      query = query.where((eb) => eb.or([eb('company_id', '>', company_id), eb.and([eb('company_id', '=', company_id), eb('month', '>', month)])]));
    }
    const rows = await query.execute();
    if (rows.length === 0) return;
    await to.insertInto('company_lookups').values(rows).execute();
    after = rows[rows.length - 1]! as { company_id: number; month: string };
    onBatch(rows.length);
  }
}

export async function copyDatabase(from: Engine, to: Engine, onProgress: (table: string, rows: number) => void = () => {}): Promise<Record<TableName, number>> {
  const existing = await countAllTables(to.db);
  const nonEmpty = Object.entries(existing).filter(([, n]) => n > 0);
  if (nonEmpty.length > 0) {
    const counts = nonEmpty.map(([t, n]) => `${t}: ${n}`).join(', ');
    throw new DomainError('conflict', `the target ${to.description} is not empty (${counts}); copy needs a new, empty database`, {
      code: 'copy.target_not_empty',
      params: { target: to.description, counts },
    });
  }
  const expected = await countAllTables(from.db);
  await to.db.transaction().execute(async (trx) => {
    for (const table of TABLES_WITH_ID) {
      let copied = 0;
      await copyTableById(from.db, trx, table, (n) => onProgress(table, (copied += n)));
    }
    let copied = 0;
    await copyUsageCounters(from.db, trx, (n) => onProgress('usage_counters', (copied += n)));
    let lookups = 0;
    await copyCompanyLookups(from.db, trx, (n) => onProgress('company_lookups', (lookups += n)));
    await to.seam.resetIdSequences(trx, TABLES_WITH_ID);
    // The copied rows reached the name index through its triggers; make sure it is whole.
    await to.seam.checkNameIndex(trx);
    // Through the triggers in batches: SQLite's FTS5 wrote a segment or more a batch.
    await to.seam.compactNameIndexes(trx);
  });
  const actual = await countAllTables(to.db);
  const mismatches = ALL_TABLES.filter((t) => actual[t] !== expected[t]);
  if (mismatches.length > 0) {
    throw new Error(`copy verification failed: ${mismatches.map((t) => `${t} ${expected[t]} → ${actual[t]}`).join(', ')}`);
  }
  return actual;
}
