/** A member's API queries per day, whichever of its keys asked (D23 `usage`, D18 amended). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { requireMember } from '../members/members.service.ts';
import { memberSubject } from './allowance.ts';
import { listUsageBySubjects } from './usage.repository.ts';

export async function memberUsage(db: Kysely<Database>, ref: string) {
  const member = await requireMember(db, ref);
  return { member: member.ref, days: await listUsageBySubjects(db, [memberSubject(Number(member.id))]) };
}
