/** A member's queries per day, over all its keys (D23 `usage`). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { listKeyIdsOfMember } from '../keys/keys.repository.ts';
import { requireMember } from '../members/members.service.ts';
import { keySubject } from './allowance.ts';
import { listUsageBySubjects } from './usage.repository.ts';

export async function memberUsage(db: Kysely<Database>, ref: string) {
  const member = await requireMember(db, ref);
  const keyIds = await listKeyIdsOfMember(db, Number(member.id));
  return { member: member.ref, days: await listUsageBySubjects(db, keyIds.map(keySubject)) };
}
