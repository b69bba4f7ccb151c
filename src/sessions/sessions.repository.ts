/** Server-side sessions (D27): rows keyed by the digest of the id; the id itself is never stored. */
import type { Insertable } from 'kysely';
import type { Db } from '../db/types.ts';
import type { SessionsTable } from '../db/schema.ts';

export async function insertSession(db: Db, session: Insertable<SessionsTable>): Promise<number> {
  const row = await db.insertInto('sessions').values(session).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The session (ended or not), its user and the user's member, in one statement: what every portal request needs. */
export async function findSessionByDigest(db: Db, digest: string) {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('members', 'members.id', 'users.member_id')
    .select([
      'sessions.id as sessionId',
      'sessions.csrf_token as csrfToken',
      'sessions.locale',
      'sessions.last_seen_at as lastSeenAt',
      'sessions.expires_at as expiresAt',
      'sessions.ended_at as endedAt',
      'users.id as userId',
      'users.email',
      'users.name as userName',
      'users.role',
      'users.status as userStatus',
      'users.member_id as memberId',
      'members.ref as memberRef',
      'members.name as memberName',
      'members.tier as memberTier',
      'members.status as memberStatus',
      'members.agreement_signed_on as agreementSignedOn',
    ])
    .where('sessions.digest', '=', digest)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    sessionId: Number(row.sessionId),
    userId: Number(row.userId),
    memberId: row.memberId === null ? null : Number(row.memberId),
    lastSeenAt: Number(row.lastSeenAt),
    expiresAt: Number(row.expiresAt),
  };
}

export type SessionContextRow = NonNullable<Awaited<ReturnType<typeof findSessionByDigest>>>;

export async function touchSession(db: Db, sessionId: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
}

export async function endSession(db: Db, sessionId: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ ended_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
}

/** Ends every open session of a user (disabled, password reset, member suspended). */
export async function endSessionsOfUser(db: Db, userId: number, now: number): Promise<number> {
  const result = await db.updateTable('sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setSessionLocale(db: Db, sessionId: number, locale: string): Promise<void> {
  await db.updateTable('sessions').set({ locale }).where('id', '=', sessionId).execute();
}

/** Forgets a user's sessions that ended or expired before `before` (kept a while for the record). */
export async function deleteOldSessionsOfUser(db: Db, userId: number, before: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('ended_at', '<', before), eb('expires_at', '<', before)]))
    .execute();
}
