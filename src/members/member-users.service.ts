/**
 * A member's own users, as its member_admin manages them (D27, D28). Every function takes the
 * acting admin's member and touches only users of that member: another member's user id is
 * answered exactly like an unknown one.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRole, UserStatus } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';

export interface MemberUserView {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  status: UserStatus;
  createdAt: number;
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

/**
 * Disables a user of the acting admin's member and ends its sessions at once (D27). An admin
 * cannot disable itself (the member would risk having no admin left to undo it).
 */
export async function disableMemberUser(db: Kysely<Database>, clock: Clock, actor: { userId: number; memberId: number }, userId: number): Promise<MemberUserView> {
  if (userId === actor.userId) throw new DomainError('conflict', 'you cannot disable your own account; ask another member_admin');
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    const user = await trx
      .updateTable('users')
      .set({ status: 'disabled', updated_at: now })
      .where('id', '=', userId)
      .where('member_id', '=', actor.memberId)
      .returning(['id', 'email', 'name', 'role', 'status', 'created_at'])
      .executeTakeFirst();
    if (!user) throw new DomainError('not_found', 'no such user in your member');
    await trx.updateTable('sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null).execute();
    return { id: Number(user.id), email: user.email, name: user.name, role: user.role, status: user.status, createdAt: Number(user.created_at) };
  });
}
