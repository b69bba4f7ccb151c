/**
 * Recording a dispute (D33), pure: an operator records what the company sent (identification,
 * the day it was received, grounds, which reports); the filing members are told at once. The use
 * case looks the named reports up and asks `checkRecord`, which says what to store.
 *
 * Which reports: the company's own (one company per dispute), still pending or approved (what
 * members see, or may see once approved); a withdrawn, rejected, deactivated or expired record is
 * no longer shown and leaves with retention (D34) — the disclosure lists it. A report is in at most
 * one undecided dispute: a second request about it is added to the first's file, not a new clock.
 */
import { DomainError } from '../lib/errors.ts';
import { stated, type StatedProblem } from '../lib/problems.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import { checkRecordInput, type CheckedRecordInput, type RecordInput } from './dispute-input.ts';
import type { DisputeActor, DisputedReport, DisputeState } from './dispute-rules.ts';

/** What the use case read about each named report. */
export interface ReportForDispute {
  readonly reportId: number;
  readonly companyId: number;
  /** `expired` once D34's job has run on it. */
  readonly status: ReportStatus | 'expired';
  readonly filingMemberId: number | null;
  /** The undecided dispute it is in already, if any. */
  readonly undecidedDisputeId: number | null;
}

export type RecordResult =
  | {
      readonly ok: true;
      readonly input: CheckedRecordInput;
      readonly companyId: number;
      readonly state: DisputeState;
      /** `now` when a filing member is told, else null. */
      readonly membersToldAt: number | null;
      readonly reports: readonly DisputedReport[];
      /** The members to tell at once (portal, and a D31 event for their own reports). */
      readonly membersToTell: readonly number[];
    }
  | { readonly ok: false; readonly error: DomainError };

const DISPUTABLE: readonly string[] = ['pending', 'approved'];

/** Whether `actor` may record this dispute over `found` (the reports that exist among those named), and what to store. */
export function checkRecord(actor: DisputeActor, input: RecordInput, found: readonly ReportForDispute[], now: number): RecordResult {
  if (actor.kind !== 'operator') {
    const message = 'only an operator may record a dispute';
    return { ok: false, error: new DomainError('forbidden', message, { code: 'dispute.operator_only', params: { step: 'record' } }) };
  }
  const checked = checkRecordInput(input, now);
  if ('problems' in checked) return refused(checked.problems);
  const problems: StatedProblem[] = [];
  const byId = new Map(found.map((r) => [r.reportId, r]));
  const companyId = byId.get(checked.input.reportIds.find((id) => byId.has(id)) ?? -1)?.companyId ?? null;
  const reports: DisputedReport[] = [];
  for (const id of checked.input.reportIds) {
    const r = byId.get(id);
    if (!r) {
      problems.push(stated(`there is no report ${id}`, { code: 'report.not_found', params: { id } }));
    } else if (r.companyId !== companyId) {
      problems.push(
        stated(`report ${id} is about another company: record one dispute per company`, { code: 'dispute.report_of_other_company', params: { id } }),
      );
    } else if (!DISPUTABLE.includes(r.status)) {
      const message = `report ${id} is ${r.status}: it is no longer shown, and only a pending or approved report can be disputed`;
      problems.push(stated(message, { code: 'dispute.report_not_disputable', params: { id, status: r.status } }));
    } else if (r.undecidedDisputeId !== null) {
      const message = `report ${id} is in dispute ${r.undecidedDisputeId} already: add this request to that dispute's file`;
      problems.push(stated(message, { code: 'dispute.report_already_disputed', params: { id, dispute: r.undecidedDisputeId } }));
    } else {
      reports.push({
        reportId: id,
        status: r.status as ReportStatus,
        filingMemberId: r.filingMemberId,
        response: r.filingMemberId === null ? 'not_asked' : 'awaited',
      });
    }
  }
  if (problems.length > 0 || companyId === null) return refused(problems);
  const membersToTell = [...new Set(reports.flatMap((r) => (r.filingMemberId === null ? [] : [r.filingMemberId])))];
  const state: DisputeState = membersToTell.length > 0 ? 'awaiting_member' : 'open';
  return { ok: true, input: checked.input, companyId, state, membersToldAt: state === 'awaiting_member' ? now : null, reports, membersToTell };
}

function refused(problems: readonly StatedProblem[]): RecordResult {
  const kind = problems.every((p) => p.code === 'report.not_found') ? 'not_found' : 'invalid';
  return { ok: false, error: new DomainError(kind, problems.map((p) => p.message).join('; '), problems) };
}
