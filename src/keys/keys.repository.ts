import { sql, type Insertable, type Selectable } from 'kysely';
import { MEMBER_SUBJECT_PREFIX } from '../quota/allowance.ts';
import type { ApiKeysTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { KeyHolder } from './auth-rules.ts';
import { preparedQuery } from '../db/prepared.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export interface KeyHolderRow extends KeyHolder {
  keyId: number;
  memberId: number;
  memberRef: string;
  /** The member's API daily limit (D18 amended: the member's, not the key's). */
  dailyLimit: number;
  /** The member's answered API searches on `day`, read in the same statement (D18's check). */
  usage: { day: string; used: number };
  /** The searchable data's version (migration 0003), read in the same statement for the search cache. */
  dataVersion: number;
}

export async function insertApiKey(db: Db, key: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

/** Revokes every active key of a member; returns how many were revoked. */
export async function revokeActiveKeys(db: Db, memberId: number, at: number): Promise<number> {
  const result = await db.updateTable('api_keys').set({ revoked_at: at }).where('member_id', '=', memberId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Records that the key answered a search on `day` (the portal's "last used"). Changes the row only
 * on the key's first answer of a day; callers remember what they marked (key-last-use.ts), so the
 * key look-up of every search reads no extra column for it.
 */
export async function markKeyUsed(db: Db, keyId: number, day: string): Promise<void> {
  await markKeyUsedQuery(db, [day, keyId]);
}

const markKeyUsedQuery = preparedQuery((db, p) =>
  db
    .updateTable('api_keys')
    .set({ last_used_day: p(0) })
    .where('id', '=', p(1))
    .where((eb) => eb.or([eb('last_used_day', 'is', null), eb('last_used_day', '<', p(0))])),
);

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

const keyHolderQuery = preparedQuery((db, p) =>
  db
    .selectFrom('api_keys')
    .innerJoin('members', 'members.id', 'api_keys.member_id')
    .leftJoin('usage_counters', (join) =>
      join.on('usage_counters.subject', '=', sql<string>`${sql.lit(MEMBER_SUBJECT_PREFIX)} || api_keys.member_id`).on('usage_counters.day', '=', p(1)),
    )
    .select((eb) => [
      'api_keys.id as keyId',
      'api_keys.member_id as memberId',
      eb.fn.coalesce('members.key_daily_limit', 'api_keys.daily_limit').as('dailyLimit'),
      'api_keys.revoked_at as revokedAt',
      'members.ref as memberRef',
      'members.status as memberStatus',
      'members.tier as memberTier',
      'members.agreement_signed_on as agreementSignedOn',
      'usage_counters.used as usedToday',
      // The search cache's version read here too (search-cache.ts): one statement, not two, a search.
      eb.selectFrom('data_version').select('version').where('data_version.id', '=', 1).as('dataVersion'),
    ])
    .where('api_keys.digest', '=', p(0)),
);

/** The same for several keys at once (PostgreSQL: `= ANY` of an array, one statement whatever their number). */
const keyHoldersQuery = preparedQuery((db, p) =>
  db
    .selectFrom('api_keys')
    .innerJoin('members', 'members.id', 'api_keys.member_id')
    .leftJoin('usage_counters', (join) =>
      join.on('usage_counters.subject', '=', sql<string>`${sql.lit(MEMBER_SUBJECT_PREFIX)} || api_keys.member_id`).on('usage_counters.day', '=', p(1)),
    )
    .select((eb) => [
      'api_keys.digest',
      'api_keys.id as keyId',
      'api_keys.member_id as memberId',
      eb.fn.coalesce('members.key_daily_limit', 'api_keys.daily_limit').as('dailyLimit'),
      'api_keys.revoked_at as revokedAt',
      'members.ref as memberRef',
      'members.status as memberStatus',
      'members.tier as memberTier',
      'members.agreement_signed_on as agreementSignedOn',
      'usage_counters.used as usedToday',
      eb.selectFrom('data_version').select('version').where('data_version.id', '=', 1).as('dataVersion'),
    ])
    .where(sql<boolean>`api_keys.digest = ANY(${p(0)}::text[])`),
);

type KeyHolderQueryRow = Awaited<ReturnType<typeof keyHolderQuery>>[number];

/**
 * The key, its member and the member's API use on `day` in one look-up, for D17's checks and
 * D18's quota check, with the data version the search cache checks (every search: kept compiled).
 */
export async function findKeyHolderByDigest(db: Db, digest: string, day: string): Promise<KeyHolderRow | undefined> {
  const [row] = await keyHolderQuery(db, [digest, day]);
  return row ? keyHolderOf(row, day) : undefined;
}

/**
 * Several keys' holders as findKeyHolderByDigest reads each, in one statement (PostgreSQL only):
 * by digest, absent for an unknown one.
 */
export async function findKeyHoldersByDigests(db: Db, digests: readonly string[], day: string): Promise<Map<string, KeyHolderRow>> {
  const rows = await keyHoldersQuery(db, [digests, day]);
  return new Map(rows.map((row) => [row.digest, keyHolderOf(row, day)]));
}

function keyHolderOf(row: KeyHolderQueryRow, day: string): KeyHolderRow {
  // Field by field: an object rest and spread here took 2.7 % of a cached hit's CPU (issue 28).
  return {
    keyId: Number(row.keyId),
    memberId: Number(row.memberId),
    dailyLimit: Number(row.dailyLimit),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
    memberRef: row.memberRef,
    memberStatus: row.memberStatus,
    memberTier: row.memberTier,
    agreementSignedOn: row.agreementSignedOn,
    dataVersion: Number(row.dataVersion),
    usage: { day, used: row.usedToday === null ? 0 : Number(row.usedToday) },
  };
}

/**
 * The member's active key, the member's API limit and use on `day` (D18 amended: the member's,
 * which the key continues) and the last day the key itself answered a search, in one statement.
 * The last use is a quota day, not an instant: the audit log has the instant, but no index by
 * key, and it is purged.
 */
export async function findActiveKeyOfMember(db: Db, memberId: number, day: string) {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('members', 'members.id', 'api_keys.member_id')
    .leftJoin('usage_counters', (join) =>
      join.on('usage_counters.subject', '=', sql<string>`${sql.lit(MEMBER_SUBJECT_PREFIX)} || api_keys.member_id`).on('usage_counters.day', '=', day),
    )
    .select((eb) => [
      'api_keys.prefix',
      'api_keys.created_at',
      eb.fn.coalesce('members.key_daily_limit', 'api_keys.daily_limit').as('daily_limit'),
      'usage_counters.used as usedToday',
      'api_keys.last_used_day as lastUsedDay',
    ])
    .where('api_keys.member_id', '=', memberId)
    .where('api_keys.revoked_at', 'is', null)
    .orderBy('api_keys.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, daily_limit: Number(row.daily_limit), usedToday: row.usedToday === null ? 0 : Number(row.usedToday), lastUsedDay: row.lastUsedDay ?? null };
}
