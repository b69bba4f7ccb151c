/**
 * A member's own key, as the portal's API page shows and changes it (D16, D28). Issuing goes
 * through keys.service `issueKey`, so the old key is revoked in the same transaction; the API's
 * key look-up has no cache (auth.service.ts), so the old key is refused on the very next request
 * of every server.
 */
import { findActiveKeyUsage } from './key-usage.repository.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import type { Actor } from '../actors/actor.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { issueKey, type IssuedKey } from './keys.service.ts';
import { findActiveKeyOfMember, revokeActiveKeys } from './keys.repository.ts';
import type { Db } from '../db/types.ts';

export interface MemberKeyView {
  /** The active key, or null when the member has none. */
  key: {
    prefix: string;
    createdAt: number;
    dailyLimit: number;
    usedToday: number;
    /** The last quota day the key answered a search (D19 day, `YYYY-MM-DD`), or null. */
    lastUsedDay: string | null;
  } | null;
  /** The daily limit a key generated now would get. */
  nextDailyLimit: number;
}

async function findMember(db: Db, memberId: number) {
  const member = await db.selectFrom('members').select(['ref', 'status', 'key_daily_limit']).where('id', '=', memberId).executeTakeFirst();
  if (!member) throw new DomainError('not_found', `no member with id ${memberId}`, { code: 'member.not_found_by_id', params: { id: memberId } });
  return member;
}

async function readMemberKey(db: Db, clock: Clock, defaultDailyLimit: number, memberId: number): Promise<MemberKeyView> {
  const member = await findMember(db, memberId);
  const row = await findActiveKeyOfMember(db, memberId, quotaDayOf(clock.now()));
  return {
    key: row
      ? { prefix: row.prefix, createdAt: Number(row.created_at), dailyLimit: Number(row.daily_limit), usedToday: row.usedToday, lastUsedDay: row.lastUsedDay }
      : null,
    nextDailyLimit: member.key_daily_limit ?? defaultDailyLimit,
  };
}

/**
 * Generates the member's key, revoking the one it had (D16). The daily limit is the member's
 * own (set by an operator, D30) or the server's default, and the new key continues the member's
 * count of the day (D18 amended: regenerating gives nothing more). Refused for a member that is
 * not active.
 */
async function generateMemberKey(db: Db, clock: Clock, defaultDailyLimit: number, memberId: number): Promise<IssuedKey> {
  const member = await findMember(db, memberId);
  if (member.status !== 'active') {
    throw new DomainError('conflict', `the membership is ${member.status}: no key can be generated`, {
      code: 'key.member_not_active',
      params: { memberStatus: member.status },
    });
  }
  return issueKey(db, clock, member.ref, undefined, defaultDailyLimit);
}

async function revokeMemberKey(db: Db, clock: Clock, memberId: number): Promise<void> {
  const revoked = await revokeActiveKeys(db, memberId, clock.now());
  if (revoked === 0) throw new DomainError('not_found', 'the member has no active key to revoke', { code: 'key.member_has_none' });
}

/** The member whose key it is: its own users read it; only its admins change it (D28). */
function keyMemberOf(actor: Actor, change: boolean): number {
  if (actor.kind === 'member_user' && (!change || actor.role === 'member_admin')) return actor.memberId;
  throw new DomainError('forbidden', "only the member's admin may change its key", { code: 'actor.not_member_user' });
}

/**
 * The member's own key as the portal's API page shows and changes it, built by the composition
 * root (src/services.ts). `defaultDailyLimit`: the server's (config.defaultDailyLimit).
 */
export function createMemberKeys(deps: { readonly db: Db; readonly clock: Clock; readonly defaultDailyLimit: number }) {
  return {
    /** The member's active key with its limit and today's use (D18 amended), for the portal's home; undefined without one. */
    usageToday: (actor: Actor) => findActiveKeyUsage(deps.db, keyMemberOf(actor, false), quotaDayOf(deps.clock.now())),
    read: (actor: Actor) => readMemberKey(deps.db, deps.clock, deps.defaultDailyLimit, keyMemberOf(actor, false)),
    generate: (actor: Actor) => generateMemberKey(deps.db, deps.clock, deps.defaultDailyLimit, keyMemberOf(actor, true)),
    revoke: (actor: Actor) => revokeMemberKey(deps.db, deps.clock, keyMemberOf(actor, true)),
  };
}

export type MemberKeys = ReturnType<typeof createMemberKeys>;
