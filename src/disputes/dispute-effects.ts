/**
 * What a dispute's steps do to its reports (D33), pure. Each effect is one of D29's steps (or a
 * correction) with the reason kept in the report's history; the use case applies them in the
 * step's transaction, so the data version, the visible count and the watchers' events (D31)
 * follow the write protocol like any moderation step.
 *
 * - a member withdraws in the dispute: its report is withdrawn (D29), the note kept;
 * - the 15 days pass without support: "not supported in a dispute" (D33's words) — an approved
 *   report is deactivated, a pending one (never shown) rejected, since D11 deactivates approved
 *   reports only;
 * - `upheld`: the reports stay as they are; the company may add its statement;
 * - `corrected`: the operator's correction, field by field, on the reports it names;
 * - `removed`: every report of the dispute still pending or approved ends as above, with the
 *   decision's reason.
 * Reports already withdrawn, rejected, deactivated or expired are left as they are.
 */
import { stated, type StatedProblem } from '../lib/problems.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import type { DisputeOutcome, ReportCorrection } from './dispute-input.ts';
import type { DisputedReport, DisputeFacts } from './dispute-facts.ts';

/** D33's reason for a claim its member did not support in time. */
export const NOT_SUPPORTED_REASON = 'not supported in a dispute';

export type ReportEffect =
  | { readonly kind: 'withdraw' | 'deactivate' | 'reject'; readonly reportId: number; readonly from: ReportStatus; readonly reason: string }
  | { readonly kind: 'correct'; readonly reportId: number; readonly fields: Readonly<Record<string, unknown>>; readonly reason: string };

const OPEN_STATUSES: readonly ReportStatus[] = ['pending', 'approved'];

/** The step that takes a report out: deactivate an approved one, reject a pending one, nothing for the rest. */
function endOf(report: DisputedReport, reason: string): ReportEffect[] {
  if (report.status === 'approved') return [{ kind: 'deactivate', reportId: report.reportId, from: 'approved', reason }];
  if (report.status === 'pending') return [{ kind: 'reject', reportId: report.reportId, from: 'pending', reason }];
  return [];
}

export function effectsOfWithdrawal(disputeId: number, report: DisputedReport, note: string | null): ReportEffect[] {
  if (!OPEN_STATUSES.includes(report.status)) return [];
  const reason = note === null ? `withdrawn in dispute ${disputeId}` : `withdrawn in dispute ${disputeId}: ${note}`;
  return [{ kind: 'withdraw', reportId: report.reportId, from: report.status, reason }];
}

export function effectsOfLapse(lapsed: readonly DisputedReport[]): ReportEffect[] {
  return lapsed.flatMap((r) => endOf(r, NOT_SUPPORTED_REASON));
}

/** The decision's effects; problems when a correction names a report outside the dispute. */
export function effectsOfDecision(
  dispute: DisputeFacts,
  outcome: DisputeOutcome,
  reason: string,
  corrections: readonly ReportCorrection[],
): { effects: ReportEffect[] } | { problems: StatedProblem[] } {
  if (outcome === 'upheld') return { effects: [] };
  if (outcome === 'removed') return { effects: dispute.reports.flatMap((r) => endOf(r, `removed after dispute ${dispute.id}: ${reason}`)) };
  const problems: StatedProblem[] = [];
  const effects: ReportEffect[] = [];
  const seen = new Set<number>();
  for (const c of corrections) {
    if (!dispute.reports.some((r) => r.reportId === c.reportId)) {
      const params = { report: c.reportId, id: dispute.id };
      problems.push(stated(`report ${c.reportId} is not in dispute ${dispute.id}`, { code: 'dispute.correction_report_unknown', params }));
      continue;
    }
    if (seen.has(c.reportId)) {
      const message = `report ${c.reportId} is corrected twice: give one correction per report`;
      problems.push(stated(message, { code: 'dispute.correction_twice', params: { report: c.reportId } }));
      continue;
    }
    seen.add(c.reportId);
    effects.push({ kind: 'correct', reportId: c.reportId, fields: c.fields, reason: `corrected after dispute ${dispute.id}: ${reason}` });
  }
  return problems.length > 0 ? { problems } : { effects };
}
