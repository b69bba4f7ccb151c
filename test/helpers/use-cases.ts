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
