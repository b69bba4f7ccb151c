/** Report status changes (D11) and the visible count they keep up to date (D12). */
import type { Kysely } from 'kysely';
import { recordCompanyChangeById } from '../events/company-changes.ts';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { DomainError } from '../lib/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { updateCompany } from '../companies/companies.repository.ts';
import { checkTransition, isReportStatus, type ReportStatus } from './lifecycle.ts';
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

export interface StatusChange {
  reportId: number;
  ref: string | null;
  from: ReportStatus;
  to: ReportStatus;
}

/** One lifecycle step, with its history row and the company's new count, in one transaction. */
export async function changeReportStatus(db: Kysely<Database>, clock: Clock, idOrRef: string, to: string, changedBy: string): Promise<StatusChange> {
  if (!isReportStatus(to)) {
    throw new DomainError('invalid', `unknown status '${to}': use pending, approved, rejected, withdrawn or deactivated`, {
      code: 'report.status_unknown',
      params: { value: to },
    });
  }
  return db.transaction().execute(async (trx) => {
    const report = await findReportByIdOrRef(trx, idOrRef);
    if (!report) throw new DomainError('not_found', `no report with id or ref '${idOrRef}'`, { code: 'report.not_found_by_ref', params: { ref: idOrRef } });
    const from = report.status as ReportStatus;
    const refusal = checkTransition(from, to);
    if (refusal)
      throw new DomainError('conflict', `report ${report.id}: ${refusal}`, { code: 'report.transition_refused', params: { id: Number(report.id), from, to } });
    await applyStatus(trx, clock, report, to, changedBy);
    await recordCompanyChangeById(trx, clock.now(), Number(report.company_id));
    return { reportId: Number(report.id), ref: report.ref, from, to };
  });
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
