/**
 * What the disclosure (D34) reads: a company's reports in every state, their histories with who
 * took each step classified (a member, the bureau, the service) and never named, and the disputes
 * through `DisclosureDisputeSource`.
 */
import type { Db } from '../db/types.ts';
import type { DisclosureDisputeRow, DisclosureHistoryRow, DisclosureReportRow, HeldStatus } from './disclosure-view.ts';
import type { ReportType } from '../reports/report-types.ts';

export async function listHeldReports(db: Db, companyId: number): Promise<DisclosureReportRow[]> {
  const rows = await db.selectFrom('reports').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type as ReportType,
    status: r.status as HeldStatus,
    filedAt: Number(r.filed_at),
    eventDate: r.event_date,
    amountMinor: r.amount_minor === null ? null : Number(r.amount_minor),
    currency: r.currency,
    courtDecisionDate: r.court_decision_date,
    concordatStart: r.concordat_start,
    concordatEnd: r.concordat_end,
    caseJson: r.case_json,
    description: r.description,
    reportedBy: r.reported_by === null ? null : Number(r.reported_by),
    expiredAt: r.expired_at === null ? null : Number(r.expired_at),
  }));
}

/**
 * The steps of the reports, each with who took it as the company may know it: a member's user →
 * `member`; an operator, the CLI or the import → `operator` (shown as "the bureau"); the service's
 * own jobs (`system:…`, e.g. the retention job) → `system`.
 */
export async function listHeldHistory(db: Db, reportIds: readonly number[]): Promise<DisclosureHistoryRow[]> {
  if (reportIds.length === 0) return [];
  const rows = await db
    .selectFrom('report_status_changes')
    .leftJoin('users', 'users.id', 'report_status_changes.changed_by_user_id')
    .select([
      'report_status_changes.report_id',
      'report_status_changes.from_status',
      'report_status_changes.to_status',
      'report_status_changes.changed_at',
      'report_status_changes.changed_by',
      'report_status_changes.reason',
      'users.role',
    ])
    .where('report_status_changes.report_id', 'in', [...reportIds])
    .orderBy('report_status_changes.id')
    .execute();
  return rows.map((r) => ({
    reportId: Number(r.report_id),
    from: r.from_status as HeldStatus | null,
    to: r.to_status as HeldStatus,
    at: Number(r.changed_at),
    by: r.role === 'member_admin' || r.role === 'member_user' ? 'member' : r.changed_by.startsWith('system:') ? 'system' : 'operator',
    reason: r.reason,
  }));
}

/**
 * Where the disclosure gets the disputes over a company's reports (D33). THE EXTENSION POINT for
 * the disputes' table: until it exists there are none; the disputes feature passes its own
 * source to `createDisclosure` (composition root) returning one row per dispute touching any of
 * `reportIds`, with the ids of the reports it covers.
 */
export type DisclosureDisputeSource = (db: Db, reportIds: readonly number[]) => Promise<DisclosureDisputeRow[]>;

export const NO_DISPUTES: DisclosureDisputeSource = () => Promise.resolve([]);
