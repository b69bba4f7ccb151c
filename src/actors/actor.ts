/**
 * Who acts (issue 29): one type for every use case, `useCase(actor, input)`. The caller has
 * authenticated the actor (a portal session, the server's shell, a job); the use case decides
 * what each kind may do, reads a user actor again in its own transaction (a user disabled a
 * moment ago acts no more) and writes the operator log with `actorLabel`.
 */
import type { StepUpProof } from './step-up-proof.ts';

export type Actor =
  /** A signed-in user of a member (D27, D28). */
  | { readonly kind: 'member_user'; readonly userId: number; readonly memberId: number; readonly role: 'member_admin' | 'member_user' }
  /** A signed-in operator; `stepUp`: the operator's confirmation of an action that needs one (operator/step-up.ts). */
  | { readonly kind: 'operator'; readonly userId: number; readonly stepUp?: StepUpProof }
  /** A member's API key that passed D17's checks (the monitoring API, D31): acts for its member. */
  | { readonly kind: 'api_key'; readonly memberId: number }
  /**
   * Someone at the server's shell with the CLI: the machine's own access control stands for the
   * operator check. `user`: the shell's user; `by`: what a link says made it (`--by`).
   */
  | { readonly kind: 'cli'; readonly user: string; readonly by?: string }
  /** The reported company, whose requests (D33, D34) the bureau enters for it: room for the disputes' pages. */
  | { readonly kind: 'reported_company'; readonly companyId: number }
  /** A job of the service itself (the daily retention, a dispute's lapse). */
  | { readonly kind: 'system'; readonly job: string };

/** The actors that may take an operator's step: a signed-in operator or the CLI. */
export type OperatorActor = Extract<Actor, { kind: 'operator' | 'cli' }>;

export function cliActor(user: string, by?: string): Actor {
  return by === undefined ? { kind: 'cli', user } : { kind: 'cli', user, by };
}
