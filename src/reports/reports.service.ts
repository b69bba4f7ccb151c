/** Report status changes (D11) and the visible count they keep up to date (D12). */
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { updateCompany } from '../companies/companies.repository.ts';
import type { ReportStatus } from './lifecycle.ts';
import type { ReportType } from './report-types.ts';
import { findReportById, findReportByRef, insertStatusChange, listReportFacts, updateReport, type ReportRow } from './reports.repository.ts';
import { visibleReports } from './visibility.ts';

/** Recomputes a company's visible report count after any of its reports changed. */
export async function refreshVisibleCount(db: Db, companyId: number): Promise<number> {
  const facts = await listReportFacts(db, companyId);
  const count = visibleReports(facts.map((f) => ({ type: f.type as ReportType, status: f.status as ReportStatus, reportedBy: f.reportedBy }))).length;
  await updateCompany(db, companyId, { visible_report_count: count });
  return count;
}

/** A report by its id or, failing that, its external ref. */
export async function findReportByIdOrRef(db: Db, idOrRef: string): Promise<ReportRow | undefined> {
  if (/^[0-9]{1,15}$/.test(idOrRef)) {
    const byId = await findReportById(db, Number(idOrRef));
    if (byId) return byId;
  }
  return findReportByRef(db, idOrRef);
}

/** Writes a status change and its history row; the caller has checked the step. */
export async function applyStatus(db: Db, clock: Clock, report: ReportRow, to: ReportStatus, changedBy: string) {
  const now = clock.now();
  await updateReport(db, Number(report.id), { status: to, updated_at: now });
  await insertStatusChange(db, {
    report_id: Number(report.id),
    from_status: report.status,
    to_status: to,
    changed_at: now,
    changed_by: changedBy,
  });
  await refreshVisibleCount(db, Number(report.company_id));
}
