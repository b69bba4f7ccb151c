/**
 * One periodic job's turn: claim the due run (one process wins), keep the claim alive while it
 * runs, then record the next due instant — or, when it failed, keep the run owed and wait a
 * little; when the process drains or the claim was lost, give the run back still owed.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { claimDueRun, failRun, finishRun, releaseClaim, renewClaim, type Claim } from './job-state.repository.ts';
import type { JobLog, PeriodicJob } from './job-types.ts';
import { nextDue } from './schedule.ts';

export interface PeriodicRunDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: JobLog;
  readonly holder: string;
  readonly leaseMs: number;
  readonly failureRetryMs: number;
  /** Aborts when the process drains. */
  readonly stopping: AbortSignal;
}

export type PeriodicOutcome = 'not_due' | 'succeeded' | 'failed' | 'released';

export function newClaim(name: string, holder: string): Claim {
  return { name, holder, token: randomBytes(12).toString('base64url') };
}

/**
 * Renews the claim every third of the lease (real time), and aborts `lost` when a renewal finds
 * it gone: a holder stalled past its lease has been replaced and must stop.
 */
function keepAlive(deps: PeriodicRunDeps, claim: Claim, lost: AbortController): () => void {
  const timer = setInterval(
    () => {
      renewClaim(deps.db, claim, deps.clock.now() + deps.leaseMs)
        .then((held) => {
          if (!held) lost.abort(new Error(`the claim on ${claim.name} was lost (lease expired)`));
        })
        .catch((error: unknown) => deps.log.warn({ err: error, job: claim.name }, 'could not renew a job claim; will try again'));
    },
    Math.max(1, Math.floor(deps.leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

export async function runPeriodicIfDue(job: PeriodicJob, deps: PeriodicRunDeps): Promise<PeriodicOutcome> {
  const claim = newClaim(job.name, deps.holder);
  const started = deps.clock.now();
  const scheduledFor = await claimDueRun(deps.db, claim, started, started + deps.leaseMs);
  if (scheduledFor === null) return 'not_due';
  const lost = new AbortController();
  const signal = AbortSignal.any([deps.stopping, lost.signal]);
  const stopKeepingAlive = keepAlive(deps, claim, lost);
  try {
    await job.run({ scheduledFor, signal });
  } catch (error) {
    if (signal.aborted) {
      await releaseClaim(deps.db, claim);
      deps.log.info({ job: job.name }, 'job stopped before it finished; the run is left to the next process');
      return 'released';
    }
    const now = deps.clock.now();
    await failRun(deps.db, claim, now, now + deps.failureRetryMs, error instanceof Error ? error.message : String(error));
    deps.log.warn({ err: error, job: job.name }, `job failed; will try again in ${Math.round(deps.failureRetryMs / 1000)} s`);
    return 'failed';
  } finally {
    stopKeepingAlive();
  }
  const now = deps.clock.now();
  await finishRun(deps.db, claim, now, nextDue(job.schedule, scheduledFor, now));
  deps.log.debug({ job: job.name, ms: now - started }, 'job finished');
  return 'succeeded';
}
