/**
 * The data agreement (D28): who signed which version when. `members.agreement_signed_on` stays
 * the flag D17 reads for the API key and the portal search; signing sets it in the same
 * transaction as the signature, so the two never disagree.
 */
import type { Actor } from '../actors/actor.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { updateMember } from '../members/members.repository.ts';
import { AGREEMENT_VERSION } from './agreement-text.ts';
import { findLatestSignature, findSigner, insertSignature } from './agreement.repository.ts';
import type { Db } from '../db/types.ts';

export interface AgreementState {
  currentVersion: string;
  /** `YYYY-MM-DD` D17 reads; null while unsigned. */
  signedOn: string | null;
  /** The latest signature kept, if any (an operator's `--agreement-signed` keeps none). */
  lastSignature: { version: string; signedAt: number; signer: string | null } | null;
  /** True when the member's latest signature is of the current version. */
  signedCurrent: boolean;
}

async function readAgreementState(db: Db, memberId: number): Promise<AgreementState> {
  const member = await db.selectFrom('members').select('agreement_signed_on').where('id', '=', memberId).executeTakeFirst();
  if (!member) throw new DomainError('not_found', `no member with id ${memberId}`, { code: 'member.not_found_by_id', params: { id: memberId } });
  const last = await findLatestSignature(db, memberId);
  const lastSignature = last ? { version: last.version, signedAt: Number(last.signed_at), signer: last.signer } : null;
  return {
    currentVersion: AGREEMENT_VERSION,
    signedOn: member.agreement_signed_on,
    lastSignature,
    signedCurrent: member.agreement_signed_on !== null && lastSignature?.version === AGREEMENT_VERSION,
  };
}

/**
 * Signs the current version for the member: only an active member_admin of that very member may
 * (checked here against the stored user, not only by the page's guard). One transaction: the
 * signature (user, time, version) and `members.agreement_signed_on`. Signing again what is
 * signed changes nothing.
 */
async function signAgreement(db: Db, clock: Clock, memberId: number, userId: number): Promise<AgreementState> {
  await db.transaction().execute(async (trx) => {
    const signer = await findSigner(trx, userId);
    if (!signer || Number(signer.member_id) !== memberId || signer.role !== 'member_admin' || signer.status !== 'active') {
      throw new DomainError('invalid', "only an active member_admin of this member may sign the member's data agreement", { code: 'agreement.admin_only' });
    }
    // Signing what is already signed (a second click, two admins at once) keeps the first signature.
    const signed = await trx.selectFrom('members').select('agreement_signed_on').where('id', '=', memberId).executeTakeFirstOrThrow();
    const last = await findLatestSignature(trx, memberId);
    if (signed.agreement_signed_on !== null && last?.version === AGREEMENT_VERSION) return;
    const now = clock.now();
    await insertSignature(trx, { member_id: memberId, user_id: userId, version: AGREEMENT_VERSION, signed_at: now });
    await updateMember(trx, memberId, { agreement_signed_on: quotaDayOf(now), updated_at: now });
  });
  return readAgreementState(db, memberId);
}

/** The member whose agreement it is: its own users read it; a user of another kind has none. */
function agreementMemberOf(actor: Actor): Extract<Actor, { kind: 'member_user' }> {
  if (actor.kind === 'member_user') return actor;
  throw new DomainError('forbidden', "only a member's users read and sign its data agreement", { code: 'actor.not_member_user' });
}

/**
 * The member's data agreement as the portal's agreement page reads and signs it (D28), built by
 * the composition root (src/services.ts). Who may sign is decided by `sign` against the stored
 * user, in the signing transaction.
 */
export function createAgreement(deps: { readonly db: Db; readonly clock: Clock }) {
  return {
    read: async (actor: Actor) => readAgreementState(deps.db, agreementMemberOf(actor).memberId),
    sign: async (actor: Actor) => {
      const user = agreementMemberOf(actor);
      return signAgreement(deps.db, deps.clock, user.memberId, user.userId);
    },
  };
}

export type Agreement = ReturnType<typeof createAgreement>;
