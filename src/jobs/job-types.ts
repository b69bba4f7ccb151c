/** What a feature hands the runner (job-runner.ts), and what the runner tells /metrics. */
import type { Schedule } from './schedule.ts';

/** The few log methods the runner and its jobs use (pino's Logger has them). */
export interface JobLog {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface PeriodicRun {
  /** The due instant this run is for (a daily job caught up late still knows its day). */
  readonly scheduledFor: number;
  /**
   * Aborts when the process drains or the claim was lost: stop at the next safe point and throw
   * (`signal.throwIfAborted()`); the run is then given back, still owed, to the next process.
   */
  readonly signal: AbortSignal;
}

/** Work done once per due instant across every process sharing the database. */
export interface PeriodicJob {
  readonly name: string;
  readonly schedule: Schedule;
  run(run: PeriodicRun): Promise<void>;
}

/**
 * Work that arrives as rows: the runner claims due items with bounded concurrency and runs each.
 * The feature owns its table and its claim (which must leave an item to another process once
 * the claim expires: a process killed with -9 gives nothing back).
 */
export interface QueueJob<Item> {
  readonly name: string;
  /** Items run at once in this process. */
  readonly concurrency: number;
  /**
   * While items run, a claim waits until at least this many slots are free (fewer, larger claims:
   * one transaction for several items); 1 when absent. With nothing running it claims at once.
   */
  readonly claimBatch?: number;
  /**
   * How many of `wanted` free slots may be claimed now (fewer, or none for `retryInMs`): a job
   * that yields to the process's requests (the delivery worker, webhooks/delivery-pace.ts).
   * All of them when absent.
   */
  pace?(wanted: number): { limit: number; retryInMs: number };
  /** Claims up to `limit` due items for this process. */
  claim(limit: number): Promise<Item[]>;
  /**
   * Runs one claimed item and records its outcome. `signal` aborts on drain; a run in progress
   * may finish (bounded by its own timeout) or stop and leave the item to be retried.
   * `freeSlot()`, when the run calls it, gives its slot to the next item before the run ends (the
   * delivery worker: the receiver has answered, the outcome is still to be written): the run
   * still counts until it ends (drain waits for it, its outcome is counted), and no more than
   * twice `concurrency` runs are kept at once, ending or not.
   */
  run(item: Item, signal: AbortSignal, freeSlot: () => void): Promise<void>;
  /** Gives back claimed items that will not be run (claimed as the process began to drain). */
  release(items: readonly Item[]): Promise<void>;
  /** Items due now, and the due instant of the oldest (null when none). */
  backlog(): Promise<{ due: number; oldestDueAt: number | null }>;
}

/** Per job, since this process started: what Prometheus counters read. */
export interface JobCounts {
  readonly job: string;
  readonly kind: 'periodic' | 'queue';
  /** Runs (periodic) or items (queue) finished without throwing. */
  readonly runs: number;
  /** Runs or items that threw (a delivery the receiver refused is not one: it was recorded). */
  readonly failures: number;
}

export interface QueueBacklog {
  readonly queue: string;
  /** Items due now, across every process. */
  readonly due: number;
  /** How long the oldest due item has waited past its due instant, seconds; 0 when none. */
  readonly oldestAgeSeconds: number;
}

/** A queue's backlog as /metrics shows it, from its `backlog()` read at `now` (ms). */
export function queueBacklogOf(queue: string, backlog: { due: number; oldestDueAt: number | null }, now: number): QueueBacklog {
  const { due, oldestDueAt } = backlog;
  return { queue, due, oldestAgeSeconds: oldestDueAt === null ? 0 : Math.max(0, Math.round((now - oldestDueAt) / 1000)) };
}

/** What /metrics needs from the runner (D36); the lead binds it to prom-client. */
export interface JobTelemetry {
  counts(): JobCounts[];
  backlog(): Promise<QueueBacklog[]>;
}
