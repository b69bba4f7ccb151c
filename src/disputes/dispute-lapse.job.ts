/**
 * D33's 15-day rule as a daily job of the runner (src/jobs/): at 01:00 Turkey time every dispute whose filing members did not answer within their
 * 15 days lapses, and an unsupported claim is deactivated "not supported in a dispute". One
 * process a day across every process (the runner's claim); a missed day is caught up by the next
 * run, which lapses every dispute late by then, however late.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RecordCompanyChanges } from '../events/company-changes.ts';
import type { Clock } from '../lib/clock.ts';
import type { JobLog, PeriodicJob } from '../jobs/job-types.ts';
import { dailyAt } from '../jobs/schedule.ts';
import { lapseOverdueDisputes } from './disputes.service.ts';

export const DISPUTE_LAPSE_JOB = 'dispute-lapse';
/** The first hour of a Turkey day: a deadline's last day has fully passed. */
export const DISPUTE_LAPSE_HOUR = 1;

export function disputeLapseJob(deps: { db: Kysely<Database>; clock: Clock; log: JobLog; recordCompanyChanges?: RecordCompanyChanges }): PeriodicJob {
  return {
    name: DISPUTE_LAPSE_JOB,
    schedule: dailyAt(DISPUTE_LAPSE_HOUR),
    async run({ signal }) {
      const lapsed = await lapseOverdueDisputes(deps, signal);
      if (lapsed.length > 0) deps.log.info({ disputes: lapsed }, 'disputes lapsed: the filing members did not answer within 15 days');
    },
  };
}
