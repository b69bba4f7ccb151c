/**
 * Operator actions that need the operator's password and a new TOTP code sent with them (issue
 * 27, finding 4): a stolen session alone must not mint operators, hand out reset links or lift a
 * member's limits. The list is here, once; the services of those actions refuse a portal operator
 * without a proof for that very action and target, which only the sign-in service's confirmation
 * (`confirmStepUp`, src/sessions/auth.service.ts; the page: src/portal/step-up.ts) makes, after
 * checking both as a sign-in would. The CLI needs none: the
 * machine's own access control stands for it (operator-log.ts).
 */
import type { Actor } from '../actors/actor.ts';
import type { StepUpAction, StepUpProof } from '../actors/step-up-proof.ts';
import { DomainError } from '../lib/errors.ts';
import { normaliseEmail } from '../users/users.service.ts';

export { STEP_UP_ACTIONS, type StepUpAction, type StepUpProof } from '../actors/step-up-proof.ts';

/** What an action is done to, as the proof names it. */
export const stepUpTarget = {
  user: (email: string) => `user:${normaliseEmail(email)}`,
  member: (ref: string) => `member:${ref}`,
};

const issued = new WeakSet<StepUpProof>();

/** For src/sessions/auth.service.ts alone (`confirmStepUp`), once it has checked the password and the code. */
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
