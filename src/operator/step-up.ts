/**
 * Operator actions that need the operator's password and a new TOTP code sent with them (issue
 * 27, finding 4): a stolen session alone must not mint operators, hand out reset links or lift a
 * member's limits. The list is here, once; the services of those actions refuse a portal operator
 * without a proof for that very action and target, which only the portal's confirmation
 * (src/portal/step-up.ts) makes, after checking both as a sign-in would. The CLI needs none: the
 * machine's own access control stands for it (operator-log.ts).
 */
import type { Actor } from '../actors/actor.ts';
import { DomainError } from '../lib/errors.ts';
import { normaliseEmail } from '../users/users.service.ts';

/**
 * Every action that needs a confirmation. `member.portal_daily_limit` is the per-member daily
 * portal allowance (D28 amended), wired as `member.key_daily_limit` (requireStepUp in its service,
 * withStepUp around its route). `user.invite` is inviting a member's user or administrator (attack
 * round): an account minted from a stolen session outlives it (a key, searches every day).
 * `user.disable_operator`: a stolen session must not shut the other operators out of the console.
 * `member.watchlist_cap` (D31) is wired as the other limits: more companies followed for free.
 */
export const STEP_UP_ACTIONS = [
  'user.invite_operator',
  'user.invite',
  'user.reset',
  'user.disable_operator',
  'member.status',
  'member.key_daily_limit',
  'member.portal_daily_limit',
  'member.watchlist_cap',
] as const;
export type StepUpAction = (typeof STEP_UP_ACTIONS)[number];

/** What an action is done to, as the proof names it. */
export const stepUpTarget = {
  user: (email: string) => `user:${normaliseEmail(email)}`,
  member: (ref: string) => `member:${ref}`,
};

/** That this operator confirmed this action on this target just now. Made only by `proveStepUp`. */
export interface StepUpProof {
  readonly userId: number;
  readonly action: StepUpAction;
  readonly target: string;
}

const issued = new WeakSet<StepUpProof>();

/** For src/portal/step-up.ts alone, once it has checked the password and the code. */
export function proveStepUp(userId: number, action: StepUpAction, target: string): StepUpProof {
  const proof = Object.freeze({ userId, action, target });
  issued.add(proof);
  return proof;
}

/** Refuses a portal operator without a proof for exactly this action and target. */
export function requireStepUp(actor: Actor, action: StepUpAction, target: string): void {
  if (actor.kind === 'cli') return;
  const proof = actor.kind === 'operator' ? actor.stepUp : undefined;
  if (actor.kind === 'operator' && proof && issued.has(proof) && proof.userId === actor.userId && proof.action === action && proof.target === target) return;
  throw new DomainError('forbidden', 'confirm this action with your password and a new code from your authenticator app', {
    code: 'operator.step_up_required',
  });
}
