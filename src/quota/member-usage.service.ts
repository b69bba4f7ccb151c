/**
 * A member's answered searches per quota day: API and portal apart for the member's own usage
 * page (D28), and the API's per day for the CLI's `usage` (D23, D18 amended).
 *
 * Source: the usage counters, for both channels. They are exactly what D18 charged (a 200
 * answer, nothing else), one small row per subject and day (read through their primary key),
 * and they are not purged with the audit log. The API's are the `key:<id>` counters of every key
 * the member ever had; the portal's the `user:<id>` counters of its users. The audit log records
 * refused requests too, and would have to be counted row by row.
 */
import { sql } from 'kysely';
import type { Actor } from '../actors/actor.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { requireMember } from '../members/members.service.ts';
import { memberSubject, USER_SUBJECT_PREFIX } from './allowance.ts';
import { listUsageBySubjects } from './usage.repository.ts';
import { lastQuotaDays, usageSeries, type UsageDay } from './usage-series.ts';
import type { Db } from '../db/types.ts';

const USAGE_DAYS = 30;

async function readMemberUsage(db: Db, clock: Clock, memberId: number, count = USAGE_DAYS): Promise<UsageDay[]> {
  const days = lastQuotaDays(clock.now(), count);
  const counters = await db
    .selectFrom('usage_counters')
    .select(['day', 'subject', 'used'])
    .where('day', '>=', days[0]!)
    .where('day', '<=', days[days.length - 1]!)
    .where((eb) =>
      eb.or([
        eb('subject', '=', memberSubject(memberId)),
        eb(
          'subject',
          'in',
          eb
            .selectFrom('users')
            .select(sql<string>`${sql.lit(USER_SUBJECT_PREFIX)} || id`.as('s'))
            .where('member_id', '=', memberId),
        ),
      ]),
    )
    .execute();
  return usageSeries(
    days,
    counters.map((c) => ({ day: c.day, subject: c.subject, used: Number(c.used) })),
  );
}

/** A member's API queries per day, whichever of its keys asked (D23 `usage`, D18 amended), newest first. */
async function apiUsageByDay(db: Db, ref: string) {
  const member = await requireMember(db, ref);
  return { member: member.ref, days: await listUsageBySubjects(db, [memberSubject(Number(member.id))]) };
}

/**
 * A member's usage, built by the composition root (src/services.ts): its own users read the last
 * 30 quota days (the portal's usage page and CSV); an operator or the CLI reads any member's API
 * queries per day by ref.
 */
export function createMemberUsage(deps: { readonly db: Db; readonly clock: Clock }) {
  return {
    /** The member's last 30 quota days, API and portal apart, oldest first (D28). */
    lastDays: async (actor: Actor) => {
      if (actor.kind !== 'member_user') throw new DomainError('forbidden', "only a member's users read its usage", { code: 'actor.not_member_user' });
      return readMemberUsage(deps.db, deps.clock, actor.memberId);
    },
    /** Every day the member's keys were asked, newest first; not_found for an unknown ref. */
    apiByDay: async (actor: Actor, input: { ref: string }) => {
      if (actor.kind !== 'operator' && actor.kind !== 'cli')
        throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
      return apiUsageByDay(deps.db, input.ref);
    },
  };
}

export type MemberUsage = ReturnType<typeof createMemberUsage>;
