/**
 * The operator actions that need a confirmation and the proof an operator actor carries for one
 * (issue 27, finding 4). Apart from operator/step-up.ts, which makes and checks the proofs, so
 * that the Actor type (actor.ts) names the proof without importing the code that uses actors.
 */

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

/** That this operator confirmed this action on this target just now. Made only by `proveStepUp`. */
export interface StepUpProof {
  readonly userId: number;
  readonly action: StepUpAction;
  readonly target: string;
}
