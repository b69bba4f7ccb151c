/**
 * A member's own users, as its member_admin manages them (D27, D28). Every function takes the
 * acting admin's member and touches only users of that member: another member's user id is
 * answered exactly like an unknown one. Invitations and disabling are the users service's own
 * (one-time link, 72 h; sessions ended at once).
 */
import type { UserRole, UserStatus } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { refusedInvitationsSubject } from '../quota/allowance.ts';
import { consumeUsage, readUsage, releaseUsage } from '../quota/usage.repository.ts';
import type { Problem } from '../lib/problems.ts';
import { checkEmail, createResetLink, disableUser, inviteUser } from '../users/users.service.ts';
import type { Db } from '../db/types.ts';
import type { Actor } from '../actors/actor.ts';

/**
 * Why a member_admin's step was refused, as a problem whose words name no other account: the
 * portal shows these in the page's language, and only a generic refusal for anything else.
 */
export type MemberUsersProblem = Extract<Problem, { code: `member_users.${string}` }>;

export class MemberUsersError extends DomainError {
  constructor(
    kind: DomainError['kind'],
    message: string,
    readonly problem: MemberUsersProblem,
  ) {
    super(kind, message, problem);
  }
}

/** What the member_admin is told when an address cannot be invited: never whose it is (D27). */
export const INVITE_REFUSED_MESSAGE = 'This address cannot be invited. If the person already has an account with another member, ask the service operator.';

/**
 * Refused invitations a member may have in one quota day (D19). Each refusal tells the admin
 * that the address has an account somewhere (the link is shown to the admin, so a new address
 * cannot get the same answer); once this many were refused, every invitation is refused until
 * the next day, so no member can learn that of more addresses than this a day. A typo in a
 * colleague's address is refused rarely; the operator invites without this limit.
 */
export const REFUSED_INVITATIONS_PER_DAY = 10;

export interface MemberUserView {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  status: UserStatus;
  createdAt: number;
}

/** Where a service tells the operator of a fault it got past (a pino logger fits). */
export interface WarningLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** The acting member_admin: who asks, for which member. */
export interface MemberActor {
  userId: number;
  memberId: number;
  email: string;
}

async function listMemberUsers(db: Db, memberId: number): Promise<MemberUserView[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'status', 'created_at'])
    .where('member_id', '=', memberId)
    .orderBy('email_norm')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), email: r.email, name: r.name, role: r.role, status: r.status, createdAt: Number(r.created_at) }));
}

/**
 * Invites a colleague into the actor's own member; returns the one-time link's secret (shown
 * once). At most `maxUsers` users of the member that are not disabled (invited or active):
 * each is a per-user portal allowance (D28), so a member cannot multiply it at will; the
 * operator (console, CLI) is not bound by it and can raise the setting. An address already in
 * use (this member's, another member's, an operator's) gets one answer that says none of it,
 * at most REFUSED_INVITATIONS_PER_DAY times a day for a member.
 */
export async function inviteMemberUser(
  db: Db,
  clock: Clock,
  actor: MemberActor,
  input: { email: string; role: 'member_admin' | 'member_user' },
  limits: { maxUsers: number },
  log: WarningLog = { warn: () => undefined },
): Promise<{ email: string; token: string }> {
  if (input.role !== 'member_admin' && input.role !== 'member_user') {
    throw new MemberUsersError('invalid', 'role must be member_admin or member_user', { code: 'member_users.role_invalid' });
  }
  // Not an address at all: said first, as it depends on no account (and costs no refusal).
  const email = emailOrRefusal(input.email);
  const member = await db.selectFrom('members').select(['ref', 'status']).where('id', '=', actor.memberId).executeTakeFirstOrThrow();
  if (member.status !== 'active') {
    throw new MemberUsersError('conflict', `the membership is ${member.status}: no user can be invited`, { code: 'member_users.member_not_active' });
  }
  const capReached = () =>
    new MemberUsersError(
      'conflict',
      `your member already has ${limits.maxUsers} users that are not disabled, the most allowed: disable one, or ask the service operator to raise the limit`,
      { code: 'member_users.user_cap', params: { max: limits.maxUsers } },
    );
  // Checked before (a clear answer, nothing written) and again in the invitation's transaction.
  if ((await countUsersNotDisabled(db, actor.memberId)) >= limits.maxUsers) throw capReached();
  // One of the day's refusals is taken before the address is looked up, and given back unless
  // the address is refused: parallel invitations can look up at most as many addresses as there
  // are refusals left, and one that finds none left is refused before any look-up, whatever its
  // address. (While the refusals left are all reserved by invitations in flight, another one is
  // refused as if they were used up, although some may be given back a moment later: rare, as
  // it takes that many invitations of one member at once, and the price of answers that never
  // depend on the address.)
  const day = quotaDayOf(clock.now());
  const refusals = refusedInvitationsSubject(actor.memberId);
  if ((await consumeUsage(db, refusals, day, REFUSED_INVITATIONS_PER_DAY)) === null) {
    throw new MemberUsersError(
      'conflict',
      `no more invitations today: your member's invitations were refused ${REFUSED_INVITATIONS_PER_DAY} times today (an address that already has an account cannot be invited); try again after midnight Turkey time, or ask the service operator to invite the person`,
      { code: 'member_users.invite_refusals_used_up', params: { max: REFUSED_INVITATIONS_PER_DAY } },
    );
  }
  let refused = false;
  try {
    const issued = await inviteUser(db, clock, { email, role: input.role, memberRef: member.ref, createdBy: `portal:${actor.email}` }, async (trx) => {
      // Invitations of one member, one at a time: on PostgreSQL two transactions could each
      // count the other's new user as not there yet and both stay within the cap (a lock on
      // the member's row, taken here, makes the next one count after this one commits, with a
      // fresh snapshot); SQLite's write transactions are one at a time already.
      await lockMemberRow(trx, actor.memberId);
      if ((await countUsersNotDisabled(trx, actor.memberId)) > limits.maxUsers) throw capReached();
    });
    return { email: issued.user.email, token: issued.token };
  } catch (error) {
    if (error instanceof MemberUsersError || !(error instanceof DomainError)) throw error;
    if (error.kind === 'invalid') throw new MemberUsersError('invalid', error.message, { code: 'member_users.email_invalid' });
    // The email is taken (by anyone), or the member changed meanwhile: one answer for all, and
    // the refusal taken above stays taken.
    refused = true;
    throw new MemberUsersError('conflict', INVITE_REFUSED_MESSAGE, { code: 'member_users.invite_refused' });
  } finally {
    // Not refused (invited, the user cap, a database error): the refusal goes back. If giving it
    // back fails, it stays taken (one refusal fewer today), the answer stands, and the operator
    // is told (a member who runs out of refusals early can be explained).
    if (!refused) {
      await releaseUsage(db, refusals, day).catch((error: unknown) => {
        try {
          log.warn({ memberId: actor.memberId, day, err: error }, 'an invitation refusal could not be given back: it stays taken for today');
        } catch {
          // A failing logger must not turn a finished invitation into an error.
        }
      });
    }
  }
}

/**
 * Whether the member's refused invitations are used up for the quota day (Turkey time) of
 * `now`: every invitation is then refused until midnight, so the page says so instead of
 * offering the form. (A refusal reserved by an invitation in flight counts until given back.)
 */
async function inviteRefusalsUsedUp(db: Db, memberId: number, now: number): Promise<boolean> {
  return (await readUsage(db, refusedInvitationsSubject(memberId), quotaDayOf(now))) >= REFUSED_INVITATIONS_PER_DAY;
}

function emailOrRefusal(email: string): string {
  try {
    return checkEmail(email);
  } catch (error) {
    if (error instanceof DomainError) throw new MemberUsersError('invalid', error.message, { code: 'member_users.email_invalid' });
    throw error;
  }
}

/** A row lock on the member until the transaction ends (PostgreSQL; a no-op write on SQLite). */
async function lockMemberRow(trx: Db, memberId: number): Promise<void> {
  await trx
    .updateTable('members')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('id', '=', memberId)
    .execute();
}

async function countUsersNotDisabled(db: Db, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('member_id', '=', memberId)
    .where('status', '!=', 'disabled')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A new invitation link for a user of the actor's member who never accepted (a lost or expired
 * invitation). Shown once. An active user's password is reset only by the service operator
 * (console, CLI): a link shown to the admin would let the admin sign in as that colleague.
 */
async function newMemberUserLink(db: Db, clock: Clock, actor: MemberActor, userId: number): Promise<{ email: string; token: string; purpose: 'invite' }> {
  const user = await db.selectFrom('users').select(['email', 'status']).where('id', '=', userId).where('member_id', '=', actor.memberId).executeTakeFirst();
  if (!user) throw new MemberUsersError('not_found', 'no such user in your member', { code: 'member_users.user_not_found' });
  if (user.status === 'disabled') throw new MemberUsersError('conflict', `user ${user.email} is disabled`, { code: 'member_users.user_disabled' });
  const operatorOnly = () =>
    new MemberUsersError('conflict', `user ${user.email} has accepted the invitation: a password reset comes from the service operator`, {
      code: 'member_users.reset_by_operator',
    });
  if (user.status !== 'invited') throw operatorOnly();
  // Accepted between the two reads: that would be a reset link; undone with its transaction.
  const issued = await createResetLink(db, clock, { email: user.email, createdBy: `portal:${actor.email}`, memberId: actor.memberId }, (_trx, link) =>
    link.purpose === 'invite' ? Promise.resolve() : Promise.reject(operatorOnly()),
  );
  return { email: issued.user.email, token: issued.token, purpose: 'invite' };
}

/**
 * Disables a user of the actor's member (their sessions end at once, D27). An admin cannot
 * disable itself (the member would risk having no admin left to undo it).
 */
async function disableMemberUser(db: Db, clock: Clock, actor: MemberActor, userId: number): Promise<MemberUserView> {
  if (userId === actor.userId) {
    throw new MemberUsersError('conflict', 'you cannot disable your own account; ask another member_admin', { code: 'member_users.self_disable' });
  }
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).where('member_id', '=', actor.memberId).executeTakeFirst();
  if (!user) throw new MemberUsersError('not_found', 'no such user in your member', { code: 'member_users.user_not_found' });
  await disableUser(db, clock, user.email, { memberId: actor.memberId });
  const after = (await listMemberUsers(db, actor.memberId)).find((u) => u.id === userId);
  return after!;
}

/** What the member's users use cases need (composition root, src/services.ts). */
export interface MemberUsersDeps {
  db: Db;
  clock: Clock;
  /** Users of a member that are not disabled, at the most (config `maxUsersPerMember`). */
  maxUsers: number;
  /** Where a refusal that could not be given back is told (the server's logger). */
  log?: WarningLog;
}

/**
 * The member_admin's acting user, read again: only an active member_admin of the actor's member
 * manages its users (the portal's guard checked the session; this checks the actor itself).
 */
async function memberAdminOf(db: Db, actor: Actor): Promise<MemberActor> {
  if (actor.kind !== 'member_user' || actor.role !== 'member_admin') {
    throw new DomainError('forbidden', "only a member's member_admin manages its users", { code: 'actor.not_member_user' });
  }
  const user = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', actor.userId)
    .where('member_id', '=', actor.memberId)
    .where('role', '=', 'member_admin')
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!user) throw new DomainError('forbidden', "only a member's member_admin manages its users", { code: 'actor.not_member_user' });
  return { userId: actor.userId, memberId: actor.memberId, email: user.email };
}

/** The member's users as use cases `(actor, input)`: the actor is the member's signed-in member_admin. */
export function createMemberUsers({ db, clock, maxUsers, log }: MemberUsersDeps) {
  const memberIdOf = async (actor: Actor) => (await memberAdminOf(db, actor)).memberId;
  return {
    /** The member's users, by email. */
    list: async (actor: Actor): Promise<MemberUserView[]> => listMemberUsers(db, await memberIdOf(actor)),
    /** Whether today's refused invitations are used up (the page then offers no form). */
    refusalsUsedUp: async (actor: Actor): Promise<boolean> => inviteRefusalsUsedUp(db, await memberIdOf(actor), clock.now()),
    /** The member's user limit, as the page shows it. */
    maxUsers,
    invite: async (actor: Actor, input: { email: string; role: 'member_admin' | 'member_user' }) =>
      inviteMemberUser(db, clock, await memberAdminOf(db, actor), input, { maxUsers }, log),
    newLink: async (actor: Actor, input: { userId: number }) => newMemberUserLink(db, clock, await memberAdminOf(db, actor), input.userId),
    disable: async (actor: Actor, input: { userId: number }) => disableMemberUser(db, clock, await memberAdminOf(db, actor), input.userId),
  };
}

export type MemberUsers = ReturnType<typeof createMemberUsers>;
