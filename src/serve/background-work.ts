/**
 * The server's background work: one runner (src/jobs/) per process with every job registered
 * here, started after the server listens and drained with it on SIGTERM (server.ts).
 */
import type { Logger } from 'pino';
import { auditPurgeJob } from '../audit/audit-purge.job.ts';
import type { Config } from '../config.ts';
import type { Engine } from '../db/connect.ts';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts';
import type { Clock } from '../lib/clock.ts';

export function buildBackgroundWork(deps: { engine: Engine; clock: Clock; config: Config; log: Logger }): JobRunner {
  const { engine, clock, config, log } = deps;
  const runner = createJobRunner({ db: engine.db, engineKind: engine.seam.kind, clock, log });
  if (config.auditRetentionDays > 0) runner.addPeriodic(auditPurgeJob({ db: engine.db, clock, log, retentionDays: config.auditRetentionDays }));
  return runner;
}
