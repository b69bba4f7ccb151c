/**
 * A member's answered searches per quota day, API and portal apart (D28).
 *
 * Source: the usage counters, for both channels. They are exactly what D18 charged (a 200
 * answer, nothing else), one small row per subject and day (read through their primary key),
 * and they are not purged with the audit log. The API's are the `key:<id>` counters of every key
 * the member ever had; the portal's the `user:<id>` counters of its users. The audit log records
 * refused requests too, and would have to be counted row by row.
 */
import { sql } from 'kysely';
import type { Clock } from '../lib/clock.ts';
import { memberSubject, USER_SUBJECT_PREFIX } from './allowance.ts';
import { lastQuotaDays, usageSeries, type UsageDay } from './usage-series.ts';
import type { Db } from '../db/types.ts';

export const USAGE_DAYS = 30;

export async function readMemberUsage(db: Db, clock: Clock, memberId: number, count = USAGE_DAYS): Promise<UsageDay[]> {
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
