/** Authentication outcomes in D17's order. Pure: the caller has looked the key up. */
import { AppError } from '../lib/errors.ts';
import { memberAccessRefusal, type MemberAccessRefusal } from '../members/member-access.ts';
import { isWellFormedApiKey } from './api-key.ts';

export interface KeyHolder {
  revokedAt: number | null;
  memberStatus: 'active' | 'suspended' | 'terminated';
  memberTier: 'full' | 'associate';
  agreementSignedOn: string | null;
}

/** Step 1 and the first half of step 2, before any look-up. */
export function checkPresentedKey(header: string | undefined): string {
  const key = header?.trim() ?? '';
  if (key === '') {
    throw new AppError('api_key_missing', 'API key missing: send your key in the X-API-Key header');
  }
  if (!isWellFormedApiKey(key)) throw invalidKey();
  return key;
}

export function invalidKey(): AppError {
  return new AppError('api_key_invalid', 'API key invalid: check that the X-API-Key header holds the whole 64-character key from your member dashboard');
}

/** The remaining steps once the key is known. Throws the first that applies. */
export function checkKeyHolder(holder: KeyHolder): void {
  if (holder.revokedAt !== null) {
    throw new AppError('key_revoked', 'API key revoked: generate a new key in the API section of your member dashboard');
  }
  const refusal = memberAccessRefusal({ status: holder.memberStatus, tier: holder.memberTier, agreementSignedOn: holder.agreementSignedOn });
  if (refusal) throw new AppError(refusal, API_REFUSALS[refusal]);
}

const API_REFUSALS: Record<MemberAccessRefusal, string> = {
  member_suspended: 'Membership suspended: API access is paused; contact the association',
  member_terminated: 'Membership terminated: API access has ended',
  member_not_full: 'API access is limited to full members; your membership is associate',
  agreement_unsigned: 'Data agreement not signed: sign it in the member dashboard to use the API',
};
