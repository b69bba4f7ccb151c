/** A member's API queries per day, whichever of its keys asked (D23 `usage`, D18 amended). */
import { requireMember } from '../members/members.service.ts';
import { memberSubject } from './allowance.ts';
import { listUsageBySubjects } from './usage.repository.ts';
import type { Db } from '../db/types.ts';

export async function memberUsage(db: Db, ref: string) {
  const member = await requireMember(db, ref);
  return { member: member.ref, days: await listUsageBySubjects(db, [memberSubject(Number(member.id))]) };
}
