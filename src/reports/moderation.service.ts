/**
 * Moderation of filed reports (D29, D30): an operator approves, rejects (reason) or deactivates
 * (reason); a user of the filing member withdraws (note). Each step, in one transaction: the
 * rule (filing-rules.ts), the status moved only if it is still what was read (of two operators at
 * once exactly one wins), the history row (from, to, user, time, reason), the company's visible
 * count (D12), on a first approval the name and city of a company created by filing, and, for an operator's step, the operator log. Ordinary statements: the version
 * triggers keep the search cache exact (the write protocol).
 */
import type { Transaction } from 'kysely';
import { recordCompanyChangeById } from '../events/company-changes.ts';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { updateCompany } from '../companies/companies.repository.ts';
import type { Actor } from '../actors/actor.ts';
import { appendOperatorLog, operatorIdentity } from '../operator/operator-log.ts';
import { nameColumnsOf, renamedCompany } from '../companies/company-row.ts';
import { requireMemberUser, requireOperator } from './acting-user.ts';
import { checkStep, REASON_MAX, type ModerationStep, type StepCheck } from './filing-rules.ts';
import { companyHasPublicHistory, updateReportStatusIf } from './filing.repository.ts';
import { checkTransition, isReportStatus, type ReportStatus } from './lifecycle.ts';
import { findCompanyById } from './report-queries.repository.ts';
import { findReportById, insertStatusChange, type ReportRow } from './reports.repository.ts';
import { findReportByIdOrRef, refreshVisibleCount } from './reports.service.ts';
import type { Db } from '../db/types.ts';

export interface ModerationDeps {
  db: Db;
  clock: Clock;
}

export interface ModerationResult {
  reportId: number;
  companyId: number;
  from: ReportStatus;
  to: ReportStatus;
  reason: string | null;
  /** The company's visible report count after the step (D12). */
  visibleReportCount: number;
}

type Who = { kind: 'operator'; userId: number } | { kind: 'member'; userId: number; memberId: number };

async function takeStep(deps: ModerationDeps, who: Who, reportId: number, step: ModerationStep, reason: string | null | undefined) {
  return deps.db.transaction().execute(async (trx): Promise<ModerationResult> => {
    const user = who.kind === 'operator' ? await requireOperator(trx, who.userId) : await requireMemberUser(trx, who.userId, who.memberId);
    const report = Number.isSafeInteger(reportId) ? await findReportById(trx, reportId) : undefined;
    if (!report) {
      throw who.kind === 'member'
        ? new DomainError('not_found', `no report ${reportId} among your member's reports`, { code: 'report.not_found_for_member', params: { id: reportId } })
        : new DomainError('not_found', `no report ${reportId}`, { code: 'report.not_found', params: { id: reportId } });
    }
    const reportedBy = report.reported_by === null ? null : Number(report.reported_by);
    const check = checkStep(user.actor, { id: reportId, status: report.status as ReportStatus, reportedBy }, step, reason);
    if (!check.ok) throw new DomainError(check.kind, check.message, check.problem);
    return writeStep(trx, deps.clock.now(), report, check, step, { label: user.label, userId: who.userId, logged: who.kind === 'operator' });
  });
}

/**
 * Writes a checked step: the status (only if still `from`), the history row, on a first approval
 * the name and city of a company created by filing, the visible count and, for an operator's
 * step, the operator log.
 */
async function writeStep(
  trx: Transaction<Database>,
  now: number,
  report: ReportRow,
  check: { from: ReportStatus; to: ReportStatus; reason: string | null },
  step: ModerationStep,
  by: { label: string; userId: number | null; logged: boolean },
): Promise<ModerationResult> {
  const reportId = Number(report.id);
  const companyId = Number(report.company_id);
  // A company created by filing takes its public name and city from the first report an
  // operator approves on it, read before this approval is written: never from a rejected
  // filing, and never again once something of it has been public or imported.
  const renameTo =
    check.to === 'approved' && report.filed_company_name !== null && report.filed_city !== null && !(await companyHasPublicHistory(trx, companyId))
      ? { name: report.filed_company_name, city: report.filed_city }
      : null;
  if (!(await updateReportStatusIf(trx, reportId, check.from, check.to, now))) {
    const current = await findReportById(trx, reportId);
    const now = current?.status ?? 'gone';
    throw new DomainError('conflict', `report ${reportId} was changed meanwhile (it is now ${now}); reload and look again`, {
      code: 'report.changed_meanwhile',
      params: { id: reportId, status: now },
    });
  }
  await insertStatusChange(trx, {
    report_id: reportId,
    from_status: check.from,
    to_status: check.to,
    changed_at: now,
    changed_by: by.label,
    changed_by_user_id: by.userId,
    reason: check.reason,
  });
  let renamedFrom: { name: string; city: string } | null = null;
  if (renameTo) {
    const company = await findCompanyById(trx, companyId);
    renamedFrom = company ? { name: company.company_name, city: company.city } : null;
    await updateCompany(trx, companyId, renamedCompany(nameColumnsOf(renameTo.name), renameTo.city, now));
  }
  const visibleReportCount = await refreshVisibleCount(trx, companyId);
  // The watchers (D31): an approval, a withdrawal, a rejection or a deactivation may change what a
  // search answers (consensus reached or lost included), in this transaction.
  await recordCompanyChangeById(trx, now, companyId);
  if (by.logged) {
    await appendOperatorLog(trx, {
      at: now,
      userId: by.userId,
      actor: by.label,
      action: `report.${step}`,
      target: `report:${reportId}`,
      before: { status: check.from, ...(renamedFrom ? { company: renamedFrom } : {}) },
      after: { status: check.to, reason: check.reason, ...(renameTo ? { company: { name: renameTo.name, city: renameTo.city } } : {}) },
    });
  }
  return { reportId, companyId, from: check.from, to: check.to, reason: check.reason, visibleReportCount };
}

const STEP_TO: Partial<Record<ReportStatus, ModerationStep>> = { approved: 'approve', rejected: 'reject', deactivated: 'deactivate', withdrawn: 'withdraw' };

/**
 * The operator's CLI step (`risklookup report status ID_OR_REF STATUS --reason TEXT`): D11's
 * steps, and on a report filed through the portal also D29's rules (a reason to reject or
 * deactivate; only the filing member withdraws). Kept like a console step: the history row with
 * its reason, and the operator log (actor `cli:<name>` with the shell's user, as the
 * CLI's member, key and user commands; no user id). On an imported report a reason is
 * required to reject or deactivate too.
 */
async function setReportStatus(
  deps: ModerationDeps,
  actor: Actor,
  input: { idOrRef: string; to: string; reason?: string | null },
): Promise<ModerationResult & { ref: string | null }> {
  const { idOrRef, to, reason } = input;
  // The operator check (and, for a portal operator, their being active) before anything is read.
  if (actor.kind !== 'cli') await operatorIdentity(deps.db, actor);
  if (!isReportStatus(to)) {
    throw new DomainError('invalid', `unknown status '${to}': use pending, approved, rejected, withdrawn or deactivated`, {
      code: 'report.status_unknown',
      params: { value: to },
    });
  }
  return deps.db.transaction().execute(async (trx) => {
    const report = await findReportByIdOrRef(trx, idOrRef);
    if (!report) throw new DomainError('not_found', `no report with id or ref '${idOrRef}'`, { code: 'report.not_found_by_ref', params: { ref: idOrRef } });
    const from = report.status as ReportStatus;
    const refusal = checkTransition(from, to);
    const step = STEP_TO[to];
    if (refusal || !step) {
      throw new DomainError('conflict', `report ${report.id}: ${refusal ?? `cannot become ${to}`}`, {
        code: 'report.transition_refused',
        params: { id: Number(report.id), from, to },
      });
    }
    const reportedBy = report.reported_by === null ? null : Number(report.reported_by);
    // A filed report: the console's rules, the CLI acting as an operator (only the filing member
    // withdraws it). An imported one: D11's steps, with D29's reason rules.
    const check =
      report.filed_by_user_id !== null
        ? checkStep(CLI_OPERATOR, { id: Number(report.id), status: from, reportedBy }, step, reason)
        : checkImportedReason(from, to, step, reason);
    if (!check.ok) {
      if (check.kind !== 'forbidden') throw new DomainError(check.kind, check.message, check.problem);
      const message = `report ${report.id} was filed through the portal: only its filing member may withdraw it; deactivate it with --reason instead`;
      throw new DomainError('forbidden', message, { code: 'report.portal_withdraw_only', params: { id: Number(report.id) } });
    }
    const { label } = await operatorIdentity(trx, actor);
    const result = await writeStep(trx, deps.clock.now(), report, check, step, { label, userId: null, logged: true });
    return { ...result, ref: report.ref };
  });
}

const CLI_OPERATOR = { kind: 'operator', userId: 0 } as const;

/** D29's reason rules on a step D11 allows for an imported report: required to reject or deactivate. */
function checkImportedReason(from: ReportStatus, to: ReportStatus, step: ModerationStep, reason: string | null | undefined): StepCheck {
  const text = reason?.trim() ?? '';
  if (hasForbiddenCharacters(text, { lines: true })) {
    return {
      ok: false,
      kind: 'invalid',
      message: 'the reason contains control characters: type it again without them',
      problem: { code: 'field.control_characters', params: { field: 'reason' } },
    };
  }
  if ((step === 'reject' || step === 'deactivate') && text === '') {
    return {
      ok: false,
      kind: 'invalid',
      message: `a reason is required to ${step} a report: say why`,
      problem: { code: 'report.reason_required', params: { step } },
    };
  }
  if (text.length > REASON_MAX) {
    return {
      ok: false,
      kind: 'invalid',
      message: `the reason is longer than ${REASON_MAX} characters`,
      problem: { code: 'report.reason_too_long', params: { max: REASON_MAX } },
    };
  }
  return { ok: true, from, to, reason: text === '' ? null : text };
}

/**
 * Who takes a step, from the actor: a signed-in operator or a user of a member. What each may do
 * (an operator approves, rejects, deactivates; the filing member's user withdraws) is checkStep's
 * rule (filing-rules.ts), decided once there; the CLI changes a status through setReportStatus.
 */
function whoOf(actor: Actor): Who {
  if (actor.kind === 'operator') return { kind: 'operator', userId: actor.userId };
  if (actor.kind === 'member_user') return { kind: 'member', userId: actor.userId, memberId: actor.memberId };
  throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
}

/** The moderation use cases (D11, D29, D30), built by the composition root (src/services.ts). */
export function createReportModeration(deps: ModerationDeps) {
  return {
    /** A D11 step by status name on any report, imported or filed (the CLI's `report status`); operators and the CLI. */
    setReportStatus: (actor: Actor, input: { idOrRef: string; to: string; reason?: string | null }) => setReportStatus(deps, actor, input),
    /** A D11 step named by a button (the console's approve, reject, deactivate); who may take it is checkStep's rule. */
    moderate: async (actor: Actor, input: { reportId: number; step: ModerationStep; reason?: string | null }) =>
      takeStep(deps, whoOf(actor), input.reportId, input.step, input.reason),
    /** A user of the filing member withdraws its pending or approved report (e.g. the debt was paid). */
    withdraw: async (actor: Actor, input: { reportId: number; note: string }) => takeStep(deps, whoOf(actor), input.reportId, 'withdraw', input.note),
  };
}
