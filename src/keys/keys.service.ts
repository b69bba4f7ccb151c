/** Key issue and revocation (D16). */
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { requireMember } from '../members/members.service.ts';
import { digestApiKey, displayPrefixOf, generateApiKey } from './api-key.ts';
import { insertApiKey, revokeActiveKeys } from './keys.repository.ts';
import type { Db } from '../db/types.ts';

export interface IssuedKey {
  member: string;
  key: string;
  prefix: string;
  daily_limit: number;
  /** How many earlier keys this issue revoked (0 or 1). */
  revoked: number;
}

/**
 * Issues a key; the member's previous key is revoked in the same transaction (D16): the
 * caller's, when `db` is one (the operator log's), else its own.
 *
 * The day's count is the member's (D18 amended), so the new key continues it: nothing here
 * touches the usage counters. The daily limit is the member's too (`members.key_daily_limit`):
 * `dailyLimit` sets it; without one the member keeps the limit it has (an operator's raised limit
 * survives a regeneration), or gets `defaultDailyLimit` if it never had one.
 */
export async function issueKey(db: Db, clock: Clock, ref: string, dailyLimit: number | undefined, defaultDailyLimit = 100): Promise<IssuedKey> {
  if (dailyLimit !== undefined && (!Number.isInteger(dailyLimit) || dailyLimit < 1)) {
    throw new DomainError('invalid', 'daily limit must be a whole number of at least 1', { code: 'key.daily_limit_invalid', params: { min: 1 } });
  }
  const key = generateApiKey();
  const inTransaction = (run: (trx: Db) => Promise<IssuedKey>) => (db.isTransaction ? run(db) : db.transaction().execute(run));
  return inTransaction(async (trx) => {
    const member = await requireMember(trx, ref);
    const now = clock.now();
    const limit = dailyLimit ?? (member.key_daily_limit === null ? defaultDailyLimit : Number(member.key_daily_limit));
    if (Number(member.key_daily_limit) !== limit) {
      await trx.updateTable('members').set({ key_daily_limit: limit, updated_at: now }).where('id', '=', Number(member.id)).execute();
    }
    const revoked = await revokeActiveKeys(trx, Number(member.id), now);
    await insertApiKey(trx, {
      member_id: Number(member.id),
      digest: digestApiKey(key),
      prefix: displayPrefixOf(key),
      daily_limit: limit,
      created_at: now,
      revoked_at: null,
      last_used_day: null,
    });
    return { member: member.ref, key, prefix: displayPrefixOf(key), daily_limit: limit, revoked };
  });
}

export async function revokeKey(db: Db, clock: Clock, ref: string): Promise<{ member: string; revoked: number }> {
  const member = await requireMember(db, ref);
  const revoked = await revokeActiveKeys(db, Number(member.id), clock.now());
  if (revoked === 0) throw new DomainError('not_found', `member ${ref} has no active key to revoke`, { code: 'key.none_to_revoke', params: { ref } });
  return { member: member.ref, revoked };
}
