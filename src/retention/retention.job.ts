/**
 * The daily retention job (D34) on the runner (src/jobs/): any process may run it, one at a time
 * (the runner's claim on its `job_state` row); a day every process missed is caught up by the
 * first to start, once, and a run always works from the present instant, so a late run expires
 * and deletes everything due by then. The same use case as `risklookup retention run`.
 */
import type { JobLog, PeriodicJob } from '../jobs/job-types.ts';
import { dailyAt } from '../jobs/schedule.ts';
import { RETENTION_JOB_ACTOR, type Retention } from './retention.service.ts';

export const RETENTION_JOB = 'retention';
/** 03:00 Turkey time: the quietest hour, before the webhook retention's 04:00. */
export const RETENTION_HOUR_TURKEY = 3;

export function retentionJob(deps: { retention: Pick<Retention, 'run'>; log: JobLog }): PeriodicJob {
  return {
    name: RETENTION_JOB,
    schedule: dailyAt(RETENTION_HOUR_TURKEY),
    async run({ signal }) {
      const outcome = await deps.retention.run(RETENTION_JOB_ACTOR, signal);
      deps.log.info(
        {
          expired: outcome.expired.count,
          deleted: outcome.deleted.count,
          auditDeleted: outcome.audit.deleted,
          lookupCountsDeleted: outcome.lookupMonths.deleted,
          anchorsFilled: outcome.anchorsFilled,
          changedMeanwhile: outcome.changedMeanwhile.length,
        },
        'retention: reports expired and deleted, old audit records purged (D34)',
      );
    },
  };
}
