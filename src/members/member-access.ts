/**
 * D17's rule on the member, the one owner: a member's key, its users' portal searches and its
 * filings (D28, D29) need an active, full member with a signed data agreement. Pure; each caller
 * words the refusal for its channel (auth-rules.ts for the API, the portal's search, filing-rules.ts).
 */
import type { ErrorReason } from '../lib/errors.ts';

export interface MemberStanding {
  status: 'active' | 'suspended' | 'terminated';
  tier: 'full' | 'associate';
  agreementSignedOn: string | null;
}

export type MemberAccessRefusal = Extract<ErrorReason, 'member_suspended' | 'member_terminated' | 'member_not_full' | 'agreement_unsigned'>;

/** The first of D17's member steps that refuses, in D17's order, or null. */
export function memberAccessRefusal(member: MemberStanding): MemberAccessRefusal | null {
  if (member.status === 'suspended') return 'member_suspended';
  if (member.status === 'terminated') return 'member_terminated';
  if (member.tier !== 'full') return 'member_not_full';
  if (member.agreementSignedOn === null) return 'agreement_unsigned';
  return null;
}
