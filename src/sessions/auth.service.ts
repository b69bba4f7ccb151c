/**
 * Signing in as use cases (issue 29), built by the composition root (src/services.ts) with the
 * database, the clock and the key ring (D35): a sign-in with its slowing of guesses
 * (sign-in.service.ts), the known browsers, the one-time links a person accepts
 * (users/users.service.ts), and an operator's confirmation of an action (step-up) with its
 * operator-log entry. The portal's pages call these and keep the cookies and the words.
 */
import type { Actor } from '../actors/actor.ts';
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { appendOperatorLog, operatorIdentity } from '../operator/operator-log.ts';
import { proveStepUp, type StepUpAction, type StepUpProof } from '../operator/step-up.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { acceptLink, describeLink, enrolmentSeedOf, type Acceptance, type LinkInfo } from '../users/users.service.ts';
import type { UserRole } from '../db/schema.ts';
import { attemptSignIn, trustBrowser, type KnownBrowser, type SignInAttempt, type SignInOutcome } from './sign-in.service.ts';

export interface SignInDeps {
  db: Db;
  clock: Clock;
  /** D35: opens operators' TOTP seeds (sign-in, step-up) and links' seeds (enrolment). */
  keyRing: KeyRing;
}

/** An operator's confirmation: the action and its target (stepUpTarget), and the password and code sent with it. */
export interface StepUpRequest {
  action: StepUpAction;
  target: string;
  password: string;
  code: string;
  address: string;
  /** The browser's device-cookie tokens: a known browser is slowed on its own, as at sign-in. */
  deviceTokens: readonly string[];
}

export type StepUpOutcome =
  | { kind: 'confirmed'; proof: StepUpProof }
  /** Wrong password or code, or a code used before. */
  | { kind: 'refused' }
  /** Too many failures lately: nothing was checked; try again after `waitMs`. */
  | { kind: 'throttled'; waitMs: number };

/**
 * Checks an operator's password and a new TOTP code exactly as a sign-in does (the same slowing,
 * the same replay guard: a wrong one counts as a failed sign-in) and returns the proof the
 * action's service asks for (operator/step-up.ts). Each refusal is in the operator log (D30).
 */
async function confirmStepUp(deps: SignInDeps, actor: Actor, input: StepUpRequest): Promise<StepUpOutcome> {
  // A signed-in operator only: the CLI needs no confirmation (the machine's access control stands for it).
  if (actor.kind !== 'operator') throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
  const { label: email } = await operatorIdentity(deps.db, actor);
  const outcome = await attemptSignIn(deps.db, deps.clock, deps.keyRing, {
    email,
    password: input.password,
    code: input.code,
    address: input.address,
    deviceTokens: input.deviceTokens,
  });
  if (outcome.kind === 'signed_in' && outcome.userId === actor.userId)
    return { kind: 'confirmed', proof: proveStepUp(actor.userId, input.action, input.target) };
  const slowed = outcome.kind === 'throttled';
  await appendOperatorLog(deps.db, {
    at: deps.clock.now(),
    userId: actor.userId,
    actor: email,
    action: 'step_up.refused',
    target: input.target,
    before: null,
    after: {
      action: input.action,
      why: slowed ? 'too many wrong attempts lately: not checked' : 'wrong password or code, or a code used before',
      address: input.address,
    },
  });
  return slowed ? { kind: 'throttled', waitMs: outcome.waitMs } : { kind: 'refused' };
}

export function createSignIn(deps: SignInDeps) {
  return {
    /** One sign-in attempt (D27): signed in, refused (one answer for every reason) or slowed. */
    attempt: (attempt: SignInAttempt): Promise<SignInOutcome> => attemptSignIn(deps.db, deps.clock, deps.keyRing, attempt),
    /** Makes the browser a known one for the user; returns the new device-cookie token (replacing the one it signed in with). */
    trustBrowser: (userId: number, replacing: KnownBrowser | null): Promise<string> => trustBrowser(deps.db, deps.clock, userId, replacing),
    /** What an invitation or reset link's page shows, or null when the link does not work. */
    describeLink: (token: string): Promise<LinkInfo | null> => describeLink(deps.db, deps.clock, token),
    /** The TOTP seed an operator's link enrols, or null for any other link. */
    enrolmentSeedOf: (token: string): Promise<string | null> => enrolmentSeedOf(deps.db, deps.clock, deps.keyRing, token),
    /** Accepts a link (name, password, an operator's first code); the caller then starts the user's session. */
    acceptLink: (input: Omit<Acceptance, 'keyRing'>): Promise<{ userId: number; role: UserRole }> =>
      acceptLink(deps.db, deps.clock, { ...input, keyRing: deps.keyRing }),
    /** A signed-in operator's confirmation of one action on one target (issue 27, finding 4). */
    confirmStepUp: (actor: Actor, input: StepUpRequest): Promise<StepUpOutcome> => confirmStepUp(deps, actor, input),
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
