/**
 * What the retention job (D34) reads and writes: reports without an anchor, reports due to expire
 * or to be deleted, the conditional expiry of one report, a report's deletion with everything
 * that hangs on it, and the old lookup counts. Ordinary statements only: the version triggers of
 * migration 0003 move the data version in the caller's transaction (the write protocol).
 */
import { sql, type Insertable } from 'kysely';
import type { ReportStatusChangesTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { ReportType } from '../reports/report-types.ts';

/**
 * `status` as an expression, for a condition beside `id IN (…)`: SQLite keeps no statistics here,
 * guesses `status = ?` selective, and went through the (status, created_at) index, reading every
 * report of that status to find the batch's 200 (0.85 ms of CPU a report at 10^6, 73 % of the
 * expiry, docs/benchmarks.md); an expression it cannot look up, so it goes by the ids. PostgreSQL
 * goes by the ids either way.
 */
const statusValue = sql<string>`(status || '')`;

export interface AnchorFactsRow {
  id: number;
  type: string;
  event_date: string | null;
  case_json: string | null;
  court_decision_date: string | null;
  concordat_end: string | null;
  filed_at: number;
}

/**
 * `status <> 'expired'` as the retention index's own predicate (migration 0024): a literal, since
 * neither engine uses a partial index for a condition on a bound parameter.
 */
const NOT_EXPIRED = sql.lit('expired');

/** Reports of `type` whose anchor is not worked out yet (new since the last run, or a corrected date), by id. */
export async function listReportsWithoutAnchor(db: Db, type: string, afterId: number, limit: number): Promise<AnchorFactsRow[]> {
  const rows = await db
    .selectFrom('reports')
    .select(['id', 'type', 'event_date', 'case_json', 'court_decision_date', 'concordat_end', 'filed_at'])
    .where('type', '=', type)
    .where('retention_anchor', 'is', null)
    .where('status', '<>', NOT_EXPIRED)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), filed_at: Number(r.filed_at) }));
}

/** Sets one anchor on many reports (a batch grouped by its anchor date). */
export async function setRetentionAnchor(db: Db, anchor: string, ids: readonly number[]): Promise<void> {
  await db
    .updateTable('reports')
    .set({ retention_anchor: anchor })
    .where('id', 'in', [...ids])
    .execute();
}

export interface DueReportRow {
  id: number;
  company_id: number;
  status: string;
  retention_anchor: string | null;
}

/** Where a page of due reports ends: the next page starts after this (anchor, id). */
export type DueKey = { readonly anchor: string; readonly id: number } | null;

/**
 * Reports of `type` past their retention end (anchor at or before `cutoff`, not yet expired), in
 * the order of the (type, anchor) index, after `after`: each page reads only its own rows.
 */
export async function listDueForExpiry(db: Db, type: string, cutoff: string, after: DueKey, limit: number): Promise<DueReportRow[]> {
  let query = db
    .selectFrom('reports')
    .select(['id', 'company_id', 'status', 'retention_anchor'])
    .where('type', '=', type)
    .where('retention_anchor', '<=', cutoff)
    .where('status', '<>', NOT_EXPIRED);
  if (after) {
    // `anchor >= last` bounds the index's range, so a page starts where the last one stopped.
    query = query
      .where('retention_anchor', '>=', after.anchor)
      .where((eb) => eb.or([eb('retention_anchor', '>', after.anchor), eb.and([eb('retention_anchor', '=', after.anchor), eb('id', '>', after.id)])]));
  }
  const rows = await query.orderBy('retention_anchor').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), company_id: Number(r.company_id), status: r.status, retention_anchor: r.retention_anchor }));
}

/** The reports of `ids` (a batch of those found due), as they are now, with their type. */
export async function listReportsForExpiry(db: Db, ids: readonly number[]): Promise<Array<DueReportRow & { type: ReportType }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('reports')
    .select(['id', 'company_id', 'status', 'retention_anchor', 'type'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    company_id: Number(r.company_id),
    status: r.status,
    retention_anchor: r.retention_anchor,
    type: r.type as ReportType,
  }));
}

/** Where a page of reports due for deletion ends: the next page starts after this (expired_at, id). */
export type DeletionKey = { readonly expiredAt: number; readonly id: number } | null;

/**
 * Expired reports whose expiry was before `before` (epoch ms), in the order of the `expired_at`
 * index after `after`: each page reads only its own rows (by id, the status index was read whole
 * for every page: the 1.45 million expired in one day at 10^6 go in one day too).
 */
export async function listDueForDeletion(db: Db, before: number, after: DeletionKey, limit: number): Promise<Array<DueReportRow & { expired_at: number }>> {
  let query = db.selectFrom('reports').select(['id', 'company_id', 'status', 'expired_at']).where('expired_at', '<', before).where(statusValue, '=', 'expired');
  if (after) {
    query = query.where((eb) => eb.or([eb('expired_at', '>', after.expiredAt), eb.and([eb('expired_at', '=', after.expiredAt), eb('id', '>', after.id)])]));
  }
  const rows = await query.orderBy('expired_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), company_id: Number(r.company_id), status: r.status, retention_anchor: null, expired_at: Number(r.expired_at) }));
}

/**
 * Expires, of `ids`, those whose status is still `from` (what the job read); returns them with
 * their company. Of the job and an operator's step at once exactly one wins (PostgreSQL re-checks
 * the condition after the other's row lock; SQLite has one writer). One statement per status.
 */
export async function expireReportsIf(db: Db, ids: readonly number[], from: string, at: number): Promise<Array<{ id: number; companyId: number }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('reports')
    .set({ status: 'expired', expired_at: at, updated_at: at })
    .where('id', 'in', [...ids])
    .where(statusValue, '=', from)
    .returning(['id', 'company_id'])
    .execute();
  return rows.map((r) => ({ id: Number(r.id), companyId: Number(r.company_id) }));
}

/** D12's facts of the reports of several companies, and their stored visible counts. */
export async function listCompaniesFacts(db: Db, companyIds: readonly number[]) {
  const [facts, counts] = await Promise.all([
    db
      .selectFrom('reports')
      .select(['company_id', 'type', 'status', 'reported_by'])
      .where('company_id', 'in', [...companyIds])
      .execute(),
    db
      .selectFrom('companies')
      .select(['id', 'visible_report_count', 'country', 'tax_id_norm'])
      .where('id', 'in', [...companyIds])
      .execute(),
  ]);
  return { facts, companies: counts };
}

/** Sets several companies' visible counts in one statement. */
export async function setVisibleCounts(db: Db, counts: ReadonlyMap<number, number>): Promise<void> {
  if (counts.size === 0) return;
  const cases = [...counts].map(([id, count]) => sql`WHEN ${id} THEN ${count}`);
  await db
    .updateTable('companies')
    .set({ visible_report_count: sql<number>`CASE id ${sql.join(cases, sql` `)} ELSE visible_report_count END` })
    .where('id', 'in', [...counts.keys()])
    .execute();
}

export async function insertStatusChanges(db: Db, rows: ReadonlyArray<Insertable<ReportStatusChangesTable>>): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('report_status_changes')
      .values([...rows])
      .execute();
}

export async function deleteAttachmentsOf(db: Db, reportIds: readonly number[]): Promise<number> {
  if (reportIds.length === 0) return 0;
  const result = await db
    .deleteFrom('report_attachments')
    .where('report_id', 'in', [...reportIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Tables whose rows belong to a report and go with it when it is deleted, before the report
 * itself (their foreign keys point at it). THE EXTENSION POINT for tables added later: the
 * disputes (D33) add theirs here (a dispute's link to a report; a dispute left with no report is
 * theirs to delete in the same function), and the disclosure reads them through
 * disclosure.repository.ts's `DisclosureDisputeSource`.
 */
export const REPORT_DEPENDENTS: ReadonlyArray<(db: Db, reportIds: readonly number[]) => Promise<void>> = [
  async (db, ids) => {
    await db
      .deleteFrom('report_status_changes')
      .where('report_id', 'in', [...ids])
      .execute();
  },
  async (db, ids) => {
    await deleteAttachmentsOf(db, ids);
  },
  // D33: a deleted report leaves the disputes over it (the dispute is the company's record): its
  // link goes; the dispute's steps and documents about it stay, no longer pointing at it.
  async (db, ids) => {
    await db
      .deleteFrom('dispute_reports')
      .where('report_id', 'in', [...ids])
      .execute();
    await db
      .updateTable('dispute_steps')
      .set({ report_id: null })
      .where('report_id', 'in', [...ids])
      .execute();
    await db
      .updateTable('dispute_attachments')
      .set({ report_id: null })
      .where('report_id', 'in', [...ids])
      .execute();
  },
];

/**
 * Deletes expired reports with their history and attachments; returns the ids deleted (of two
 * runs at once, each deletes a report once: the second finds it gone).
 */
export async function deleteExpiredReports(db: Db, reportIds: readonly number[]): Promise<number[]> {
  if (reportIds.length === 0) return [];
  for (const dependents of REPORT_DEPENDENTS) await dependents(db, reportIds);
  const rows = await db
    .deleteFrom('reports')
    .where('id', 'in', [...reportIds])
    .where(statusValue, '=', 'expired')
    .returning('id')
    .execute();
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * One batch of the lookup counts of months before `month` (`YYYY-MM`, outside the disclosure's 12
 * months): those of the next companies after `afterCompanyId` that have any, up to about `limit`
 * rows (the last company's months all go, a dozen more at most). Walks the primary key
 * (company_id, month) forward, so a batch never reads what an earlier one left. Returns how many
 * went and the last company, null when none was left.
 */
export async function deleteLookupMonthsBatch(
  db: Db,
  month: string,
  afterCompanyId: number,
  limit: number,
): Promise<{ deleted: number; lastCompanyId: number | null }> {
  const last = await db
    .selectFrom('company_lookups')
    .select('company_id')
    .where('company_id', '>', afterCompanyId)
    .where('month', '<', month)
    .orderBy('company_id')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  const upTo = last === undefined ? null : Number(last.company_id);
  let query = db.deleteFrom('company_lookups').where('company_id', '>', afterCompanyId).where('month', '<', month);
  if (upTo !== null) query = query.where('company_id', '<=', upTo);
  const result = await query.executeTakeFirst();
  return { deleted: Number(result.numDeletedRows), lastCompanyId: upTo };
}

export async function countLookupMonthsBefore(db: Db, month: string): Promise<number> {
  const row = await db
    .selectFrom('company_lookups')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('month', '<', month)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAuditBefore(db: Db, before: number): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('at', '<', before)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
