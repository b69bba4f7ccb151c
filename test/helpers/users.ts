/**
 * Portal users for service tests, written straight into `users` (the invitation flow belongs to
 * the portal's own tests). Returns the user's id.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRole, UserStatus } from '../../src/db/schema.ts';
import { NOON_TR } from './app.ts';

export async function makeUser(db: Kysely<Database>, spec: { email: string; role: UserRole; memberRef?: string; status?: UserStatus }): Promise<number> {
  const member = spec.memberRef ? await db.selectFrom('members').select('id').where('ref', '=', spec.memberRef).executeTakeFirstOrThrow() : null;
  const row = await db
    .insertInto('users')
    .values({
      email: spec.email,
      email_norm: spec.email.toLowerCase(),
      name: spec.email.split('@')[0]!,
      role: spec.role,
      member_id: member === null ? null : Number(member.id),
      status: spec.status ?? 'active',
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
      created_at: NOON_TR,
      updated_at: NOON_TR,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function memberIdOf(db: Kysely<Database>, ref: string): Promise<number> {
  const row = await db.selectFrom('members').select('id').where('ref', '=', ref).executeTakeFirstOrThrow();
  return Number(row.id);
}
