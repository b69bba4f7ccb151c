/**
 * A dispute by the reported company (D33), pure: its states, who may take which step when, and
 * what each step does to the dispute and to its reports. The use cases read the dispute and its
 * reports, ask `takeDisputeStep`, and write what it returns in one transaction (with the reports'
 * history, the operator log and a D31 event where visibility or `disputed` changes).
 *
 * States say whose turn it is: `awaiting_member` while a filing member is asked, `open` while
 * the operator is (no member to ask — an official file — or every member has answered), then
 * `decided`, final, with its outcome. Steps:
 *
 * | step            | who                          | from                     | to                          |
 * | --------------- | ---------------------------- | ------------------------ | --------------------------- |
 * | (record)        | operator                     | —                        | awaiting_member, else open  |
 * | `support`       | the report's filing member   | awaiting_member, in time | open once nobody is awaited |
 * | `withdraw`      | the report's filing member   | awaiting_member          | open once nobody is awaited |
 * | `lapse`         | system (daily job)           | awaiting_member, late    | open                        |
 * | `decide`        | operator                     | open, awaiting_member    | decided                     |
 * | `set_statement` | operator (the company's text) | decided `upheld`        | decided                     |
 *
 * The operator may decide while a member is still asked: the 30 days of KVKK art. 13 bind the
 * bureau and must not wait for a member's silence (answers not given become `unanswered`, and the
 * decision's outcome governs the report). A member may withdraw after its 15 days, until the job
 * has deactivated the report (D29 lets it withdraw at any time); support comes in time or not at all.
 * Another member's users get not_found for every step: D13/D27 never tell a report exists.
 */
import { DomainError } from '../lib/errors.ts';
import type { StatedProblem } from '../lib/problems.ts';
import { memberDueOn, daysLeft } from './dispute-deadlines.ts';
import { checkDecisionInput, checkText, LIMITS, type DecisionInput, type DisputeOutcome } from './dispute-input.ts';
import { effectsOfDecision, effectsOfLapse, effectsOfWithdrawal, type ReportEffect } from './dispute-effects.ts';
import type { Actor } from '../actors/actor.ts';
import type { DisputedReport, DisputeFacts, DisputeState, MemberResponse } from './dispute-facts.ts';

export { DISPUTE_STATES, type DisputedReport, type DisputeFacts, type DisputeState, type MemberResponse } from './dispute-facts.ts';

export const DISPUTE_STEPS = ['support', 'withdraw', 'lapse', 'decide', 'set_statement'] as const;
export type DisputeStep = (typeof DISPUTE_STEPS)[number];

/** Who acts: the kinds of the one Actor (src/actors/actor.ts) that take dispute steps; the caller has authenticated it. */
export type DisputeActor = Extract<Actor, { kind: 'operator' | 'system' }> | Omit<Extract<Actor, { kind: 'member_user' }>, 'role'>;

export type StepInput =
  | { readonly step: 'support'; readonly reportId: number; readonly text: string }
  | { readonly step: 'withdraw'; readonly reportId: number; readonly note: string }
  | { readonly step: 'lapse' }
  | ({ readonly step: 'decide' } & DecisionInput)
  | { readonly step: 'set_statement'; readonly text: string };

export type StepResult =
  | {
      readonly ok: true;
      readonly state: DisputeState;
      readonly outcome: DisputeOutcome | null;
      readonly reports: readonly DisputedReport[];
      /** What to do to the reports, in the same transaction (dispute-effects.ts). */
      readonly effects: readonly ReportEffect[];
      /** The member's support text, the withdrawal note, the decision's reason or the statement, trimmed. */
      readonly text: string | null;
    }
  | { readonly ok: false; readonly error: DomainError };

const WHO: Record<DisputeStep, DisputeActor['kind']> = {
  support: 'member_user',
  withdraw: 'member_user',
  lapse: 'system',
  decide: 'operator',
  set_statement: 'operator',
};

const refuse = (kind: DomainError['kind'], problem: StatedProblem): StepResult => ({ ok: false, error: new DomainError(kind, problem.message, [problem]) });
const invalid = (problems: StatedProblem[]): StepResult => ({
  ok: false,
  error: new DomainError('invalid', problems.map((p) => p.message).join('; '), problems),
});

/** Whether `actor` may take `input.step` on `dispute` at `now`, and what it leads to. */
export function takeDisputeStep(actor: DisputeActor, dispute: DisputeFacts, input: StepInput, now: number): StepResult {
  const refusal = whoRefusal(actor, dispute, input) ?? stateRefusal(dispute, input, now);
  if (refusal) return refusal;
  switch (input.step) {
    case 'support':
    case 'withdraw':
      return answer(dispute, input);
    case 'lapse':
      return afterLapse(dispute);
    case 'decide':
      return decide(dispute, input);
    case 'set_statement':
      return setStatement(dispute, input.text);
  }
}

function whoRefusal(actor: DisputeActor, dispute: DisputeFacts, input: StepInput): StepResult | null {
  const { id } = dispute;
  if (actor.kind === 'member_user') {
    const report = 'reportId' in input ? input.reportId : null;
    const own = dispute.reports.filter((r) => r.filingMemberId === actor.memberId);
    if (own.length === 0)
      return refuse('not_found', { message: `no dispute ${id} concerns your member's reports`, code: 'dispute.not_found_for_member', params: { id } });
    if (report !== null && !own.some((r) => r.reportId === report)) {
      const message = `dispute ${id} holds no report ${report} of your member`;
      return refuse('not_found', { message, code: 'dispute.report_not_found_for_member', params: { id, report } });
    }
  }
  const by = WHO[input.step];
  if (actor.kind === by) return null;
  const step = input.step;
  if (by === 'operator')
    return refuse('forbidden', { message: `only an operator may ${step.replace('_', ' ')} a dispute`, code: 'dispute.operator_only', params: { step } });
  if (by === 'system')
    return refuse('forbidden', { message: `only the daily job lets an unsupported claim lapse`, code: 'dispute.system_only', params: { step } });
  return refuse('forbidden', { message: `only the filing member may ${step} its report in a dispute`, code: 'dispute.member_only', params: { step } });
}

function stateRefusal(dispute: DisputeFacts, input: StepInput, now: number): StepResult | null {
  const { id, state } = dispute;
  if (input.step === 'set_statement') {
    if (state === 'decided' && dispute.outcome === 'upheld') return null;
    return refuse('conflict', {
      message: `dispute ${id} is not decided upheld: only then may the company add a statement`,
      code: 'dispute.statement_needs_upheld',
      params: { id },
    });
  }
  if (state === 'decided')
    return refuse('conflict', { message: `dispute ${id} is decided: it cannot change any more`, code: 'dispute.decided', params: { id } });
  if (input.step === 'decide') return null;
  if (state !== 'awaiting_member') {
    return refuse('conflict', { message: `dispute ${id} is not waiting for a member's answer`, code: 'dispute.not_awaiting_member', params: { id } });
  }
  const dueOn = memberDueOn(dispute.membersToldAt ?? now);
  const late = daysLeft(dueOn, now) < 0;
  if (input.step === 'lapse') {
    return late ? null : refuse('conflict', { message: `the member may answer until ${dueOn}`, code: 'dispute.member_deadline_not_passed', params: { dueOn } });
  }
  const report = dispute.reports.find((r) => r.reportId === input.reportId)!;
  if (report.response !== 'awaited') {
    return refuse('conflict', {
      message: `report ${report.reportId} was answered already`,
      code: 'dispute.already_answered',
      params: { report: report.reportId },
    });
  }
  if (input.step === 'support' && late) {
    return refuse('conflict', { message: `the time to support ended on ${dueOn}`, code: 'dispute.member_deadline_passed', params: { dueOn } });
  }
  return null;
}

/** The state once `reports` are answered: the member's turn while any is awaited, else the operator's. */
function stateOf(reports: readonly DisputedReport[]): DisputeState {
  return reports.some((r) => r.response === 'awaited') ? 'awaiting_member' : 'open';
}

function answer(dispute: DisputeFacts, input: Extract<StepInput, { step: 'support' | 'withdraw' }>): StepResult {
  const problems: StatedProblem[] = [];
  const text =
    input.step === 'support'
      ? checkText('support_text', input.text, { max: LIMITS.supportText, required: true, lines: true }, problems)
      : checkText('note', input.note, { max: LIMITS.note, required: false, lines: true }, problems);
  if (problems.length > 0) return invalid(problems);
  const response: MemberResponse = input.step === 'support' ? 'supported' : 'withdrawn';
  const reports = dispute.reports.map((r) => (r.reportId === input.reportId ? { ...r, response } : r));
  const report = dispute.reports.find((r) => r.reportId === input.reportId)!;
  const effects = input.step === 'withdraw' ? effectsOfWithdrawal(dispute.id, report, text) : [];
  return { ok: true, state: stateOf(reports), outcome: null, reports, effects, text };
}

function afterLapse(dispute: DisputeFacts): StepResult {
  const lapsed = dispute.reports.filter((r) => r.response === 'awaited');
  const reports = dispute.reports.map((r) => (r.response === 'awaited' ? { ...r, response: 'lapsed' as const } : r));
  return { ok: true, state: 'open', outcome: null, reports, effects: effectsOfLapse(lapsed), text: null };
}

function decide(dispute: DisputeFacts, input: DecisionInput): StepResult {
  const checked = checkDecisionInput(input);
  if ('problems' in checked) return invalid(checked.problems);
  const decided = effectsOfDecision(dispute, checked.outcome, checked.reason, input.corrections ?? []);
  if ('problems' in decided) return invalid(decided.problems);
  const reports = dispute.reports.map((r) => (r.response === 'awaited' ? { ...r, response: 'unanswered' as const } : r));
  return { ok: true, state: 'decided', outcome: checked.outcome, reports, effects: decided.effects, text: checked.reason };
}

function setStatement(dispute: DisputeFacts, raw: string): StepResult {
  const problems: StatedProblem[] = [];
  const text = checkText('statement', raw, { max: LIMITS.statement, required: true, lines: true }, problems);
  if (problems.length > 0) return invalid(problems);
  return { ok: true, state: 'decided', outcome: dispute.outcome, reports: dispute.reports, effects: [], text };
}

/** D33: a report item is `"disputed": true` while a dispute over it is open or awaiting a member. */
export function isDisputed(statesOfItsDisputes: readonly DisputeState[]): boolean {
  return statesOfItsDisputes.some((state) => state !== 'decided');
}
