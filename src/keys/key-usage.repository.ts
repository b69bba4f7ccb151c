/** What the member home shows of the member's key (D28): the member's API limit and today's use (D18 amended). */
import { sql } from 'kysely';
import type { Db } from '../db/types.ts';
import { MEMBER_SUBJECT_PREFIX } from '../quota/allowance.ts';

export async function findActiveKeyUsage(db: Db, memberId: number, day: string) {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('members', 'members.id', 'api_keys.member_id')
    .leftJoin('usage_counters', (join) =>
      join.on('usage_counters.subject', '=', sql<string>`${sql.lit(MEMBER_SUBJECT_PREFIX)} || api_keys.member_id`).on('usage_counters.day', '=', day),
    )
    .select((eb) => ['api_keys.prefix', eb.fn.coalesce('members.key_daily_limit', 'api_keys.daily_limit').as('dailyLimit'), 'usage_counters.used'])
    .where('api_keys.member_id', '=', memberId)
    .where('api_keys.revoked_at', 'is', null)
    .orderBy('api_keys.id', 'desc')
    .executeTakeFirst();
  return row ? { prefix: row.prefix, dailyLimit: Number(row.dailyLimit), used: Number(row.used ?? 0) } : undefined;
}
