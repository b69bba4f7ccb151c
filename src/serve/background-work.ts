/**
 * The server's background work: one runner (src/jobs/) per process with every job registered
 * here, started after the server listens and drained with it on SIGTERM (server.ts). Its figures
 * go to /metrics through src/metrics/background-metrics.ts.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { disputeLapseJob } from '../disputes/dispute-lapse.job.ts';
import type { Config } from '../config.ts';
import type { Engine } from '../db/connect.ts';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts';
import type { Clock } from '../lib/clock.ts';
import { retentionJob } from '../retention/retention.job.ts';
import { createServices } from '../services.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { createDeliveryQueue, deliveryRetentionJob, DELIVERY_QUEUE, type DeliveryQueue } from '../webhooks/delivery-worker.ts';
import { deliveryBacklog } from '../webhooks/deliveries.repository.ts';
import { queueBacklogOf } from '../jobs/job-types.ts';
import type { DatabaseWorkFigures } from '../metrics/background-metrics.ts';
import { DEFAULT_PACE, type RequestLoad } from '../webhooks/delivery-pace.ts';
import { systemResolver } from '../webhooks/safe-lookup.ts';
import { eventRetentionJob } from '../events/event-feed.service.ts';
import { readEventsWritten } from '../events/events.repository.ts';
import { companyChangesPurgeJob } from '../search/company-changes.job.ts';

export interface BackgroundWorkDeps {
  readonly engine: Engine;
  readonly clock: Clock;
  readonly config: Config;
  readonly log: Logger;
  /** D35: the ring the whole installation shares; it opens the webhook signing secrets. */
  readonly keyRing: Pick<KeyRing, 'open' | 'toText'>;
  /** The requests at this process's admission gate (D26): deliveries yield to them (webhooks/delivery-pace.ts). */
  readonly requestLoad?: () => RequestLoad;
}

export interface BackgroundWork extends JobRunner {
  /** The delivery queue's outcomes, for /metrics. */
  readonly deliveries: Pick<DeliveryQueue, 'outcomes'>;
  /** Events written (D31), committed, across every process: read from the database. */
  eventsWritten(): Promise<number>;
}

/**
 * PostgreSQL connections of the background work's own pool in a `serve` process (beside
 * RISKLOOKUP_DB_POOL_SIZE for the requests): the runner's tick and a daily job at once, and what
 * the delivery worker writes in the serving thread (a deferral, a release at drain). Its
 * statements never take a connection that a search waits for, and never wait behind the searches
 * for one (issue 30, third pass). The deliveries' claims and outcomes have the sending thread's
 * own connection (webhooks/delivery-store.ts): 3 beside the requests' pool in all.
 */
export const BACKGROUND_POOL_SIZE = 2;

export function buildBackgroundWork(deps: BackgroundWorkDeps): BackgroundWork {
  const { engine, clock, config, log } = deps;
  // Every statement of the background work goes through the engine's background pool (PostgreSQL).
  const db = engine.backgroundDb;
  const runner = createJobRunner({ db, engineKind: engine.seam.kind, clock, log });
  // The jobs' use cases from the composition root; each job acts as a `system` actor.
  const { retention, disputes } = createServices({ db, seam: engine.seam, clock, config, log });
  // D34: reports expired and deleted, audit records (D21) purged: one daily job, one setting each.
  runner.addPeriodic(retentionJob({ retention, log }));
  runner.addPeriodic(deliveryRetentionJob({ db, clock, log }));
  runner.addPeriodic(eventRetentionJob({ db, clock, log }));
  runner.addPeriodic(disputeLapseJob({ disputes, log }));
  // The names' change log (migration 0021), read by every process's index of names.
  runner.addPeriodic(companyChangesPurgeJob({ db: engine.db, log }));
  const queue = createDeliveryQueue({
    db,
    seam: engine.seam,
    clock,
    log,
    keyRing: deps.keyRing,
    addresses: { resolve: systemResolver, allowPrivate: config.webhookAllowPrivateAddresses },
    holder: `${hostname()}:${process.pid}`,
    // Signing and sending off the event loop that serves the searches (issue 30); on PostgreSQL
    // the claims and the outcomes' writes too, on the sending thread's own connections.
    sendInThread: true,
    ...(engine.seam.kind === 'postgres'
      ? {
          storeInThread: {
            url: config.databaseUrl,
            statementTimeoutMs: config.dbStatementTimeoutMs,
            connectionWaitMs: config.dbConnectionWaitMs,
            pooler: config.dbPooler,
          },
        }
      : {}),
    settings: {
      concurrency: config.webhookConcurrency,
      perEndpoint: config.webhookConcurrencyPerEndpoint,
      pace: { ...DEFAULT_PACE, ratePerSecond: config.webhookRateWhileServing },
    },
    ...(deps.requestLoad ? { requestLoad: deps.requestLoad } : {}),
  });
  runner.addQueue(queue);
  return {
    ...runner,
    deliveries: queue,
    eventsWritten: () => readEventsWritten(db),
    async drain() {
      await runner.drain();
      queue.close();
    },
  };
}

/**
 * The background work's figures that any process reads from the database (the delivery queue's
 * backlog, the events written), for a process that runs no background work (`serve --background
 * no`): the same values as the background process's /metrics shows.
 */
export function databaseWorkFigures(deps: Pick<BackgroundWorkDeps, 'engine' | 'clock'>): DatabaseWorkFigures {
  const db = deps.engine.backgroundDb;
  return {
    async backlog() {
      const now = deps.clock.now();
      return [queueBacklogOf(DELIVERY_QUEUE, await deliveryBacklog(db, now), now)];
    },
    eventsWritten: () => readEventsWritten(db),
  };
}
