/**
 * The portal user behind a filing, a moderation step or a console action, read in the action's
 * own transaction: a user disabled (or moved to another member) a moment ago acts no more.
 */
import type { Db } from '../db/types.ts';
import { DomainError } from '../lib/errors.ts';
import type { Actor } from './filing-rules.ts';

export interface ActingUser {
  actor: Actor;
  /** Readable, for history rows and the operator log: the user's email. */
  label: string;
}

async function findUser(db: Db, userId: number) {
  return db.selectFrom('users').select(['id', 'email', 'role', 'member_id', 'status']).where('id', '=', userId).executeTakeFirst();
}

/** An active operator, or DomainError('forbidden'). */
export async function requireOperator(db: Db, userId: number): Promise<ActingUser> {
  const user = await findUser(db, userId);
  if (!user || user.status !== 'active' || user.role !== 'operator')
    throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
  return { actor: { kind: 'operator', userId: Number(user.id) }, label: user.email };
}

/** An active user of the given member (member_admin or member_user), or DomainError('forbidden'). */
export async function requireMemberUser(db: Db, userId: number, memberId: number): Promise<ActingUser> {
  const user = await findUser(db, userId);
  if (!user || user.status !== 'active' || user.role === 'operator' || user.member_id === null || Number(user.member_id) !== memberId) {
    throw new DomainError('forbidden', "only an active user of the member may act on the member's reports", { code: 'actor.not_member_user' });
  }
  return { actor: { kind: 'member', userId: Number(user.id), memberId }, label: user.email };
}
