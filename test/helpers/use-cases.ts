/**
 * The use cases as the tests call them most: the filer, operator or member's user given as ids,
 * made into the actor the portal would make (guards.ts `actorOf`), each call through the factory
 * the composition root builds (src/services.ts).
 */
import type { Actor } from '../../src/actors/actor.ts';
import type { RecordInput, ReportCorrection } from '../../src/disputes/dispute-input.ts';
import { createDisputes, type DisputeDeps } from '../../src/disputes/disputes.service.ts';
import type { AttachmentUpload } from '../../src/reports/attachments.ts';
import { createFiling, type FilingDeps, type FilingRequest } from '../../src/reports/filing.service.ts';
import { createReportModeration, type ModerationDeps } from '../../src/reports/moderation.service.ts';
import type { ModerationStep } from '../../src/reports/filing-rules.ts';

/** A member's user, by ids (the role does not matter to filing and disputes). */
export interface Filer {
  userId: number;
  memberId: number;
}

export const memberUserActor = (user: Filer): Actor => ({ kind: 'member_user', userId: user.userId, memberId: user.memberId, role: 'member_user' });
export const operatorActor = (operator: { userId: number }): Actor => ({ kind: 'operator', userId: operator.userId });

export const fileReport = (deps: FilingDeps, filer: Filer, input: FilingRequest) => createFiling(deps).file(memberUserActor(filer), input);

export const recordDispute = (deps: DisputeDeps, operator: { userId: number }, input: RecordInput, uploads: readonly AttachmentUpload[] = []) =>
  createDisputes(deps).record(operatorActor(operator), { ...input, uploads });

export const decideDispute = (
  deps: DisputeDeps,
  operator: { userId: number },
  disputeId: number,
  decision: { outcome: string; reason: string; corrections?: readonly ReportCorrection[] },
) => createDisputes(deps).decide(operatorActor(operator), { disputeId, ...decision });

export const supportInDispute = (
  deps: DisputeDeps,
  user: Filer,
  disputeId: number,
  reportId: number,
  text: string,
  uploads: readonly AttachmentUpload[] = [],
) => createDisputes(deps).support(memberUserActor(user), { disputeId, reportId, text, uploads });

/** An operator's moderation step (D11, D30), as the console's buttons take it. */
export const approveReport = (deps: ModerationDeps, operator: { userId: number }, reportId: number, reason?: string | null) =>
  createReportModeration(deps).moderate(operatorActor(operator), { reportId, step: 'approve', reason });
export const rejectReport = (deps: ModerationDeps, operator: { userId: number }, reportId: number, reason: string) =>
  createReportModeration(deps).moderate(operatorActor(operator), { reportId, step: 'reject', reason });
export const deactivateReport = (deps: ModerationDeps, operator: { userId: number }, reportId: number, reason: string) =>
  createReportModeration(deps).moderate(operatorActor(operator), { reportId, step: 'deactivate', reason });
/** The filing member's user withdraws its report (D29). */
export const withdrawReport = (deps: ModerationDeps, user: Filer, reportId: number, note: string) =>
  createReportModeration(deps).withdraw(memberUserActor(user), { reportId, note });
/** Any step by an operator or a member's user, as a button names it. */
export const moderateReport = (
  deps: ModerationDeps,
  who: { kind: 'operator'; userId: number } | ({ kind: 'member' } & Filer),
  reportId: number,
  step: ModerationStep,
  reason?: string | null,
) => createReportModeration(deps).moderate(who.kind === 'operator' ? operatorActor(who) : memberUserActor(who), { reportId, step, reason });
/** A D11 status change by name (the CLI's `report status`). */
export const setReportStatus = (deps: ModerationDeps, actor: Actor, input: { idOrRef: string; to: string; reason?: string | null }) =>
  createReportModeration(deps).setReportStatus(actor, input);
