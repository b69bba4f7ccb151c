import { sql, type Kysely } from 'kysely';

/**
 * Quota per member (issue 27, findings 1 and 2; D18 and D28 amended). Frozen.
 *
 * - The API's day is counted per member (`member:<id>`), no longer per key (`key:<id>`): every
 *   key counter is folded into its member's, per day (a member that had two keys on one day gets
 *   their sum: what it was really answered). Today's counts carry over, so nothing is reset by the
 *   upgrade, and the usage history keeps its figures. Old `key:` rows are removed.
 * - The API daily limit is the member's: `members.key_daily_limit` is filled from the active key
 *   where it was empty, so a regenerated key keeps a limit the CLI gave the old one.
 * - `api_keys.last_used_day`: the last quota day a key answered a search (the portal's "last
 *   used"), read from the key counters before they go.
 * - `members.portal_daily_limit`: the member's daily portal allowance for all its users
 *   together (null = the server's default, RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('members').addColumn('portal_daily_limit', 'integer').execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_day', 'text').execute();
  await carryOverKeyCounts(db);
}

/** The data step of `up`, apart so that a test can run it on counters written as before. */
export async function carryOverKeyCounts(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE api_keys SET last_used_day = (
      SELECT MAX(u.day) FROM usage_counters u WHERE u.subject = 'key:' || api_keys.id AND u.used > 0)`.execute(db);
  await sql`UPDATE members SET key_daily_limit = (
      SELECT MAX(k.daily_limit) FROM api_keys k WHERE k.member_id = members.id AND k.revoked_at IS NULL)
    WHERE key_daily_limit IS NULL`.execute(db);
  await sql`INSERT INTO usage_counters (subject, day, used)
    SELECT 'member:' || k.member_id, u.day, SUM(u.used)
    FROM usage_counters u JOIN api_keys k ON u.subject = 'key:' || k.id
    GROUP BY k.member_id, u.day`.execute(db);
  await sql`DELETE FROM usage_counters WHERE subject LIKE 'key:%'`.execute(db);
}
