/**
 * D33's 15-day rule as a daily job of the runner (src/jobs/): at 01:00 Turkey time every dispute whose filing members did not answer within their
 * 15 days lapses, and an unsupported claim is deactivated "not supported in a dispute". One
 * process a day across every process (the runner's claim); a missed day is caught up by the next
 * run, which lapses every dispute late by then, however late.
 */
import type { JobLog, PeriodicJob } from '../jobs/job-types.ts';
import { dailyAt } from '../jobs/schedule.ts';
import type { Disputes } from './disputes.service.ts';

export const DISPUTE_LAPSE_JOB = 'dispute-lapse';
/** The first hour of a Turkey day: a deadline's last day has fully passed. */
export const DISPUTE_LAPSE_HOUR = 1;

/** The job acts as itself (a `system` actor); the service it calls comes from the composition root. */
export function disputeLapseJob(deps: { disputes: Pick<Disputes, 'lapseOverdue'>; log: JobLog }): PeriodicJob {
  return {
    name: DISPUTE_LAPSE_JOB,
    schedule: dailyAt(DISPUTE_LAPSE_HOUR),
    async run({ signal }) {
      const lapsed = await deps.disputes.lapseOverdue({ kind: 'system', job: DISPUTE_LAPSE_JOB }, { signal });
      if (lapsed.length > 0) deps.log.info({ disputes: lapsed }, 'disputes lapsed: the filing members did not answer within 15 days');
    },
  };
}
