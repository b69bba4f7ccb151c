/**
 * What an operator or a member types into a dispute (D33), checked the one way every free text is
 * (lib/bidi-controls.ts): the company's identification and grounds, the day the request was
 * received, the member's support or withdrawal note, the decision's reason and correction, and
 * the company's statement after an upheld decision (at most 500 characters). Pure: each returns
 * the problems (codes, problems.ts) and the clean value.
 */
import { addDays, turkeyDateOf } from '../lib/calendar-date.ts';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import { stated, type StatedProblem } from '../lib/problems.ts';
import { isCalendarDate } from '../lib/turkey-time.ts';

export const IDENTIFICATION_METHODS = ['kep', 'e_signature', 'notarised_letter'] as const;
export type IdentificationMethod = (typeof IDENTIFICATION_METHODS)[number];

export const DISPUTE_OUTCOMES = ['upheld', 'corrected', 'removed'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

export const LIMITS = {
  /** The KEP address, the certificate's serial, the notary's journal number: one line. */
  identificationReference: 200,
  grounds: 2000,
  supportText: 2000,
  /** As a D29 withdrawal note (filing-rules.ts REASON_MAX). */
  note: 1000,
  decisionReason: 2000,
  /** D33. */
  statement: 500,
  reportsPerDispute: 50,
  /** A request received longer ago than this is a typed year, not a late recording. */
  receivedDaysBack: 365,
} as const;

/** The fields these texts are named by in problems (their words: portal/messages/problems-disputes.ts). */
export type DisputeTextField = 'identification_reference' | 'grounds' | 'support_text' | 'note' | 'decision_reason' | 'statement';

/**
 * The problems of one text: required or not, at most `max` characters after trimming, no control
 * or bidi characters (line breaks allowed where `lines`). Returns the trimmed text, or null when empty.
 */
export function checkText(
  field: DisputeTextField,
  raw: string | null | undefined,
  rule: { max: number; required: boolean; lines: boolean },
  problems: StatedProblem[],
): string | null {
  const text = raw?.trim() ?? '';
  const name = field.replaceAll('_', ' ');
  if (text === '') {
    if (rule.required) problems.push(stated(`${name} is required`, { code: 'field.required', params: { field } }));
    return null;
  }
  if (hasForbiddenCharacters(text, { lines: rule.lines })) {
    problems.push(stated(`${name} contains control characters: type it again without them`, { code: 'field.control_characters', params: { field } }));
  }
  if (text.length > rule.max) {
    problems.push(stated(`${name} is longer than ${rule.max} characters`, { code: 'field.too_long', params: { field, max: rule.max } }));
  }
  return text;
}

export interface RecordInput {
  readonly identificationMethod: string;
  readonly identificationReference: string;
  /** `YYYY-MM-DD`: the day the company's request reached the bureau (the 30 days run from it). */
  readonly receivedOn: string;
  readonly grounds: string;
  readonly reportIds: readonly number[];
}

export interface CheckedRecordInput {
  readonly identification: { readonly method: IdentificationMethod; readonly reference: string };
  readonly receivedOn: string;
  readonly grounds: string;
  /** Distinct, in the order given. */
  readonly reportIds: readonly number[];
}

/** Every problem of a dispute as the operator typed it, at once; the clean input when there are none. */
export function checkRecordInput(input: RecordInput, now: number): { input: CheckedRecordInput } | { problems: StatedProblem[] } {
  const problems: StatedProblem[] = [];
  const method = input.identificationMethod.trim();
  if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
    const value = method.slice(0, 50);
    problems.push(
      stated(`identification must be kep, e_signature or notarised_letter, got '${value}'`, { code: 'dispute.identification_method', params: { value } }),
    );
  }
  const reference = checkText(
    'identification_reference',
    input.identificationReference,
    { max: LIMITS.identificationReference, required: true, lines: false },
    problems,
  );
  const receivedOn = checkReceivedOn(input.receivedOn.trim(), now, problems);
  const grounds = checkText('grounds', input.grounds, { max: LIMITS.grounds, required: true, lines: true }, problems);
  const reportIds = [...new Set(input.reportIds)];
  if (reportIds.length === 0) problems.push(stated('name at least one report the company disputes', { code: 'dispute.no_reports' }));
  if (reportIds.length > LIMITS.reportsPerDispute) {
    const params = { max: LIMITS.reportsPerDispute, count: reportIds.length };
    problems.push(
      stated(`a dispute holds at most ${params.max} reports, ${params.count} were given: record several disputes`, {
        code: 'dispute.too_many_reports',
        params,
      }),
    );
  }
  if (problems.length > 0) return { problems };
  return {
    input: { identification: { method: method as IdentificationMethod, reference: reference! }, receivedOn: receivedOn!, grounds: grounds!, reportIds },
  };
}

function checkReceivedOn(value: string, now: number, problems: StatedProblem[]): string | null {
  if (!isCalendarDate(value)) {
    problems.push(
      stated(`the day the request was received must be a date YYYY-MM-DD, got '${value.slice(0, 20)}'`, {
        code: 'dispute.received_on_invalid',
        params: { value: value.slice(0, 20) },
      }),
    );
    return null;
  }
  const today = turkeyDateOf(now);
  if (value > today) {
    problems.push(
      stated(`the request cannot have been received on ${value}, after today (${today})`, {
        code: 'dispute.received_on_future',
        params: { date: value, today },
      }),
    );
    return null;
  }
  const min = addDays(today, -LIMITS.receivedDaysBack);
  if (value < min) {
    problems.push(
      stated(`the request was received on ${value}, before ${min}: check the year`, { code: 'dispute.received_on_too_early', params: { date: value, min } }),
    );
    return null;
  }
  return value;
}

/** What an operator may change in a report when a dispute is decided `corrected`. */
export const CORRECTABLE_FIELDS = [
  'event_date',
  'amount',
  'currency',
  'court_decision_date',
  'concordat_start',
  'concordat_end',
  'case',
  'description',
] as const;

/**
 * One report's correction: new values by field, in the shapes of the import and filing (D14,
 * D24), checked by src/reports/report-fields.ts against the report's type and merged values
 * when the decision is stored. The rule here: named fields only, at least one.
 */
export interface ReportCorrection {
  readonly reportId: number;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface DecisionInput {
  readonly outcome: string;
  /** The bureau's answer to the company (KVKK art. 13: reasons given), required for every outcome. */
  readonly reason: string;
  readonly corrections?: readonly ReportCorrection[];
}

/** The problems of a decision's own fields (the reports' part is checked against the dispute in dispute-rules.ts). */
export function checkDecisionInput(input: DecisionInput): { outcome: DisputeOutcome; reason: string } | { problems: StatedProblem[] } {
  const problems: StatedProblem[] = [];
  const outcome = input.outcome.trim();
  if (!(DISPUTE_OUTCOMES as readonly string[]).includes(outcome)) {
    const value = outcome.slice(0, 50);
    problems.push(stated(`the outcome must be upheld, corrected or removed, got '${value}'`, { code: 'dispute.outcome_invalid', params: { value } }));
  }
  const reason = checkText('decision_reason', input.reason, { max: LIMITS.decisionReason, required: true, lines: true }, problems);
  const corrections = input.corrections ?? [];
  if (outcome === 'corrected' && corrections.length === 0) {
    problems.push(stated('a corrected decision needs the correction: which report, which fields', { code: 'dispute.correction_required' }));
  }
  if (outcome !== 'corrected' && corrections.length > 0) {
    problems.push(stated('a correction is kept only with the outcome corrected', { code: 'dispute.correction_not_allowed' }));
  }
  for (const c of corrections) {
    const names = Object.keys(c.fields);
    if (names.length === 0)
      problems.push(stated(`the correction of report ${c.reportId} changes nothing`, { code: 'dispute.correction_empty', params: { report: c.reportId } }));
    for (const field of names.filter((n) => !(CORRECTABLE_FIELDS as readonly string[]).includes(n))) {
      const fields = CORRECTABLE_FIELDS.join(', ');
      problems.push(
        stated(`${field} cannot be corrected; correctable: ${fields}`, {
          code: 'dispute.correction_field_unknown',
          params: { field: field.slice(0, 50), fields },
        }),
      );
    }
  }
  return problems.length > 0 ? { problems } : { outcome: outcome as DisputeOutcome, reason: reason! };
}
