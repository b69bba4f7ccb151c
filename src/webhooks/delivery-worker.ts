/**
 * The delivery worker (D32): a queue of the background-work runner (src/jobs/). It claims due
 * deliveries (deliveries.repository.ts: SKIP LOCKED on PostgreSQL; on SQLite the runner's lease
 * lets one process claim), signs each with the endpoint's secrets (opened with the key ring, D35,
 * bound to the endpoint's row), sends it (webhook-sender.ts,
 * the address checked again at connection time), and records the outcome with the next step
 * (delivery-rules.ts) — disabling the endpoint, in the same transaction, when it is `410 Gone` or
 * the last retry failed.
 *
 * Its concurrency is its own (in all, and per endpoint), apart from D26's admission gate: a
 * receiver that answers slowly or never holds a socket and a slot here, never a request's turn
 * or a database connection (the claim and the record are short transactions around the request).
 */
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { JobLog, PeriodicJob, QueueJob } from '../jobs/job-types.ts';
import { dailyAt } from '../jobs/schedule.ts';
import type { Clock } from '../lib/clock.ts';
import { SecretUnreadableError, type KeyRing } from '../secrets/key-ring.ts';
import { deferDelivery, deliveryBacklog, purgeDeliveriesBefore, releaseDeliveries, type ClaimedDelivery } from './deliveries.repository.ts';
import { databaseDeliveryStore } from './delivery-store.ts';
import { createDeliveryPacer, DEFAULT_PACE, type PaceSettings, type RequestLoad } from './delivery-pace.ts';
import { decideAfterAttempt, type AttemptDecision } from './delivery-rules.ts';
import { forgetExpiredPreviousSecrets } from './endpoints.repository.ts';
import { createInThreadSender, createThreadSender, type ThreadDatabase } from './attempt-sender.ts';
import type { SecretWarning } from './signing-secrets.ts';
import { systemResolver, type AddressRule } from './safe-lookup.ts';
import { DELIVERY_TIMEOUT_MS } from './webhook-sender.ts';
import { DELIVERIES_KEPT_DAYS } from './webhook-rules.ts';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/types.ts';

export const DELIVERY_QUEUE = 'webhook-deliveries';

export interface DeliverySettings {
  /**
   * Attempts waiting for their receiver's answer at once in this process (default 64). An answered
   * attempt gives its slot to the next one while its outcome is written (at most as many again).
   */
  readonly concurrency: number;
  /** … of which to one endpoint (default 4). */
  readonly perEndpoint: number;
  /** A 2xx within this is success (D32: 10 s; tests shorten it). */
  readonly timeoutMs: number;
  /**
   * How long a claim lasts: longer than an attempt can take, so no other process sends the same
   * delivery while this one waits for its answer; a process killed with -9 leaves it this long.
   */
  readonly claimMs: number;
  /** While the process's requests are in work or waiting, deliveries start at this pace (delivery-pace.ts). */
  readonly pace: PaceSettings;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  concurrency: 64,
  perEndpoint: 4,
  timeoutMs: DELIVERY_TIMEOUT_MS,
  claimMs: DELIVERY_TIMEOUT_MS + 20_000,
  pace: DEFAULT_PACE,
};

export interface DeliveryWorkerDeps {
  readonly db: Db;
  readonly seam: Pick<DialectSeam, 'claimRows' | 'kind'>;
  readonly clock: Clock;
  readonly log: JobLog;
  /**
   * D35: opens the endpoints' signing secrets (every process of the installation has the same
   * ring), in the thread that signs (signing-secrets.ts): with `sendInThread`, the sending thread,
   * which is handed the ring's text at its start.
   */
  readonly keyRing: Pick<KeyRing, 'open' | 'toText'>;
  readonly addresses: AddressRule;
  /** This process, on its claims. */
  readonly holder: string;
  readonly settings?: Partial<DeliverySettings>;
  /** Certificates to trust besides the system's (tests' local receivers only). */
  readonly trustedCa?: string | Buffer;
  /**
   * Sign and send in a worker thread of their own, off the event loop that serves requests
   * (attempt-sender.ts; `serve`). Needs the system's resolver: a test's own resolver cannot cross
   * into the thread.
   */
  readonly sendInThread?: boolean;
  /**
   * With `sendInThread`, on PostgreSQL: the claims and the outcomes' writes on connections of the
   * sending thread's own to this database (delivery-store.ts), not on `db` in the serving thread.
   */
  readonly storeInThread?: ThreadDatabase;
  /**
   * The serving process's requests at its admission gate (D26): deliveries yield to them
   * (delivery-pace.ts). Absent (tests' workers, no server): deliveries are not paced.
   */
  readonly requestLoad?: () => RequestLoad;
  /** For the pace only: a monotonic clock in ms (performance.now by default). */
  readonly monotonicNow?: () => number;
  /** [0, 1); Math.random by default. */
  readonly jitter?: () => number;
}

/**
 * Attempts by outcome in this process, for /metrics (D36: webhook deliveries by outcome);
 * `secret_unreadable`: not sent, because this process's ring cannot open the signing secret.
 */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'lost_claim' | 'secret_unreadable';

/**
 * How long a delivery whose signing secret this process cannot open waits before it is claimed
 * again: long enough not to spin, short enough for a process with the right ring (a rolling
 * restart onto a new ring) or a restored key to take it soon.
 */
export const UNREADABLE_SECRET_WAIT_MS = 60_000;

/** What the portal shows for such a delivery (the server log names the key). */
export const UNREADABLE_SECRET_ERROR =
  "not sent: the server could not read this endpoint's signing secret; it tries again in a minute (its operators are told in the server log)";

export interface DeliveryQueue extends QueueJob<ClaimedDelivery> {
  outcomes(): Readonly<Record<DeliveryOutcome, number>>;
  /** Closes idle connections (after the runner drained). */
  close(): void;
}

function recordOf(decision: AttemptDecision, now: number, status: number | null) {
  if (decision.kind === 'succeeded') return { state: 'succeeded' as const, now, status, error: null };
  if (decision.kind === 'retry') return { state: 'pending' as const, now, nextAttemptAt: decision.at, status, error: decision.error };
  return { state: 'failed' as const, now, status, error: decision.error };
}

export interface AttemptOutcome {
  readonly delivery: ClaimedDelivery;
  readonly decision: AttemptDecision;
  readonly now: number;
  readonly status: number | null;
}

/**
 * Group commit of attempts' outcomes: one transaction records every outcome that arrived while
 * the previous one was being written (at most `max`), instead of one transaction per delivery.
 * At 10,000 deliveries this is what keeps the worker from holding SQLite's one connection turn
 * after turn while searches wait (issue 30's load). With nothing in progress, an outcome is
 * written after the current turn of the event loop, with whatever else finished in it; while
 * `gather()` names a batch (the process serves requests), outcomes wait until that many have
 * gathered or `ms` after the first of them, whichever comes first (the database's writer taken a
 * few times a second, not at every delivery). A failed transaction fails each of its attempts'
 * runs: their claims expire and they are attempted again (at least once).
 */
export function createAttemptRecorder(
  write: (batch: readonly AttemptOutcome[]) => Promise<boolean[]>,
  options: { max?: number; gather?: (queued: number) => { count: number; ms: number } | null } = {},
) {
  const max = options.max ?? 64;
  let queue: Array<{ outcome: AttemptOutcome; resolve: (recorded: boolean) => void; reject: (error: unknown) => void }> = [];
  let writing = false;
  let waitingFor: NodeJS.Timeout | null = null;
  /** Whether the outcomes queued now are a batch to write at once (else they wait for more, or for the time limit). */
  const batchReady = (): boolean => {
    const gather = options.gather?.(queue.length) ?? null;
    return gather === null || queue.length >= gather.count;
  };
  const waitForMore = () => {
    waitingFor ??= setTimeout(() => void flush(), options.gather?.(queue.length)?.ms ?? 0);
  };
  const flush = async (forced = true): Promise<void> => {
    if (waitingFor) clearTimeout(waitingFor);
    waitingFor = null;
    writing = true;
    for (let first = forced; queue.length > 0; first = false) {
      // Outcomes that arrived while the previous batch was written wait for their own batch too
      // (issue 30, sixth pass: written at once, they made batches of ~2 — one commit for every
      // two deliveries — because a local receiver's answers trickle in during each write).
      if (!first && !batchReady()) {
        waitForMore();
        break;
      }
      const batch = queue.slice(0, max);
      queue = queue.slice(max);
      try {
        const results = await write(batch.map((b) => b.outcome));
        batch.forEach((b, i) => b.resolve(results[i]!));
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    writing = false;
  };
  return {
    record(outcome: AttemptOutcome): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ outcome, resolve, reject });
        if (writing) return;
        if (batchReady()) {
          if (waitingFor) clearTimeout(waitingFor);
          waitingFor = null;
          writing = true;
          setImmediate(() => void flush());
        } else waitForMore();
      });
    },
  };
}

/** While serving: outcomes written in batches of a claim's size (or of every attempt still waiting, when fewer), or this long after the first. */
export const RECORD_GATHER_MS = 50;

/**
 * Claims look for expired claims (a process killed mid-delivery) at most this often, unless the
 * last look found some: at 250 deliveries a second, a look at every claim was one statement in
 * seven of each claim's transaction, finding nothing (issue 30, sixth pass). Far below the claim's
 * own 30 s, so what a killed process leaves is taken again as soon as before, give or take this.
 */
export const EXPIRED_CLAIMS_LOOK_MS = 1000;

/** Items claimed at once, and outcomes written at once while serving: at most this many. */
export const CLAIM_BATCH_MAX = 16;

export function createDeliveryQueue(deps: DeliveryWorkerDeps): DeliveryQueue {
  const settings = { ...DEFAULT_DELIVERY_SETTINGS, ...deps.settings };
  if (settings.claimMs <= settings.timeoutMs) throw new Error('a delivery claim must outlast the delivery timeout');
  if (deps.sendInThread && deps.addresses.resolve !== systemResolver) throw new Error("a sending thread resolves with the system's resolver only");
  const senderOptions = { maxSockets: settings.concurrency, timeoutMs: settings.timeoutMs, ...(deps.trustedCa ? { trustedCa: deps.trustedCa } : {}) };
  if (deps.storeInThread && !deps.sendInThread) throw new Error('the claims go to the sending thread only when sending does');
  const warn = (warning: SecretWarning) =>
    deps.log.warn(
      { endpoint: warning.endpoint, keyId: warning.keyId, reason: warning.reason },
      'webhook: the previous signing secret cannot be opened; signing with the current one only',
    );
  const thread = deps.sendInThread
    ? createThreadSender({
        ...senderOptions,
        allowPrivate: deps.addresses.allowPrivate,
        ...(deps.storeInThread ? { database: deps.storeInThread } : {}),
        ring: deps.keyRing,
        warn,
      })
    : null;
  const sender = thread ?? createInThreadSender(senderOptions, deps.addresses, { ring: deps.keyRing, warn });
  const store = thread?.store ?? databaseDeliveryStore(deps.db, deps.seam);
  /** Attempts sent and not answered yet, per endpoint (the per-endpoint bound). */
  const inFlight = new Map<number, number>();
  const answered = (endpointId: number) => {
    const left = (inFlight.get(endpointId) ?? 1) - 1;
    if (left > 0) inFlight.set(endpointId, left);
    else inFlight.delete(endpointId);
  };
  const outcomes: Record<DeliveryOutcome, number> = { succeeded: 0, retrying: 0, failed: 0, lost_claim: 0, secret_unreadable: 0 };
  const jitter = deps.jitter ?? Math.random;
  const pacer = deps.requestLoad ? createDeliveryPacer(settings.pace, deps.requestLoad, deps.monotonicNow ?? (() => performance.now())) : null;

  const claimBatch = Math.max(1, Math.min(CLAIM_BATCH_MAX, Math.floor(settings.concurrency / 2)));
  /** When the next claim looks for expired claims too (deliveries.repository.ts, `lookForExpired`). */
  let nextExpiredLook = -Infinity;
  const recorder = createAttemptRecorder(
    async (batch) => {
      const { recorded, disabled } = await store.write(
        batch.map(({ delivery, decision, now, status }) => ({
          claimed: delivery,
          record: recordOf(decision, now, status),
          disableReason: decision.kind === 'failed' ? decision.disableEndpoint : null,
        })),
      );
      for (const { endpointId, reason } of disabled) deps.log.warn({ endpoint: endpointId, reason }, 'webhook endpoint disabled');
      return recorded;
    },
    {
      // Never more than the outcomes waiting and the attempts still waiting for an answer: an
      // endpoint's next first attempt waits for this one's record, so a lone stream is written at once.
      gather: (queued) =>
        pacer?.serving()
          ? {
              count: Math.min(claimBatch, queued + [...inFlight.values()].reduce((a, b) => a + b, 0)),
              ms: RECORD_GATHER_MS,
            }
          : null,
    },
  );

  /** Not sent and no attempt counted: given back for a minute, the reason on the row and in the log. */
  async function deferUnreadable(delivery: ClaimedDelivery, error: SecretUnreadableError): Promise<void> {
    deps.log.warn(
      { endpoint: delivery.endpointId, delivery: delivery.id, keyId: error.keyId, reason: error.message },
      "webhook not sent: this process's key ring cannot open the endpoint's signing secret (put the key back in RISKLOOKUP_SECRET_KEYS, or the member rotates the secret)",
    );
    const deferred = await deferDelivery(deps.db, delivery, { nextAttemptAt: deps.clock.now() + UNREADABLE_SECRET_WAIT_MS, error: UNREADABLE_SECRET_ERROR });
    outcomes[deferred ? 'secret_unreadable' : 'lost_claim']++;
  }

  /**
   * `answered()` once the attempt is over (the receiver answered, or could not be reached, or it
   * was never sent): the endpoint's and the worker's slot are free from then on, while the outcome
   * is written. The row stays `delivering` under this claim until then, so no process takes it again.
   */
  async function deliver(delivery: ClaimedDelivery, answered: () => void): Promise<void> {
    const started = deps.clock.now();
    const timestampSeconds = Math.floor(started / 1000);
    const secrets = {
      endpointId: delivery.endpointId,
      current: delivery.secretSealed,
      previous: delivery.previousSecretSealed,
      previousUntil: delivery.previousSecretUntil,
      at: started,
    };
    let result;
    try {
      result = await sender.send({ url: delivery.url, webhookId: delivery.webhookId, timestampSeconds, secrets, body: delivery.payload });
    } catch (error) {
      answered();
      // Not sent: the sender could not open the current secret (opened where it signs: signing-secrets.ts).
      if (error instanceof SecretUnreadableError) return deferUnreadable(delivery, error);
      throw error;
    } finally {
      answered();
    }
    const now = deps.clock.now();
    const decision = decideAfterAttempt(result, delivery.attempts + 1, now, jitter());
    const status = result.kind === 'answered' ? result.status : null;
    const recorded = await recorder.record({ delivery, decision, now, status });
    outcomes[!recorded ? 'lost_claim' : decision.kind === 'retry' ? 'retrying' : decision.kind]++;
  }

  return {
    name: DELIVERY_QUEUE,
    concurrency: settings.concurrency,
    // A claim for half of the slots at a time, not one per finished delivery: a claim is one
    // short transaction of five statements, whatever its size (issue 30: at 10,000 deliveries,
    // the claims and records' round trips were most of what delivering cost the process).
    claimBatch,
    ...(pacer ? { pace: pacer } : {}),
    async claim(limit) {
      const now = deps.clock.now();
      const lookForExpired = now >= nextExpiredLook;
      const claimed = await store.claim({
        lookForExpired,
        now,
        limit,
        holder: deps.holder,
        token: randomBytes(12).toString('base64url'),
        claimUntil: now + settings.claimMs,
        perEndpoint: settings.perEndpoint,
        inFlight: [...inFlight],
      });
      for (const d of claimed) inFlight.set(d.endpointId, (inFlight.get(d.endpointId) ?? 0) + 1);
      // Found some: there may be more (a process died with many claims), look at the next claim too; none: in a while.
      if (lookForExpired && !claimed.some((d) => d.reclaimed)) nextExpiredLook = now + EXPIRED_CLAIMS_LOOK_MS;
      return claimed;
    },
    async run(delivery, _signal, freeSlot) {
      let over = false;
      await deliver(delivery, () => {
        if (over) return;
        over = true;
        answered(delivery.endpointId);
        freeSlot();
      });
    },
    async release(claimed) {
      await releaseDeliveries(deps.db, claimed);
      for (const d of claimed) answered(d.endpointId);
    },
    backlog: () => deliveryBacklog(deps.db, deps.clock.now()),
    outcomes: () => ({ ...outcomes }),
    close: () => sender.close(),
  };
}

/**
 * Deliveries older than 30 days are deleted, daily at 04:00 Turkey time; previous signing
 * secrets past their 24 hours are forgotten in the same run.
 */
export function deliveryRetentionJob(deps: { db: Db; clock: Clock; log: JobLog }): PeriodicJob {
  return {
    name: 'webhook-delivery-retention',
    schedule: dailyAt(4),
    async run({ signal }) {
      const deleted = await purgeDeliveriesBefore(deps.db, deps.clock.now() - DELIVERIES_KEPT_DAYS * 86_400_000, signal);
      if (deleted > 0) deps.log.info({ deleted }, 'deleted webhook deliveries older than 30 days');
      signal.throwIfAborted();
      const forgotten = await forgetExpiredPreviousSecrets(deps.db, deps.clock.now());
      if (forgotten > 0) deps.log.info({ forgotten }, 'forgot previous webhook signing secrets past their 24 hours');
    },
  };
}
