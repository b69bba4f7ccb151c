/**
 * A member's own users, as its member_admin manages them (D27, D28). Every function takes the
 * acting admin's member and touches only users of that member: another member's user id is
 * answered exactly like an unknown one. Invitations and disabling are the users service's own
 * (one-time link, 72 h; sessions ended at once).
 */
import type { Kysely } from 'kysely';
import type { Database, UserRole, UserStatus } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { createResetLink, disableUser, inviteUser } from '../users/users.service.ts';

export interface MemberUserView {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  status: UserStatus;
  createdAt: number;
}

/** The acting member_admin: who asks, for which member. */
export interface MemberActor {
  userId: number;
  memberId: number;
  email: string;
}

export async function listMemberUsers(db: Kysely<Database>, memberId: number): Promise<MemberUserView[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'status', 'created_at'])
    .where('member_id', '=', memberId)
    .orderBy('email_norm')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), email: r.email, name: r.name, role: r.role, status: r.status, createdAt: Number(r.created_at) }));
}

/** Invites a colleague into the actor's own member; returns the one-time link's secret (shown once). */
export async function inviteMemberUser(
  db: Kysely<Database>,
  clock: Clock,
  actor: MemberActor,
  input: { email: string; role: 'member_admin' | 'member_user' },
): Promise<{ email: string; token: string }> {
  if (input.role !== 'member_admin' && input.role !== 'member_user') throw new DomainError('invalid', 'role must be member_admin or member_user');
  const member = await db.selectFrom('members').select('ref').where('id', '=', actor.memberId).executeTakeFirstOrThrow();
  const issued = await inviteUser(db, clock, { email: input.email, role: input.role, memberRef: member.ref, createdBy: `portal:${actor.email}` });
  return { email: issued.user.email, token: issued.token };
}

/**
 * A new one-time link for a user of the actor's member (a lost invitation, a forgotten
 * password): an invitation for one who never accepted, a reset link otherwise. Shown once.
 */
export async function newMemberUserLink(
  db: Kysely<Database>,
  clock: Clock,
  actor: MemberActor,
  userId: number,
): Promise<{ email: string; token: string; purpose: 'invite' | 'reset' }> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).where('member_id', '=', actor.memberId).executeTakeFirst();
  if (!user) throw new DomainError('not_found', 'no such user in your member');
  const issued = await createResetLink(db, clock, { email: user.email, createdBy: `portal:${actor.email}`, memberId: actor.memberId });
  return { email: issued.user.email, token: issued.token, purpose: issued.purpose };
}

/**
 * Disables a user of the actor's member (their sessions end at once, D27). An admin cannot
 * disable itself (the member would risk having no admin left to undo it).
 */
export async function disableMemberUser(db: Kysely<Database>, clock: Clock, actor: MemberActor, userId: number): Promise<MemberUserView> {
  if (userId === actor.userId) throw new DomainError('conflict', 'you cannot disable your own account; ask another member_admin');
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).where('member_id', '=', actor.memberId).executeTakeFirst();
  if (!user) throw new DomainError('not_found', 'no such user in your member');
  await disableUser(db, clock, user.email, { memberId: actor.memberId });
  const after = (await listMemberUsers(db, actor.memberId)).find((u) => u.id === userId);
  return after!;
}
