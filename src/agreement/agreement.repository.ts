import type { Insertable, Selectable } from 'kysely';
import type { AgreementSignaturesTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';

export type SignatureRow = Selectable<AgreementSignaturesTable>;

export async function insertSignature(db: Db, signature: Insertable<AgreementSignaturesTable>): Promise<void> {
  await db.insertInto('agreement_signatures').values(signature).execute();
}

/** The member's latest signature with the signer's name (null for one recorded without a user). */
export async function findLatestSignature(db: Db, memberId: number) {
  return db
    .selectFrom('agreement_signatures')
    .leftJoin('users', 'users.id', 'agreement_signatures.user_id')
    .select(['agreement_signatures.version', 'agreement_signatures.signed_at', 'users.name as signer'])
    .where('agreement_signatures.member_id', '=', memberId)
    .orderBy('agreement_signatures.signed_at', 'desc')
    .orderBy('agreement_signatures.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The signer as stored: role, member and status decide whether they may sign. */
export async function findSigner(db: Db, userId: number) {
  return db.selectFrom('users').select(['id', 'role', 'member_id', 'status']).where('id', '=', userId).executeTakeFirst();
}
