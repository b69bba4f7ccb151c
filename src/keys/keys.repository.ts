import { sql, type Insertable, type Selectable } from 'kysely';
import { KEY_SUBJECT_PREFIX } from '../quota/allowance.ts';
import type { ApiKeysTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { KeyHolder } from './auth-rules.ts';
import { preparedQuery } from '../db/prepared.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export interface KeyHolderRow extends KeyHolder {
  keyId: number;
  memberId: number;
  memberRef: string;
  dailyLimit: number;
  /** The key's answered searches on `day`, read in the same statement (D18's check). */
  usage: { day: string; used: number };
}

export async function insertApiKey(db: Db, key: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

/** Revokes every active key of a member; returns how many were revoked. */
export async function revokeActiveKeys(db: Db, memberId: number, at: number): Promise<number> {
  const result = await db.updateTable('api_keys').set({ revoked_at: at }).where('member_id', '=', memberId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Sets the daily limit of the member's active key, if it has one; returns how many keys changed. */
export async function setActiveKeyDailyLimit(db: Db, memberId: number, dailyLimit: number): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ daily_limit: dailyLimit })
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The member's active key (D16: at most one), without its digest. */
export async function findActiveKey(db: Db, memberId: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'prefix', 'daily_limit', 'created_at'])
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function listKeyIdsOfMember(db: Db, memberId: number): Promise<number[]> {
  const rows = await db.selectFrom('api_keys').select('id').where('member_id', '=', memberId).execute();
  return rows.map((r) => Number(r.id));
}

const keyHolderQuery = preparedQuery((db, p) =>
  db
    .selectFrom('api_keys')
    .innerJoin('members', 'members.id', 'api_keys.member_id')
    .leftJoin('usage_counters', (join) =>
      join.on('usage_counters.subject', '=', sql<string>`${sql.lit(KEY_SUBJECT_PREFIX)} || api_keys.id`).on('usage_counters.day', '=', p(1)),
    )
    .select([
      'api_keys.id as keyId',
      'api_keys.member_id as memberId',
      'api_keys.daily_limit as dailyLimit',
      'api_keys.revoked_at as revokedAt',
      'members.ref as memberRef',
      'members.status as memberStatus',
      'members.tier as memberTier',
      'members.agreement_signed_on as agreementSignedOn',
      'usage_counters.used as usedToday',
    ])
    .where('api_keys.digest', '=', p(0)),
);

/**
 * The key, its member and its use on `day` in one look-up, for D17's checks and D18's quota
 * check (every search: kept compiled).
 */
export async function findKeyHolderByDigest(db: Db, digest: string, day: string): Promise<KeyHolderRow | undefined> {
  const [row] = await keyHolderQuery(db, [digest, day]);
  if (!row) return undefined;
  const { usedToday, ...holder } = row;
  return {
    ...holder,
    keyId: Number(row.keyId),
    memberId: Number(row.memberId),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
    usage: { day, used: usedToday === null ? 0 : Number(usedToday) },
  };
}

/**
 * The member's active key with its use on `day` and the last day it answered a search, in one
 * statement (the usage counters' primary key serves both look-ups). The last use is a quota day,
 * not an instant: the audit log has the instant, but no index by key, and it is purged.
 */
export async function findActiveKeyOfMember(db: Db, memberId: number, day: string) {
  const subject = sql<string>`${sql.lit(KEY_SUBJECT_PREFIX)} || api_keys.id`;
  const row = await db
    .selectFrom('api_keys')
    .leftJoin('usage_counters', (join) => join.on('usage_counters.subject', '=', subject).on('usage_counters.day', '=', day))
    .select((eb) => [
      'api_keys.prefix',
      'api_keys.created_at',
      'api_keys.daily_limit',
      'usage_counters.used as usedToday',
      eb
        .selectFrom('usage_counters as u')
        .select((u) => u.fn.max('u.day').as('d'))
        .where('u.subject', '=', subject)
        .where('u.used', '>', 0)
        .as('lastUsedDay'),
    ])
    .where('api_keys.member_id', '=', memberId)
    .where('api_keys.revoked_at', 'is', null)
    .orderBy('api_keys.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, usedToday: row.usedToday === null ? 0 : Number(row.usedToday), lastUsedDay: row.lastUsedDay ?? null };
}
