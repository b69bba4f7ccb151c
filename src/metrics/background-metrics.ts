/**
 * D36: the background work's figures (src/jobs/, the webhook delivery queue) in the same registry
 * as the app's, read from their telemetry when scraped. Counters mirror the process's own counts
 * (a `--workers` primary sums them); the backlog is a figure of the database, the same seen from
 * every process, so the primary takes its maximum, never the sum.
 * The events written (D31) are the database's count too (event_feed_head), aggregated with `max`.
 */
import type { JobLog, JobTelemetry, QueueBacklog } from '../jobs/job-types.ts';
import type { DeliveryOutcome } from '../webhooks/delivery-worker.ts';
import type { Metrics } from './metrics.ts';

export interface BackgroundFigures {
  readonly telemetry: JobTelemetry;
  readonly deliveries: { outcomes(): Readonly<Record<DeliveryOutcome, number>> };
  /** Committed `company.changed` events since the database was made, every process's (D31). */
  readonly eventsWritten?: () => Promise<number>;
}

/**
 * The figures of the database, the same from every process: the queues' backlog and the events
 * written. A process with no background work (`serve --background no`) shows them too, so that an
 * operator who scrapes only the API processes still sees the deliveries waiting.
 */
export interface DatabaseWorkFigures {
  backlog(): Promise<QueueBacklog[]>;
  /** Committed `company.changed` events since the database was made, every process's (D31). */
  readonly eventsWritten?: () => Promise<number>;
}

/** One backlog read per scrape, shared by the two gauges that show it (they are collected at once). */
function sharedBacklog(read: () => Promise<QueueBacklog[]>, log: Pick<JobLog, 'warn'>): () => Promise<QueueBacklog[] | null> {
  let pending: Promise<QueueBacklog[] | null> | null = null;
  let failing = false;
  return () =>
    (pending ??= read()
      .then((backlog) => {
        failing = false;
        return backlog;
      })
      .catch((error: unknown) => {
        // The database may be down: the other figures still answer; this one is absent meanwhile.
        if (!failing) log.warn({ err: error }, 'metrics: the queue backlog could not be read; it is left out until it can');
        failing = true;
        return null;
      })
      .finally(() => (pending = null)));
}

export function registerBackgroundMetrics(metrics: Metrics, work: BackgroundFigures, log: Pick<JobLog, 'warn'>): void {
  const { telemetry, deliveries } = work;
  metrics.counter({
    name: 'risklookup_job_runs_total',
    help: 'Background runs (periodic jobs) and items (queues) finished without an error, in this process',
    labelNames: ['job'],
    collect() {
      this.reset();
      for (const c of telemetry.counts()) this.inc({ job: c.job }, c.runs);
    },
  });
  metrics.counter({
    name: 'risklookup_job_failures_total',
    help: 'Background runs and items that failed (tried again later), in this process',
    labelNames: ['job'],
    collect() {
      this.reset();
      for (const c of telemetry.counts()) this.inc({ job: c.job }, c.failures);
    },
  });
  metrics.counter({
    name: 'risklookup_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome, in this process (D32)',
    labelNames: ['outcome'],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(deliveries.outcomes())) this.inc({ outcome }, n);
    },
  });
  registerDatabaseWorkMetrics(metrics, { backlog: () => telemetry.backlog(), ...(work.eventsWritten ? { eventsWritten: work.eventsWritten } : {}) }, log);
}

export function registerDatabaseWorkMetrics(metrics: Metrics, figures: DatabaseWorkFigures, log: Pick<JobLog, 'warn'>): void {
  const { eventsWritten } = figures;
  if (eventsWritten) {
    let failing = false;
    metrics.counter({
      name: 'risklookup_events_written_total',
      help: 'company.changed events written to the store (D31), committed, across every process (read from the database)',
      aggregator: 'max',
      async collect() {
        try {
          const n = await eventsWritten();
          this.reset();
          this.inc(n);
          failing = false;
        } catch (error) {
          if (!failing) log.warn({ err: error }, 'metrics: the events written could not be read; it is left out until it can');
          failing = true;
        }
      },
    });
  }
  const backlog = sharedBacklog(() => figures.backlog(), log);
  metrics.gauge({
    name: 'risklookup_queue_backlog',
    help: 'Queued items due now, across every process (read from the database)',
    labelNames: ['queue'],
    aggregator: 'max',
    async collect() {
      const queues = await backlog();
      this.reset();
      for (const q of queues ?? []) this.set({ queue: q.queue }, q.due);
    },
  });
  metrics.gauge({
    name: 'risklookup_queue_oldest_age_seconds',
    help: 'How long the oldest due item has waited past its due time, seconds (0: none due)',
    labelNames: ['queue'],
    aggregator: 'max',
    async collect() {
      const queues = await backlog();
      this.reset();
      for (const q of queues ?? []) this.set({ queue: q.queue }, q.oldestAgeSeconds);
    },
  });
}
