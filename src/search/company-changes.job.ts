/**
 * The change log of the searchable names (migration 0021) kept short: every 10 minutes, one
 * process deletes all but its newest rows. A process that had not read the rows deleted
 * (stopped, or far behind) finds the NULL row left in their place and builds its index of names
 * again (visible-names-keeper.ts), as it would anyway after more changes than a catch-up reads.
 */
import type { Db } from '../db/types.ts';
import { every } from '../jobs/schedule.ts';
import type { JobLog, PeriodicJob } from '../jobs/job-types.ts';
import { purgeChanges } from './visible-names.repository.ts';

/** Rows kept: ten times what one catch-up reads (visible-names-keeper.ts, maxCatchUp). */
export const CHANGES_KEPT = 50_000;

export function companyChangesPurgeJob(deps: { db: Db; log: JobLog; keep?: number }): PeriodicJob {
  return {
    name: 'company-changes-purge',
    schedule: every(600),
    async run() {
      const deleted = await purgeChanges(deps.db, deps.keep ?? CHANGES_KEPT);
      if (deleted > 0) deps.log.info({ deleted }, 'old rows of the names change log deleted');
    },
  };
}
