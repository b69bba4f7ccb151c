/** The audit purge (D21 keeps, this bounds) as a periodic job of the runner (src/jobs/). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { JobLog, PeriodicJob } from '../jobs/job-types.ts';
import { every } from '../jobs/schedule.ts';
import { DAYS, purgeAudit } from './audit-retention.ts';

/** Every 6 hours, as before the runner: one process a period now, where each process used to purge. */
export const AUDIT_PURGE_EVERY_SECONDS = 6 * 60 * 60;

export function auditPurgeJob(deps: { db: Kysely<Database>; clock: Clock; log: JobLog; retentionDays: number }): PeriodicJob {
  return {
    name: 'audit-purge',
    schedule: every(AUDIT_PURGE_EVERY_SECONDS),
    async run({ signal }) {
      const deleted = await purgeAudit(deps.db, deps.clock, DAYS(deps.retentionDays), signal);
      if (deleted > 0) deps.log.info({ deleted }, 'purged old audit records');
    },
  };
}
