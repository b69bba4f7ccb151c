/** Member administration (D15) for the CLI. */
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { findMemberByRef, insertMember, updateMember, type MemberRow } from './members.repository.ts';
import type { Db } from '../db/types.ts';

export const TIERS = ['full', 'associate'] as const;
export const MEMBER_STATUSES = ['active', 'suspended', 'terminated'] as const;
export type Tier = (typeof TIERS)[number];
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export interface MemberView {
  ref: string;
  name: string;
  tier: Tier;
  status: MemberStatus;
  agreement_signed_on: string | null;
  /** API searches a day, all its keys together (D18 amended); null = the server's default. */
  daily_limit: number | null;
  /** Portal searches a day, all its users together (D28 amended); null = the server's default. */
  portal_daily_limit: number | null;
}

function toMemberView(row: MemberRow): MemberView {
  const limit = (n: number | null) => (n === null ? null : Number(n));
  return {
    ref: row.ref,
    name: row.name,
    tier: row.tier,
    status: row.status,
    agreement_signed_on: row.agreement_signed_on,
    daily_limit: limit(row.key_daily_limit),
    portal_daily_limit: limit(row.portal_daily_limit),
  };
}

function checkRef(ref: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(ref)) {
    throw new DomainError('invalid', `member ref '${ref}' is not valid: use 1 to 64 letters, digits, '.', '_' or '-'`, {
      code: 'member.ref_invalid',
      params: { ref },
    });
  }
}

export async function addMember(db: Db, clock: Clock, input: { ref: string; name: string; tier?: Tier; agreementSigned?: boolean }): Promise<MemberView> {
  checkRef(input.ref);
  if (input.name.trim() === '') throw new DomainError('invalid', 'member name must not be empty', { code: 'member.name_empty' });
  if (hasForbiddenCharacters(input.name.trim())) {
    throw new DomainError('invalid', 'member name contains control characters: type it again without them', {
      code: 'field.control_characters',
      params: { field: 'name' },
    });
  }
  const now = clock.now();
  // A ref already taken is refused by the unique constraint (members.repository.ts).
  const row = await insertMember(db, {
    ref: input.ref,
    name: input.name.trim(),
    tier: input.tier ?? 'full',
    status: 'active',
    agreement_signed_on: input.agreementSigned ? quotaDayOf(now) : null,
    created_at: now,
    updated_at: now,
  });
  return toMemberView(row);
}

export async function requireMember(db: Db, ref: string): Promise<MemberRow> {
  const member = await findMemberByRef(db, ref);
  if (!member) throw new DomainError('not_found', `no member with ref '${ref}'; see 'member list'`, { code: 'member.not_found', params: { ref } });
  return member;
}

export interface MemberChanges {
  status?: MemberStatus;
  tier?: Tier;
  agreementSigned?: boolean;
}

export async function setMember(db: Db, clock: Clock, ref: string, changes: MemberChanges): Promise<MemberView> {
  const member = await requireMember(db, ref);
  const now = clock.now();
  const row = await updateMember(db, Number(member.id), {
    ...(changes.status ? { status: changes.status } : {}),
    ...(changes.tier ? { tier: changes.tier } : {}),
    ...(changes.agreementSigned === undefined ? {} : { agreement_signed_on: changes.agreementSigned ? (member.agreement_signed_on ?? quotaDayOf(now)) : null }),
    updated_at: now,
  });
  return toMemberView(row);
}

/**
 * The member's daily portal searches, all its users together (D28 amended); null = the server's
 * default (RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT). Read on every portal search: applies at once.
 */
export async function setMemberPortalDailyLimit(db: Db, clock: Clock, ref: string, dailyLimit: number | null): Promise<MemberRow> {
  if (dailyLimit !== null && (!Number.isInteger(dailyLimit) || dailyLimit < 1 || dailyLimit > 1_000_000)) {
    throw new DomainError('invalid', 'portal daily limit must be a whole number from 1 to 1000000', {
      code: 'member.daily_limit_range',
      params: { min: 1, max: 1_000_000 },
    });
  }
  const member = await requireMember(db, ref);
  return updateMember(db, Number(member.id), { portal_daily_limit: dailyLimit, updated_at: clock.now() });
}

/**
 * The member's API daily limit (D30), for all its keys together (D18 amended: the count is the
 * member's, so is the limit); null = the server's default for its next key.
 */
export async function setMemberKeyDailyLimit(db: Db, clock: Clock, ref: string, dailyLimit: number | null): Promise<MemberRow> {
  if (dailyLimit !== null && (!Number.isInteger(dailyLimit) || dailyLimit < 1 || dailyLimit > 1_000_000)) {
    throw new DomainError('invalid', 'daily limit must be a whole number from 1 to 1000000', {
      code: 'member.daily_limit_range',
      params: { min: 1, max: 1_000_000 },
    });
  }
  const member = await requireMember(db, ref);
  return updateMember(db, Number(member.id), { key_daily_limit: dailyLimit, updated_at: clock.now() });
}
