/**
 * Portal users from the operator console (D30): invite, reset link, disable. The users service
 * does the work; the operator check and the operator log run in its transaction, so an action is
 * never done without its log line. The one-time link's secret is returned once and never logged.
 */
import type { UserRole } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { createResetLink, disableUser, inviteUser, listUserViews, normaliseEmail, type IssuedLink, type UserView } from '../users/users.service.ts';
import { findUserByEmailNorm } from '../users/users.repository.ts';
import { DomainError } from '../lib/errors.ts';
import type { Actor } from '../actors/actor.ts';
import { appendOperatorLog, operatorIdentity } from './operator-log.ts';
import { requireStepUp, stepUpTarget } from './step-up.ts';
import type { Db } from '../db/types.ts';

export interface UserAdminDeps {
  db: Db;
  clock: Clock;
  /** D35: an operator's link carries a sealed TOTP seed; inviting or resetting an operator needs it. */
  keyRing?: KeyRing;
}

/** What the log keeps of a link: who it is for, what for, until when; never its secret. */
const linkFacts = (link: IssuedLink) => ({ user: link.user, purpose: link.purpose, expires_at: link.expiresAt });

/** Who the link says made it: the operator's email, or the name given to the CLI (`--by`). */
async function createdByOf(deps: UserAdminDeps, operator: Actor): Promise<string> {
  return operator.kind === 'cli' ? (operator.by ?? operator.user) : (await operatorIdentity(deps.db, operator)).label;
}

async function inviteUserAs(deps: UserAdminDeps, operator: Actor, input: { email: string; role: UserRole; memberRef?: string | null }): Promise<IssuedLink> {
  requireStepUp(operator, input.role === 'operator' ? 'user.invite_operator' : 'user.invite', stepUpTarget.user(input.email));
  const createdBy = await createdByOf(deps, operator);
  return inviteUser(deps.db, deps.clock, { ...input, createdBy, ...(deps.keyRing ? { keyRing: deps.keyRing } : {}) }, async (trx, link) => {
    const who = await operatorIdentity(trx, operator);
    await appendOperatorLog(trx, {
      at: deps.clock.now(),
      userId: who.userId,
      actor: who.label,
      action: 'user.invite',
      target: `user:${link.user.email}`,
      before: null,
      after: linkFacts(link),
    });
  });
}

async function createResetLinkAs(deps: UserAdminDeps, operator: Actor, email: string): Promise<IssuedLink> {
  requireStepUp(operator, 'user.reset', stepUpTarget.user(email));
  const createdBy = await createdByOf(deps, operator);
  return createResetLink(deps.db, deps.clock, { email, createdBy, ...(deps.keyRing ? { keyRing: deps.keyRing } : {}) }, async (trx, link) => {
    const who = await operatorIdentity(trx, operator);
    await appendOperatorLog(trx, {
      at: deps.clock.now(),
      userId: who.userId,
      actor: who.label,
      action: `user.${link.purpose === 'invite' ? 'reinvite' : 'reset_link'}`,
      target: `user:${link.user.email}`,
      before: link.user,
      after: linkFacts(link),
    });
  });
}

async function disableUserAs(deps: UserAdminDeps, operator: Actor, email: string): Promise<UserView> {
  // The operator check first: a user who is not one learns nothing about the email.
  await operatorIdentity(deps.db, operator);
  return disableUser(deps.db, deps.clock, email, {}, async (trx, after, before) => {
    // Disabling an operator needs a confirmation (step-up.ts); refused here, the transaction undoes it.
    if (after.role === 'operator') requireStepUp(operator, 'user.disable_operator', stepUpTarget.user(after.email));
    const who = await operatorIdentity(trx, operator);
    await appendOperatorLog(trx, {
      at: deps.clock.now(),
      userId: who.userId,
      actor: who.label,
      action: 'user.disable',
      target: `user:${after.email}`,
      before: before ?? null,
      after,
    });
  });
}

/** The portal-account use cases of the console and the CLI (D27, D30), each `(actor, input)` for an operator or the CLI. */
export function createUserAdmin(deps: UserAdminDeps) {
  return {
    /** Every user with their member, or one member's users (`memberRef`), for the console's and the CLI's lists (operators). */
    listUsers: (actor: Actor, input: { memberRef?: string } = {}) => {
      if (actor.kind !== 'operator' && actor.kind !== 'cli')
        throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
      return listUserViews(deps.db, input);
    },
    /** The role of the user with this email, or null (the console asks before a step that may need confirming). */
    roleOf: async (actor: Actor, input: { email: string }) => {
      if (actor.kind !== 'operator' && actor.kind !== 'cli')
        throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
      return (await findUserByEmailNorm(deps.db, normaliseEmail(input.email)))?.role ?? null;
    },
    /** Every invitation needs the operator's confirmation (step-up.ts); disabling an operator too. */
    inviteUser: (actor: Actor, input: { email: string; role: UserRole; memberRef?: string | null }) => inviteUserAs(deps, actor, input),
    /** A new link for a user: a reset link, or a new invitation for one who never accepted; needs the operator's confirmation. */
    createResetLink: (actor: Actor, input: { email: string }) => createResetLinkAs(deps, actor, input.email),
    disableUser: (actor: Actor, input: { email: string }) => disableUserAs(deps, actor, input.email),
  };
}

export type UserAdmin = ReturnType<typeof createUserAdmin>;
