import type { Insertable, Selectable, Updateable } from 'kysely';
import { type ReportsTable, type ReportStatusChangesTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { preparedQuery } from '../db/prepared.ts';
import { REPORT_VIEW_COLUMNS } from './report-view.ts';

export type ReportRow = Selectable<ReportsTable>;

export async function updateReport(db: Db, id: number, changes: Updateable<ReportsTable>): Promise<void> {
  await db.updateTable('reports').set(changes).where('id', '=', id).execute();
}

export async function findReportsByRefs(db: Db, refs: readonly string[]): Promise<ReportRow[]> {
  if (refs.length === 0) return [];
  return db.selectFrom('reports').selectAll().where('ref', 'in', refs).execute();
}

export async function findReportByRef(db: Db, ref: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('ref', '=', ref).executeTakeFirst();
}

export async function findReportById(db: Db, id: number): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What D12 needs to decide visibility for one company. */
export async function listReportFacts(db: Db, companyId: number) {
  const rows = await db.selectFrom('reports').select(['type', 'status', 'reported_by']).where('company_id', '=', companyId).execute();
  return rows.map((r) => ({ type: r.type, status: r.status, reportedBy: r.reported_by === null ? null : Number(r.reported_by) }));
}

/**
 * What a search reads of a report: its view, and what D12's visibility and `last_updated` need.
 * Not the filing's record (who filed it, as what name): 6 columns fewer, of 20, for the ~200
 * reports of a common name's answer.
 */
export const SEARCH_REPORT_COLUMNS = [...REPORT_VIEW_COLUMNS, 'company_id', 'status', 'reported_by', 'updated_at'] as const;
export type SearchReportRow = Pick<ReportRow, (typeof SEARCH_REPORT_COLUMNS)[number]>;

const activeReportsQuery = preparedQuery(
  (db, p, count: number) =>
    db
      .selectFrom('reports')
      .select(SEARCH_REPORT_COLUMNS)
      .where(
        'company_id',
        'in',
        Array.from({ length: count }, (_, i) => p(i)),
      )
      .where('status', '=', 'approved')
      .orderBy('filed_at', 'desc')
      .orderBy('id', 'desc'),
  (count) => String(count),
);

/** Active reports of the given companies, newest first (D13's order). Every search: kept compiled. */
export async function listActiveReports(db: Db, companyIds: readonly number[]): Promise<SearchReportRow[]> {
  if (companyIds.length === 0) return [];
  return activeReportsQuery(db, companyIds, companyIds.length);
}

/** The active reports of many companies, what visibility needs (D12): for the watchers' events (D31), not kept prepared. */
export async function listActiveReportFacts(db: Db, companyIds: readonly number[]) {
  const out: Array<Pick<ReportRow, 'id' | 'company_id' | 'type' | 'status' | 'reported_by'>> = [];
  for (let i = 0; i < companyIds.length; i += 500) {
    const rows = await db
      .selectFrom('reports')
      .select(['id', 'company_id', 'type', 'status', 'reported_by'])
      .where('company_id', 'in', companyIds.slice(i, i + 500))
      .where('status', '=', 'approved')
      .execute();
    out.push(...rows);
  }
  return out;
}

export async function insertStatusChange(db: Db, change: Insertable<ReportStatusChangesTable>): Promise<void> {
  await db.insertInto('report_status_changes').values(change).execute();
}

export async function listStatusChanges(db: Db, reportId: number) {
  return db.selectFrom('report_status_changes').selectAll().where('report_id', '=', reportId).orderBy('id').execute();
}
