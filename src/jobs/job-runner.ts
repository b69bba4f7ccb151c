/**
 * The one home of background work (STYLE "Background work has one home"; issue 30): periodic
 * jobs (every N seconds, or daily at a Turkey-time hour, a missed day caught up) and queues
 * (claim due items, run them with bounded concurrency). Every `serve` process runs one, started
 * with the server and drained on SIGTERM: nothing new starts, a job in progress finishes or is
 * given back, nothing is lost.
 *
 * Several processes on one database: a periodic run is taken by one conditional UPDATE of its
 * `job_state` row (one process wins; periodic-run.ts), a queue item by the feature's own claim
 * (PostgreSQL: row locks, `FOR UPDATE SKIP LOCKED`). On SQLite one process at a time does the
 * background work: the holder of the `runner` lease, renewed on every tick and taken over by
 * another process once it has expired (a holder killed with -9 renews nothing).
 *
 * Time for decisions comes from the injected clock; real timers only pace the ticks, so tests
 * drive `tick()` with a fake clock.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { EngineKind } from '../db/dialect-seam.ts';
import type { Clock } from '../lib/clock.ts';
import { ensureJobRow, releaseClaim, takeLease, type Claim } from './job-state.repository.ts';
import { queueBacklogOf, type JobCounts, type JobLog, type JobTelemetry, type PeriodicJob, type QueueJob } from './job-types.ts';
import { newClaim, runPeriodicIfDue } from './periodic-run.ts';
import { createQueuePump, type QueuePump } from './queue-pump.ts';
import { firstDue } from './schedule.ts';
import type { Db } from '../db/types.ts';

export interface JobRunnerSettings {
  /** How long a claim or the SQLite lease lasts without renewal (default 30 s). */
  readonly leaseMs: number;
  /** Real time between ticks (default 1 s): how soon due work is seen. */
  readonly pollMs: number;
  /** After a periodic job failed, how long before it is tried again (default 60 s). */
  readonly failureRetryMs: number;
}

export const DEFAULT_RUNNER_SETTINGS: JobRunnerSettings = { leaseMs: 30_000, pollMs: 1000, failureRetryMs: 60_000 };

/** The SQLite lease's row in job_state. */
export const SQLITE_LEASE = 'lease:runner';

export interface JobRunnerDeps {
  readonly db: Db;
  readonly engineKind: EngineKind;
  readonly clock: Clock;
  readonly log: JobLog;
  /** This process, in `job_state.holder` (default host:pid:random). */
  readonly holder?: string;
  readonly settings?: Partial<JobRunnerSettings>;
}

export interface JobRunner {
  addPeriodic(job: PeriodicJob): void;
  addQueue<Item>(job: QueueJob<Item>): void;
  /** Ticks now (adding the periodic jobs' rows first), then every `pollMs`. Register every job before. */
  start(): Promise<void>;
  /** One pass: (SQLite) the lease, then every due periodic job and every queue. Returns once work has started. */
  tick(): Promise<void>;
  /** Resolves when nothing this runner started is still running. */
  whenIdle(): Promise<void>;
  /** Starts nothing more, lets what runs finish (periodic jobs are asked to stop), gives the lease back. */
  drain(): Promise<void>;
  readonly telemetry: JobTelemetry;
}

interface Registered {
  readonly kind: 'periodic' | 'queue';
  runs: number;
  failures: number;
}

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const settings = { ...DEFAULT_RUNNER_SETTINGS, ...deps.settings };
  const holder = deps.holder ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const stop = new AbortController();
  const periodic: PeriodicJob[] = [];
  const queues: Array<{ job: QueueJob<unknown>; pump: QueuePump }> = [];
  const counts = new Map<string, Registered>();
  const periodicRunning = new Map<string, Promise<void>>();
  let lease: Claim | null = deps.engineKind === 'sqlite' ? newClaim(SQLITE_LEASE, holder) : null;
  let leaseHeldUntil = deps.engineKind === 'sqlite' ? -Infinity : Infinity;
  let ticking: Promise<void> | null = null;
  let rowsReady = false;
  let timer: NodeJS.Timeout | null = null;

  const mayWork = () => !stop.signal.aborted && deps.clock.now() < leaseHeldUntil;
  const register = (name: string, kind: Registered['kind']) => {
    if (counts.has(name)) throw new Error(`a job named ${name} is registered already`);
    counts.set(name, { kind, runs: 0, failures: 0 });
  };
  const count = (name: string, outcome: 'run' | 'failure') => {
    const entry = counts.get(name)!;
    if (outcome === 'run') entry.runs++;
    else entry.failures++;
  };

  /** SQLite: takes or renews the lease (renewed once a third of it has passed); true while this process may work. */
  async function holdLease(): Promise<boolean> {
    if (!lease) return true;
    const now = deps.clock.now();
    const wasHeld = now < leaseHeldUntil;
    if (wasHeld && leaseHeldUntil - now > (settings.leaseMs * 2) / 3) return true;
    const held = await takeLease(deps.db, lease, now, now + settings.leaseMs);
    leaseHeldUntil = held ? now + settings.leaseMs : -Infinity;
    if (held !== wasHeld) deps.log.info({ holder }, held ? 'this process now runs the background work (SQLite lease)' : 'the background-work lease was lost');
    return held;
  }

  function startPeriodic(job: PeriodicJob) {
    if (periodicRunning.has(job.name)) return;
    const run = runPeriodicIfDue(job, { db: deps.db, clock: deps.clock, log: deps.log, holder, stopping: stop.signal, ...settings })
      .then((outcome) => {
        if (outcome === 'succeeded') count(job.name, 'run');
        if (outcome === 'failed') count(job.name, 'failure');
      })
      .catch((error: unknown) => {
        count(job.name, 'failure');
        deps.log.warn({ err: error, job: job.name }, 'could not claim or record a job run; will try again');
      })
      .finally(() => periodicRunning.delete(job.name));
    periodicRunning.set(job.name, run);
  }

  /** The periodic jobs' rows, added once by the first process (a database not answering yet: next tick). */
  async function ensureRows() {
    const now = deps.clock.now();
    for (const job of periodic) await ensureJobRow(deps.db, job.name, firstDue(job.schedule, now));
    rowsReady = true;
  }

  async function tickOnce() {
    try {
      if (!rowsReady) await ensureRows();
      if (!(await holdLease())) return;
    } catch (error) {
      deps.log.warn({ err: error }, 'background work could not start its tick; will try again');
      return;
    }
    if (stop.signal.aborted) return;
    for (const job of periodic) startPeriodic(job);
    for (const { pump } of queues) pump.pump();
  }

  const runner: JobRunner = {
    addPeriodic(job) {
      if (rowsReady) throw new Error(`register ${job.name} before the runner starts`);
      register(job.name, 'periodic');
      periodic.push(job);
    },
    addQueue<Item>(job: QueueJob<Item>) {
      register(job.name, 'queue');
      const pump = createQueuePump(job, { log: deps.log, mayWork, stopping: stop.signal, counted: (outcome) => count(job.name, outcome) });
      queues.push({ job, pump });
    },
    async start() {
      timer = setInterval(() => void runner.tick(), settings.pollMs);
      timer.unref();
      await runner.tick();
    },
    tick() {
      if (stop.signal.aborted) return Promise.resolve();
      ticking ??= tickOnce().finally(() => (ticking = null));
      return ticking;
    },
    async whenIdle() {
      for (;;) {
        const pending = [ticking, ...periodicRunning.values()].filter((p) => p !== null);
        if (pending.length > 0) await Promise.allSettled(pending);
        await Promise.all(queues.map(({ pump }) => pump.whenIdle()));
        if (!ticking && periodicRunning.size === 0) return;
      }
    },
    async drain() {
      if (timer) clearInterval(timer);
      stop.abort(new Error('the process is draining'));
      await runner.whenIdle();
      if (lease && leaseHeldUntil > -Infinity) {
        await releaseClaim(deps.db, lease).catch((error: unknown) => deps.log.warn({ err: error }, 'could not give the lease back; it expires'));
        lease = null;
      }
    },
    telemetry: {
      counts: (): JobCounts[] => [...counts].map(([job, entry]) => ({ job, kind: entry.kind, runs: entry.runs, failures: entry.failures })),
      async backlog() {
        const now = deps.clock.now();
        return Promise.all(queues.map(async ({ job }) => queueBacklogOf(job.name, await job.backlog(), now)));
      },
    },
  };
  return runner;
}
