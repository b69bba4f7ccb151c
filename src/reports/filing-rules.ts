/**
 * Who may take which step on a report filed through the portal (D29), and who may file at all.
 * Pure: the services look the actor, the member and the report up and ask these.
 *
 * - the filing member (any of its users) withdraws a pending or an approved report, with a note;
 * - an operator approves or rejects a pending report (a reason is required to reject) and
 *   deactivates an approved one (reason required);
 * - nothing else: a member never approves, an operator never withdraws a member's report, and
 *   rejected, withdrawn and deactivated are final.
 *
 * D11's table (lifecycle.ts) stays the CLI's and the import's: it has no pending → withdrawn.
 */
import { stated, type Problem, type StatedProblem } from '../lib/problems.ts';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { ReportStatus } from './lifecycle.ts';
import { memberAccessRefusal, type MemberStanding } from '../members/member-access.ts';

export type ModerationStep = 'approve' | 'reject' | 'deactivate' | 'withdraw';
export const MODERATION_STEPS: readonly ModerationStep[] = ['approve', 'reject', 'deactivate', 'withdraw'];

/** Who acts: an operator, or a user of a member (member_admin or member_user). */
export type Actor = { kind: 'operator'; userId: number } | { kind: 'member'; userId: number; memberId: number };

/** Reports a member may file per quota day (D19), unless the operator sets another (config.ts). */
export const DEFAULT_FILINGS_PER_MEMBER_PER_DAY = 50;

/** Longest reason or note kept with a step. */
export const REASON_MAX = 1000;

interface StepRule {
  by: Actor['kind'];
  from: readonly ReportStatus[];
  to: ReportStatus;
  reason: 'required' | 'optional';
  /** What the reason is called in messages. */
  reasonName: string;
}

const STEPS: Record<ModerationStep, StepRule> = {
  approve: { by: 'operator', from: ['pending'], to: 'approved', reason: 'optional', reasonName: 'reason' },
  reject: { by: 'operator', from: ['pending'], to: 'rejected', reason: 'required', reasonName: 'reason' },
  deactivate: { by: 'operator', from: ['approved'], to: 'deactivated', reason: 'required', reasonName: 'reason' },
  withdraw: { by: 'member', from: ['pending', 'approved'], to: 'withdrawn', reason: 'required', reasonName: 'note' },
};

export type StepCheck =
  | { ok: true; from: ReportStatus; to: ReportStatus; reason: string | null }
  | { ok: false; kind: 'forbidden' | 'not_found' | 'conflict' | 'invalid'; message: string; problem: Problem };

/**
 * Whether `actor` may take `step` on a report (its status and reporting member), with `reason`.
 * A member asking about another member's report gets not_found: D13/D27 never reveal it exists.
 */
export function checkStep(
  actor: Actor,
  report: { id: number; status: ReportStatus; reportedBy: number | null },
  step: ModerationStep,
  reason: string | null | undefined,
): StepCheck {
  const rule = STEPS[step];
  const { id, status } = report;
  if (actor.kind === 'member' && report.reportedBy !== actor.memberId) {
    return {
      ok: false,
      kind: 'not_found',
      message: `no report ${id} among your member's reports`,
      problem: { code: 'report.not_found_for_member', params: { id } },
    };
  }
  if (actor.kind !== rule.by) {
    return rule.by === 'operator'
      ? { ok: false, kind: 'forbidden', message: `only an operator may ${step} a report`, problem: { code: 'report.operator_only', params: { step } } }
      : { ok: false, kind: 'forbidden', message: `only the filing member may ${step} its report`, problem: { code: 'report.member_only', params: { step } } };
  }
  if (!rule.from.includes(status)) {
    const final = ['rejected', 'withdrawn', 'deactivated'].includes(status);
    return final
      ? {
          ok: false,
          kind: 'conflict',
          message: `report ${id} is ${status}, which is final: it cannot be ${pastOf(step)}`,
          problem: { code: 'report.status_final', params: { id, status, step } },
        }
      : {
          ok: false,
          kind: 'conflict',
          message: `report ${id} is ${status}: only a ${rule.from.join(' or ')} report can be ${pastOf(step)}`,
          problem: { code: 'report.status_not_allowed', params: { id, status, statuses: rule.from.join(', '), step } },
        };
  }
  const text = reason?.trim() ?? '';
  const isNote = rule.reasonName === 'note';
  if (hasForbiddenCharacters(text, { lines: true })) {
    const message = `the ${rule.reasonName} contains control characters: type it again without them`;
    return { ok: false, kind: 'invalid', message, problem: { code: 'field.control_characters', params: { field: rule.reasonName } } };
  }
  if (rule.reason === 'required' && text === '') {
    const problem: Problem = isNote ? { code: 'report.note_required' } : { code: 'report.reason_required', params: { step } };
    return { ok: false, kind: 'invalid', message: `a ${rule.reasonName} is required to ${step} a report: say why`, problem };
  }
  if (text.length > REASON_MAX) {
    const problem: Problem = { code: isNote ? 'report.note_too_long' : 'report.reason_too_long', params: { max: REASON_MAX } };
    return { ok: false, kind: 'invalid', message: `the ${rule.reasonName} is longer than ${REASON_MAX} characters`, problem };
  }
  return { ok: true, from: report.status, to: rule.to, reason: text === '' ? null : text };
}

function pastOf(step: ModerationStep): string {
  return step === 'withdraw' ? 'withdrawn' : `${step}d`;
}

/** What D29 needs of the filing member: the same three conditions as API access (D17). */
export type FilingMember = MemberStanding;

/** Null when the member may file; else why not, in words for the member's user. */
export function checkFilingMember(member: FilingMember): StatedProblem | null {
  // D17's rule on the member, as keys and searches have it (members/member-access.ts).
  const refusal = memberAccessRefusal(member);
  if (refusal === null) return null;
  switch (refusal) {
    case 'member_suspended':
    case 'member_terminated':
      return stated(`your membership is ${member.status}: only an active member can file reports`, {
        code: 'filing.member_not_active',
        params: { memberStatus: member.status },
      });
    case 'member_not_full':
      return stated('only full members can file reports; your membership is associate', { code: 'filing.member_not_full' });
    case 'agreement_unsigned':
      return stated('sign the data agreement before filing reports', { code: 'filing.agreement_unsigned' });
  }
}
