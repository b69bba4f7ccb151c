/**
 * Disputes by the reported company (D33), the use cases: record (operator), support or withdraw
 * (the filing member), lapse (the daily job), decide and enter the company's statement
 * (operator). Each reads the dispute in its transaction, asks the pure rules (dispute-record.ts,
 * dispute-rules.ts) and writes, in that one transaction: the dispute (only if still the version
 * read: of two steps at once exactly one wins), the members' answers, what the step does to the
 * reports (D29's steps with their history rows, or the correction), `reports.disputed` and
 * `reports.dispute_statement` (what search shows), a history row on every report the step touches,
 * the dispute's own step row, the operator log, and the watchers' events through the seam
 * (events/company-changes.ts) where a dispute opens, closes or a report's visibility may change.
 */
import { betweenBatches } from '../lib/next-turn.ts';
import type { Db } from '../db/types.ts';
import { fetchDisputeAttachment, getDisputeForOperator, listDecidedDisputes, listDisputeQueue, listDisputesForMember } from './dispute-queries.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import { stated, type StatedProblem } from '../lib/problems.ts';
import { turkeyDateOf } from '../lib/calendar-date.ts';
import { isCalendarDate } from '../lib/turkey-time.ts';
import { appendOperatorLog } from '../operator/operator-log.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { recordCompanyChanges as realRecordCompanyChanges, type CompanyChangeKind, type RecordCompanyChanges } from '../events/company-changes.ts';
import { requireMemberUser, requireOperator } from '../reports/acting-user.ts';
import type { Actor } from '../actors/actor.ts';
import { checkAttachments, type AttachmentUpload } from '../reports/attachments.ts';
import { DESCRIPTION_MAX } from '../reports/filing-input.ts';
import { updateReportStatusIf } from '../reports/filing.repository.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import { checkAmount, checkCase, checkConcordat, checkCourtDecisionDate } from '../reports/report-fields.ts';
import type { ReportType } from '../reports/report-types.ts';
import { findReportById, insertStatusChange } from '../reports/reports.repository.ts';
import { refreshVisibleCount } from '../reports/reports.service.ts';
import { retentionAnchorOf } from '../retention/retention-rules.ts';
import { checkRecord } from './dispute-record.ts';
import type { RecordInput, ReportCorrection } from './dispute-input.ts';
import type { ReportEffect } from './dispute-effects.ts';
import { takeDisputeStep, type DisputeActor, type DisputeFacts, type DisputeState, type StepInput } from './dispute-rules.ts';
import {
  closeDisputeReports,
  factsOf,
  findDispute,
  findReportsForDispute,
  insertDispute,
  insertDisputeAttachments,
  insertDisputeReports,
  insertDisputeStep,
  listAwaitingToldBefore,
  listDisputeReports,
  updateDisputeIf,
  updateDisputeReport,
  type DisputeRow,
} from './disputes.repository.ts';

export interface DisputeDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** The watchers' seam (D31); a test passes a spy. */
  readonly recordCompanyChanges?: RecordCompanyChanges;
}

/** Who took a step, as the history rows and the operator log name them. */
interface By {
  readonly label: string;
  readonly userId: number | null;
}

export const LAPSE_JOB_LABEL = 'job:dispute-lapse';

const notFound = (id: number) => new DomainError('not_found', `there is no dispute ${id}`, { code: 'dispute.not_found', params: { id } });

async function companyKeyOf(db: Db, companyId: number): Promise<{ country: string; taxIdNorm: string }> {
  const c = await db.selectFrom('companies').select(['country', 'tax_id_norm']).where('id', '=', companyId).executeTakeFirstOrThrow();
  return { country: c.country, taxIdNorm: c.tax_id_norm };
}

async function tellWatchers(deps: DisputeDeps, trx: Db, now: number, companyId: number, kinds: readonly CompanyChangeKind[]): Promise<void> {
  const seam = deps.recordCompanyChanges ?? realRecordCompanyChanges;
  const key = await companyKeyOf(trx, companyId);
  await seam(trx as Parameters<RecordCompanyChanges>[0], now, [{ ...key, kinds }]);
}

/** One history row on a report for a dispute step that leaves its status as it is (D33: every step in the report's history). */
async function noteOnReport(trx: Db, reportId: number, now: number, by: By, reason: string): Promise<void> {
  const report = await findReportById(trx, reportId);
  if (!report) return;
  await insertStatusChange(trx, {
    report_id: reportId,
    from_status: report.status,
    to_status: report.status,
    changed_at: now,
    changed_by: by.label,
    changed_by_user_id: by.userId,
    reason,
  });
}

/** D33: records a dispute the company sent; the filing members are told at once (their portal). */
async function recordDispute(
  deps: DisputeDeps,
  operator: { userId: number },
  input: RecordInput,
  uploads: readonly AttachmentUpload[] = [],
): Promise<{ disputeId: number; state: DisputeState }> {
  const files = checkAttachments(uploads);
  return deps.db.transaction().execute(async (trx) => {
    const user = await requireOperator(trx, operator.userId);
    const now = deps.clock.now();
    const found = await findReportsForDispute(trx, input.reportIds);
    const checked = checkRecord({ kind: 'operator', userId: operator.userId }, input, found, now);
    if (!checked.ok) throw checked.error;
    const { input: clean } = checked;
    const disputeId = await insertDispute(trx, {
      company_id: checked.companyId,
      state: checked.state,
      outcome: null,
      identification_method: clean.identification.method,
      identification_reference: clean.identification.reference,
      received_on: clean.receivedOn,
      grounds: clean.grounds,
      members_told_at: checked.membersToldAt,
      decision_reason: null,
      decided_at: null,
      statement: null,
      recorded_by_user_id: operator.userId,
      created_at: now,
      updated_at: now,
    });
    // A second recording of one report at once: the unique index refuses one of them.
    try {
      await insertDisputeReports(trx, disputeId, checked.reports);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new DomainError('conflict', `one of the reports was put in another dispute meanwhile: reload and look again`, {
        code: 'dispute.changed_meanwhile',
        params: { id: disputeId },
      });
    }
    await insertDisputeAttachments(
      trx,
      files.map((f) => ({
        dispute_id: disputeId,
        report_id: null,
        member_id: null,
        file_name: f.fileName,
        content_type: f.contentType,
        size_bytes: f.sizeBytes,
        sha256: f.sha256,
        content: f.content,
        created_at: now,
      })),
    );
    const by = { label: user.label, userId: operator.userId };
    for (const r of checked.reports) {
      await trx.updateTable('reports').set({ disputed: 1, updated_at: now }).where('id', '=', r.reportId).execute();
      await noteOnReport(trx, r.reportId, now, by, `dispute ${disputeId} recorded (${clean.identification.method}, received ${clean.receivedOn})`);
    }
    await insertDisputeStep(trx, {
      dispute_id: disputeId,
      step: 'record',
      report_id: null,
      at: now,
      by_label: by.label,
      user_id: by.userId,
      from_state: null,
      to_state: checked.state,
      text: clean.grounds,
    });
    await appendOperatorLog(trx, {
      at: now,
      userId: operator.userId,
      actor: user.label,
      action: 'dispute.record',
      target: `dispute:${disputeId}`,
      before: null,
      after: {
        state: checked.state,
        company: checked.companyId,
        reports: checked.reports.map((r) => r.reportId),
        identification: clean.identification.method,
        received_on: clean.receivedOn,
        attachments: files.map((f) => f.fileName),
      },
    });
    await tellWatchers(deps, trx, now, checked.companyId, ['report_disputed']);
    return { disputeId, state: checked.state };
  });
}

/** The filing member supports its report (text, attachments) within its 15 days. */
async function supportInDispute(
  deps: DisputeDeps,
  user: { userId: number; memberId: number },
  disputeId: number,
  reportId: number,
  text: string,
  uploads: readonly AttachmentUpload[] = [],
) {
  const files = checkAttachments(uploads);
  return memberStep(deps, user, disputeId, { step: 'support', reportId, text }, async (trx, now) => {
    await insertDisputeAttachments(
      trx,
      files.map((f) => ({
        dispute_id: disputeId,
        report_id: reportId,
        member_id: user.memberId,
        file_name: f.fileName,
        content_type: f.contentType,
        size_bytes: f.sizeBytes,
        sha256: f.sha256,
        content: f.content,
        created_at: now,
      })),
    );
    return files.map((f) => f.fileName);
  });
}

/** The filing member withdraws its report in the dispute (D29's withdrawal, the note kept). */
function withdrawInDispute(deps: DisputeDeps, user: { userId: number; memberId: number }, disputeId: number, reportId: number, note: string) {
  return memberStep(deps, user, disputeId, { step: 'withdraw', reportId, note });
}

async function memberStep(
  deps: DisputeDeps,
  user: { userId: number; memberId: number },
  disputeId: number,
  input: Extract<StepInput, { step: 'support' | 'withdraw' }>,
  extra?: (trx: Db, now: number) => Promise<string[]>,
) {
  return deps.db.transaction().execute(async (trx) => {
    const acting = await requireMemberUser(trx, user.userId, user.memberId);
    const loaded = await load(trx, disputeId);
    // Another member's users learn nothing: the same answer as for a dispute that does not exist.
    if (!loaded)
      throw new DomainError('not_found', `no dispute ${disputeId} concerns your member's reports`, {
        code: 'dispute.not_found_for_member',
        params: { id: disputeId },
      });
    const now = deps.clock.now();
    const actor: DisputeActor = { kind: 'member_user', userId: user.userId, memberId: user.memberId };
    const attachments = extra ? await extra(trx, now) : [];
    return applyStep(deps, trx, loaded, actor, input, now, { label: acting.label, userId: user.userId }, { attachments });
  });
}

/** The operator's decision: upheld, corrected (with the correction) or removed, with the reason given to the company. */
function decideDispute(
  deps: DisputeDeps,
  operator: { userId: number },
  disputeId: number,
  decision: { outcome: string; reason: string; corrections?: readonly ReportCorrection[] },
) {
  return operatorStep(deps, operator, disputeId, { step: 'decide', ...decision });
}

/** The company's statement (at most 500 characters) after an upheld decision, shown with its reports. */
function setDisputeStatement(deps: DisputeDeps, operator: { userId: number }, disputeId: number, text: string) {
  return operatorStep(deps, operator, disputeId, { step: 'set_statement', text });
}

async function operatorStep(deps: DisputeDeps, operator: { userId: number }, disputeId: number, input: StepInput) {
  return deps.db.transaction().execute(async (trx) => {
    const user = await requireOperator(trx, operator.userId);
    const loaded = await load(trx, disputeId);
    if (!loaded) throw notFound(disputeId);
    const now = deps.clock.now();
    return applyStep(deps, trx, loaded, { kind: 'operator', userId: operator.userId }, input, now, { label: user.label, userId: operator.userId });
  });
}

/**
 * The daily job's work: every dispute whose filing members' 15 days are over lapses, each in its
 * own transaction; an approved claim not supported is deactivated with D33's reason. Catching up
 * after missed days needs nothing more: a dispute late by three days lapses like one late by one.
 */
async function lapseOverdueDisputes(deps: DisputeDeps, signal?: AbortSignal): Promise<number[]> {
  const now = deps.clock.now();
  // Told at least 15 days ago (a day or more on either side is left to the rules: Turkey calendar days).
  const candidates = await listAwaitingToldBefore(deps.db, now - 14 * 24 * 3_600_000);
  const lapsed: number[] = [];
  for (const id of candidates) {
    await betweenBatches(signal);
    const done = await deps.db.transaction().execute(async (trx) => {
      const loaded = await load(trx, id);
      if (!loaded || loaded.facts.state !== 'awaiting_member') return false;
      const result = takeDisputeStep({ kind: 'system', job: 'dispute-lapse' }, loaded.facts, { step: 'lapse' }, now);
      if (!result.ok) return false;
      await applyStep(deps, trx, loaded, { kind: 'system', job: 'dispute-lapse' }, { step: 'lapse' }, now, { label: LAPSE_JOB_LABEL, userId: null });
      return true;
    });
    if (done) lapsed.push(id);
  }
  return lapsed;
}

interface Loaded {
  readonly row: DisputeRow;
  readonly facts: DisputeFacts;
}

async function load(trx: Db, id: number): Promise<Loaded | null> {
  const row = await findDispute(trx, id);
  if (!row) return null;
  return { row, facts: factsOf(row, await listDisputeReports(trx, id)) };
}

const STEP_WORDS: Record<StepInput['step'], string> = {
  support: 'supported by the filing member',
  withdraw: 'withdrawn by the filing member',
  lapse: 'the filing member did not answer within 15 days',
  decide: 'decided',
  set_statement: "the company's statement added",
};

async function applyStep(
  deps: DisputeDeps,
  trx: Db,
  loaded: Loaded,
  actor: DisputeActor,
  input: StepInput,
  now: number,
  by: By,
  extra: { attachments?: string[] } = {},
) {
  const { row, facts } = loaded;
  const disputeId = facts.id;
  const result = takeDisputeStep(actor, facts, input, now);
  if (!result.ok) throw result.error;
  const decided = result.state === 'decided';
  const changes: Parameters<typeof updateDisputeIf>[3] = { state: result.state, updated_at: now };
  if (input.step === 'decide') Object.assign(changes, { outcome: result.outcome, decision_reason: result.text ?? '', decided_at: now });
  if (input.step === 'set_statement') changes.statement = result.text ?? '';
  if (!(await updateDisputeIf(trx, disputeId, Number(row.version), changes))) {
    throw new DomainError('conflict', `dispute ${disputeId} was changed meanwhile: reload and look again`, {
      code: 'dispute.changed_meanwhile',
      params: { id: disputeId },
    });
  }
  // The members' answers that moved.
  for (const after of result.reports) {
    const before = facts.reports.find((r) => r.reportId === after.reportId)!;
    if (before.response === after.response) continue;
    const own = 'reportId' in input && input.reportId === after.reportId;
    await updateDisputeReport(trx, disputeId, after.reportId, {
      response: after.response,
      ...(own ? { response_text: result.text, responded_at: now, responded_by_user_id: by.userId } : { responded_at: now }),
    });
  }
  if (decided && facts.state !== 'decided') await closeDisputeReports(trx, disputeId);

  // What the step does to the reports: D29's steps with their history rows, or the correction.
  const touched = new Set<number>();
  let visibilityMayChange = false;
  const corrected: Array<{ reportId: number; before: Record<string, unknown>; after: Record<string, unknown> }> = [];
  for (const effect of result.effects) {
    touched.add(effect.reportId);
    if (effect.kind === 'correct') {
      corrected.push({ reportId: effect.reportId, ...(await applyCorrection(trx, effect, now, by)) });
    } else {
      await applyStatusEffect(trx, effect, now, by);
      visibilityMayChange = true;
    }
  }
  // What search shows: `disputed` while undecided; the statement on every report of an upheld dispute.
  const ids = facts.reports.map((r) => r.reportId);
  if (decided && facts.state !== 'decided') {
    await trx.updateTable('reports').set({ disputed: 0, updated_at: now }).where('id', 'in', ids).execute();
  }
  if (input.step === 'set_statement') {
    await trx.updateTable('reports').set({ dispute_statement: result.text, updated_at: now }).where('id', 'in', ids).execute();
  }
  // Every step in the history of the reports it concerns (those a status step moved have their row already).
  const concerned = 'reportId' in input ? [input.reportId] : ids;
  const words = stepWords(disputeId, input, result.outcome, result.text);
  for (const reportId of concerned) if (!touched.has(reportId)) await noteOnReport(trx, reportId, now, by, words);

  await insertDisputeStep(trx, {
    dispute_id: disputeId,
    step: input.step,
    report_id: 'reportId' in input ? input.reportId : null,
    at: now,
    by_label: by.label,
    user_id: by.userId,
    from_state: facts.state,
    to_state: result.state,
    text: result.text,
  });
  const companyId = Number(row.company_id);
  if (visibilityMayChange) await refreshVisibleCount(trx, companyId);
  await appendOperatorLog(trx, {
    at: now,
    userId: by.userId,
    actor: by.label,
    action: `dispute.${input.step}`,
    target: `dispute:${disputeId}`,
    before: { state: facts.state, ...(corrected.length > 0 ? { reports: corrected.map((c) => ({ report: c.reportId, ...c.before })) } : {}) },
    after: {
      state: result.state,
      ...(result.outcome ? { outcome: result.outcome } : {}),
      ...('reportId' in input ? { report: input.reportId } : {}),
      ...(result.text !== null ? { text: result.text } : {}),
      ...(result.effects.length > 0 ? { effects: result.effects.map((e) => ({ report: e.reportId, step: e.kind })) } : {}),
      ...(corrected.length > 0 ? { reports: corrected.map((c) => ({ report: c.reportId, ...c.after })) } : {}),
      ...(extra.attachments && extra.attachments.length > 0 ? { attachments: extra.attachments } : {}),
    },
  });
  // D31: a dispute closing, or a report leaving search, is a change the watchers hear of.
  const kinds: CompanyChangeKind[] = decided && facts.state !== 'decided' ? ['dispute_closed'] : [];
  if (kinds.length > 0 || visibilityMayChange || corrected.length > 0) await tellWatchers(deps, trx, now, companyId, kinds);
  return { disputeId, from: facts.state, state: result.state, outcome: result.outcome, effects: result.effects };
}

function stepWords(disputeId: number, input: StepInput, outcome: string | null, text: string | null): string {
  const base = `dispute ${disputeId}: ${STEP_WORDS[input.step]}${input.step === 'decide' && outcome ? ` ${outcome}` : ''}`;
  return text === null ? base : `${base}: ${text}`.slice(0, 1000);
}

async function applyStatusEffect(trx: Db, effect: Extract<ReportEffect, { kind: 'withdraw' | 'deactivate' | 'reject' }>, now: number, by: By) {
  const to: ReportStatus = effect.kind === 'withdraw' ? 'withdrawn' : effect.kind === 'deactivate' ? 'deactivated' : 'rejected';
  if (!(await updateReportStatusIf(trx, effect.reportId, effect.from, to, now))) {
    const current = await findReportById(trx, effect.reportId);
    const status = current?.status ?? 'gone';
    throw new DomainError('conflict', `report ${effect.reportId} was changed meanwhile (it is now ${status}): reload and look again`, {
      code: 'dispute.report_changed_meanwhile',
      params: { id: effect.reportId, status },
    });
  }
  await insertStatusChange(trx, {
    report_id: effect.reportId,
    from_status: effect.from,
    to_status: to,
    changed_at: now,
    changed_by: by.label,
    changed_by_user_id: by.userId,
    reason: effect.reason.slice(0, 2000),
  });
}

/**
 * A `corrected` decision's change to one report, checked against its type and the values it keeps
 * (report-fields.ts, as filing and the import check them). Returns the values before and after.
 */
async function applyCorrection(trx: Db, effect: Extract<ReportEffect, { kind: 'correct' }>, now: number, by: By) {
  const report = await findReportById(trx, effect.reportId);
  if (!report) throw notFound(effect.reportId);
  const type = report.type as ReportType;
  const f = effect.fields;
  const problems: StatedProblem[] = [];
  const at = `report ${effect.reportId}: `;
  const merged: Record<string, unknown> = {
    amount: report.amount_minor === null ? null : Number(report.amount_minor) / 100,
    currency: report.currency,
    court_decision_date: report.court_decision_date,
    concordat_start: report.concordat_start,
    concordat_end: report.concordat_end,
    case: report.case_json === null ? null : (JSON.parse(report.case_json) as unknown),
    ...f,
  };
  const [amountMinor, currency] = checkAmount(merged, at, problems);
  const courtDecisionDate = checkCourtDecisionDate(merged, type, at, problems);
  const [concordatStart, concordatEnd] = checkConcordat(merged, type, at, problems);
  const caseJson = checkCase(merged, type, at, problems);
  let description = report.description;
  if ('description' in f) {
    const text = typeof f.description === 'string' ? f.description.trim() : '';
    if (text === '') problems.push(stated(`${at}description is required`, { code: 'field.required', params: { field: 'description' } }));
    else if (text.length > DESCRIPTION_MAX)
      problems.push(
        stated(`${at}description is longer than ${DESCRIPTION_MAX} characters`, {
          code: 'field.too_long',
          params: { field: 'description', max: DESCRIPTION_MAX },
        }),
      );
    else if (hasForbiddenCharacters(text, { lines: true }))
      problems.push(stated(`${at}description contains control characters`, { code: 'field.control_characters', params: { field: 'description' } }));
    description = text;
  }
  let eventDate = report.event_date;
  if ('event_date' in f) {
    const value = typeof f.event_date === 'string' ? f.event_date : '';
    if (!isCalendarDate(value))
      problems.push(stated(`${at}event_date must be a date YYYY-MM-DD`, { code: 'filing.event_date_invalid', params: { value: value.slice(0, 20) } }));
    else if (value > turkeyDateOf(now))
      problems.push(stated(`${at}event_date is in the future`, { code: 'filing.event_date_future', params: { date: value, today: turkeyDateOf(now) } }));
    eventDate = value;
  }
  if (problems.length > 0) throw new DomainError('invalid', problems.map((p) => p.message).join('; '), problems);
  const before = {
    amount_minor: report.amount_minor,
    currency: report.currency,
    court_decision_date: report.court_decision_date,
    concordat_start: report.concordat_start,
    concordat_end: report.concordat_end,
    case_json: report.case_json,
    description: report.description,
    event_date: report.event_date,
  };
  const after = {
    amount_minor: amountMinor,
    currency,
    court_decision_date: courtDecisionDate,
    concordat_start: concordatStart,
    concordat_end: concordatEnd,
    case_json: caseJson,
    description,
    event_date: eventDate,
  };
  // The corrected dates move the date the report ages from (D34): its retention end follows the
  // correction, and the next daily run expires it if the corrected date is past it.
  const anchor = retentionAnchorOf({
    type,
    eventDate,
    caseFields: caseJson === null ? null : (JSON.parse(caseJson) as Record<string, string>),
    courtDecisionDate,
    concordatEnd,
    filedAt: Number(report.filed_at),
  }).date;
  await trx
    .updateTable('reports')
    .set({ ...after, retention_anchor: anchor, updated_at: now })
    .where('id', '=', effect.reportId)
    .execute();
  const changedNames = Object.keys(after).filter((k) => before[k as keyof typeof before] !== after[k as keyof typeof after]);
  await insertStatusChange(trx, {
    report_id: effect.reportId,
    from_status: report.status,
    to_status: report.status,
    changed_at: now,
    changed_by: by.label,
    changed_by_user_id: by.userId,
    reason: `${effect.reason} (changed: ${changedNames.join(', ') || 'nothing'})`.slice(0, 2000),
  });
  const pick = (o: Record<string, unknown>) => Object.fromEntries(changedNames.map((k) => [k, o[k]]));
  return { before: pick(before), after: pick(after) };
}

/** The operator behind an operator's step: a signed-in operator (checked again in the step's transaction). */
function operatorOf(actor: Actor): { userId: number } {
  if (actor.kind !== 'operator') throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
  return { userId: actor.userId };
}

/** The member's user behind a member's answer. */
function memberUserOf(actor: Actor): { userId: number; memberId: number } {
  if (actor.kind !== 'member_user')
    throw new DomainError('forbidden', "only an active user of the member may act on the member's reports", { code: 'actor.not_member_user' });
  return { userId: actor.userId, memberId: actor.memberId };
}

/**
 * The dispute use cases (D33), built by the composition root (src/services.ts), each
 * `(actor, input)`: the operator records, decides and enters the statement; the filing member's
 * users support or withdraw; the daily job (a `system` actor) lapses the overdue ones.
 */
export function createDisputes(deps: DisputeDeps) {
  return {
    record: (actor: Actor, input: RecordInput & { uploads?: readonly AttachmentUpload[] }) => {
      const { uploads = [], ...record } = input;
      return recordDispute(deps, operatorOf(actor), record, uploads);
    },
    support: (actor: Actor, input: { disputeId: number; reportId: number; text: string; uploads?: readonly AttachmentUpload[] }) =>
      supportInDispute(deps, memberUserOf(actor), input.disputeId, input.reportId, input.text, input.uploads ?? []),
    withdraw: (actor: Actor, input: { disputeId: number; reportId: number; note: string }) =>
      withdrawInDispute(deps, memberUserOf(actor), input.disputeId, input.reportId, input.note),
    decide: (actor: Actor, input: { disputeId: number; outcome: string; reason: string; corrections?: readonly ReportCorrection[] }) => {
      const { disputeId, ...decision } = input;
      return decideDispute(deps, operatorOf(actor), disputeId, decision);
    },
    setStatement: (actor: Actor, input: { disputeId: number; text: string }) => setDisputeStatement(deps, operatorOf(actor), input.disputeId, input.text),
    /** The daily job's run (dispute-lapse.job.ts); only a system job lapses disputes. */
    lapseOverdue: (actor: Actor, input: { signal?: AbortSignal } = {}) => {
      if (actor.kind !== 'system') throw new DomainError('forbidden', 'only the daily job lapses disputes', { code: 'actor.not_operator' });
      return lapseOverdueDisputes(deps, input.signal);
    },
    /** The disputes of the actor's member's reports, as its users see them. */
    listMine: (actor: Actor) => listDisputesForMember(deps.db, memberUserOf(actor).memberId, deps.clock.now()),
    /** The undecided disputes, by days left (operators). */
    queue: (actor: Actor) => (operatorOf(actor), listDisputeQueue(deps.db, deps.clock.now())),
    /** The disputes decided lately (operators). */
    decided: (actor: Actor) => (operatorOf(actor), listDecidedDisputes(deps.db)),
    /** Which of these reports can be disputed and which are in an undecided dispute (operators: the new-dispute form). */
    reportsForDispute: (actor: Actor, input: { reportIds: readonly number[] }) => (operatorOf(actor), findReportsForDispute(deps.db, input.reportIds)),
    /** One dispute with its history and documents (operators). */
    forOperator: (actor: Actor, input: { disputeId: number }) => (operatorOf(actor), getDisputeForOperator(deps.db, input.disputeId, deps.clock.now())),
    /** A dispute's document: an operator's, or a user's of the member whose report it is; anyone else's is not_found. */
    attachment: (actor: Actor, input: { attachmentId: number }) =>
      fetchDisputeAttachment(
        deps.db,
        actor.kind === 'operator' ? { kind: 'operator' } : { kind: 'member', memberId: memberUserOf(actor).memberId },
        input.attachmentId,
      ),
  };
}

export type Disputes = ReturnType<typeof createDisputes>;
