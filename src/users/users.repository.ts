/** Users and their one-time links (D27). Unique emails are enforced by the database (email_norm). */
import type { Insertable, Selectable, Updateable } from 'kysely';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { Db } from '../db/types.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { UserRole, UsersTable, UserTokensTable } from '../db/schema.ts';
import { DomainError } from '../lib/errors.ts';

export type UserRow = Selectable<UsersTable>;
export type UserTokenRow = Selectable<UserTokensTable>;

/** Inserts a user; an email already taken (in any case) is a DomainError('conflict'). */
export async function insertUser(db: Db, user: Insertable<UsersTable>): Promise<UserRow> {
  try {
    return await db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', `a user with the email ${user.email} already exists; send a new link with 'user reset'`, {
        code: 'user.email_taken',
        params: { email: user.email },
      });
    }
    throw error;
  }
}

export async function findUserByEmailNorm(db: Db, emailNorm: string): Promise<UserRow | undefined> {
  // No stored email holds one (users.service.ts refuses them), and PostgreSQL refuses a NUL in
  // any text parameter: a typed value with a control character matches nobody, without a query.
  if (hasForbiddenCharacters(emailNorm)) return undefined;
  return db.selectFrom('users').selectAll().where('email_norm', '=', emailNorm).executeTakeFirst();
}

export async function updateUser(db: Db, id: number, changes: Updateable<UsersTable>): Promise<UserRow> {
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export interface UserListRow {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  status: UserRow['status'];
  memberRef: string | null;
  created_at: number;
}

export async function listUsers(db: Db, filter: { memberId?: number } = {}): Promise<UserListRow[]> {
  let query = db
    .selectFrom('users')
    .leftJoin('members', 'members.id', 'users.member_id')
    .select(['users.id', 'users.email', 'users.name', 'users.role', 'users.status', 'members.ref as memberRef', 'users.created_at']);
  if (filter.memberId !== undefined) query = query.where('users.member_id', '=', filter.memberId);
  const rows = await query.orderBy('users.email_norm').execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), created_at: Number(r.created_at) }));
}

/** Accepts a TOTP step only if it is newer than the last one accepted (atomic: two requests cannot both win). */
export async function recordTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertUserToken(db: Db, token: Insertable<UserTokensTable>): Promise<number> {
  const row = await db.insertInto('user_tokens').values(token).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function setTokenTotpSecret(db: Db, tokenId: number, sealed: string): Promise<void> {
  await db.updateTable('user_tokens').set({ totp_secret: sealed }).where('id', '=', tokenId).execute();
}

/** The link's row and its user, if the link is unused and unexpired at `now`. */
export async function findUsableToken(db: Db, digest: string, now: number) {
  const row = await db
    .selectFrom('user_tokens')
    .innerJoin('users', 'users.id', 'user_tokens.user_id')
    .leftJoin('members', 'members.id', 'users.member_id')
    .select([
      'user_tokens.id as tokenId',
      'user_tokens.purpose',
      'user_tokens.expires_at as expiresAt',
      'user_tokens.totp_secret as sealedSeed',
      'users.id as userId',
      'users.email',
      'users.name',
      'users.role',
      'users.status',
      'members.status as memberStatus',
    ])
    .where('user_tokens.digest', '=', digest)
    .where('user_tokens.used_at', 'is', null)
    .where('user_tokens.expires_at', '>', now)
    .executeTakeFirst();
  return row ? { ...row, tokenId: Number(row.tokenId), userId: Number(row.userId) } : undefined;
}

/** Marks a link used; false when another request used it first. */
export async function markTokenUsed(db: Db, tokenId: number, now: number): Promise<boolean> {
  const result = await db.updateTable('user_tokens').set({ used_at: now }).where('id', '=', tokenId).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every unused link of a user stops working (a new link, or the user disabled). */
export async function retireTokensOfUser(db: Db, userId: number, now: number): Promise<void> {
  await db.updateTable('user_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

export async function findMemberStatus(db: Db, memberId: number): Promise<'active' | 'suspended' | 'terminated' | undefined> {
  const row = await db.selectFrom('members').select('status').where('id', '=', memberId).executeTakeFirst();
  return row?.status;
}
