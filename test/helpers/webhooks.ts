/**
 * The webhook feature on a test database: its services with the tests' key ring (D35, the real
 * one), a resolver the test controls, members with an administrator, and delivery workers (one
 * per "process", each with the ring it is given).
 */
import type { RequestLoad } from '../../src/webhooks/delivery-pace.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { EngineKind } from '../../src/db/dialect-seam.ts';
import { seamFor } from '../../src/db/dialect-seam.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { createDeliveryQueue, type DeliveryQueue, type DeliverySettings } from '../../src/webhooks/delivery-worker.ts';
import type { AddressRule, Resolver } from '../../src/webhooks/safe-lookup.ts';
import { createWebhookDeliveries } from '../../src/webhooks/webhook-deliveries.service.ts';
import { createWebhookEndpoints } from '../../src/webhooks/webhook-endpoints.service.ts';
import { createWebhookOutbox } from '../../src/webhooks/webhook-outbox.ts';
import type { WebhookActor, WebhookEvent } from '../../src/webhooks/webhook-rules.ts';
import { makeMember } from './factories.ts';
import { captureLog, type CapturedLog } from './jobs.ts';
import type { KeyRing } from '../../src/secrets/key-ring.ts';
import { TEST_KEY_RING } from './secrets.ts';
import { makeUser, memberIdOf } from './users.ts';

export interface WebhookWorld {
  /** The ring the endpoints seal with (TEST_KEY_RING unless given). */
  readonly ring: KeyRing;
  /** Host name → addresses; a name not here is "not found". */
  readonly dns: Map<string, string[]> & { readonly lookups: readonly string[] };
  readonly addresses: AddressRule & { allowPrivate: boolean };
  readonly endpoints: ReturnType<typeof createWebhookEndpoints>;
  readonly deliveries: ReturnType<typeof createWebhookDeliveries>;
  readonly outbox: ReturnType<typeof createWebhookOutbox>;
  /** A member with an active member_admin and a member_user; their actors. */
  member(ref: string): Promise<{ memberId: number; admin: WebhookActor; user: WebhookActor }>;
  /** A runner with the delivery queue, on `db` (another "process"'s pool, or this one's). */
  worker(
    holder: string,
    options?: { db?: Kysely<Database>; settings?: Partial<DeliverySettings>; ca?: Buffer; ring?: KeyRing; requestLoad?: () => RequestLoad },
  ): { runner: JobRunner; queue: DeliveryQueue; log: CapturedLog };
  /** Drains every worker made here (afterEach: a failed test leaves no lease or claim behind). */
  drainAll(): Promise<void>;
}

export function webhookWorld(
  db: Kysely<Database>,
  engineKind: EngineKind,
  clock: Clock,
  options: { allowPrivate?: boolean; ring?: KeyRing } = {},
): WebhookWorld {
  const ring = options.ring ?? TEST_KEY_RING;
  const lookups: string[] = [];
  const dns = Object.assign(new Map<string, string[]>(), { lookups });
  const resolve: Resolver = (hostname) => {
    lookups.push(hostname);
    const found = dns.get(hostname);
    return found ? Promise.resolve(found) : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  };
  const addresses = { resolve, allowPrivate: options.allowPrivate ?? true };
  const workers: Array<{ runner: JobRunner; queue: DeliveryQueue }> = [];
  return {
    ring,
    dns,
    addresses,
    endpoints: createWebhookEndpoints({ db, clock, keyRing: ring, addresses }),
    deliveries: createWebhookDeliveries({ db, clock }),
    outbox: createWebhookOutbox({ clock }),
    async member(ref) {
      await makeMember(db, clock, { ref });
      const memberId = await memberIdOf(db, ref);
      const adminId = await makeUser(db, { email: `admin-${ref}@example.com`, role: 'member_admin', memberRef: ref });
      const userId = await makeUser(db, { email: `user-${ref}@example.com`, role: 'member_user', memberRef: ref });
      return {
        memberId,
        admin: { kind: 'member_user', userId: adminId, memberId, role: 'member_admin' },
        user: { kind: 'member_user', userId, memberId, role: 'member_user' },
      };
    },
    worker(holder, workerOptions = {}) {
      const log = captureLog();
      const on = workerOptions.db ?? db;
      const runner = createJobRunner({ db: on, engineKind, clock, log, holder, settings: { pollMs: 3_600_000, leaseMs: 30_000, failureRetryMs: 60_000 } });
      const queue = createDeliveryQueue({
        db: on,
        seam: seamFor(engineKind),
        clock,
        log,
        keyRing: workerOptions.ring ?? ring,
        addresses,
        holder,
        settings: { timeoutMs: 2000, claimMs: 30_000, ...workerOptions.settings },
        ...(workerOptions.ca ? { trustedCa: workerOptions.ca } : {}),
        ...(workerOptions.requestLoad ? { requestLoad: workerOptions.requestLoad } : {}),
        jitter: () => 0,
      });
      runner.addQueue(queue);
      workers.push({ runner, queue });
      return { runner, queue, log };
    },
    async drainAll() {
      for (const { runner, queue } of workers.splice(0)) {
        await runner.drain();
        queue.close();
      }
    },
  };
}

let eventSeq = 0;
/** A `company.changed`-like event with a fresh id. */
export function makeEvent(clock: Clock, data: unknown = { country: 'TR', tax_id: '0680123456' }): WebhookEvent {
  eventSeq++;
  return { id: `evt_${Date.now().toString(36)}_${eventSeq}`, type: 'company.changed', occurredAt: clock.now(), data };
}

/** Queues events for a member in one committed transaction. */
export async function enqueue(db: Kysely<Database>, world: WebhookWorld, memberId: number, events: readonly WebhookEvent[]): Promise<number> {
  return db.transaction().execute((trx) =>
    world.outbox.enqueueForMembers(
      trx,
      events.map((event) => ({ memberId, event })),
    ),
  );
}

/** Ticks until nothing is due at the clock's time and nothing runs (a message held back by an older one becomes due as that one is tried). */
export async function deliverDue(...runners: JobRunner[]): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await Promise.all(runners.map((r) => r.tick()));
    await Promise.all(runners.map((r) => r.whenIdle()));
    const [backlog] = await runners[0]!.telemetry.backlog();
    if (backlog!.due === 0) {
      await new Promise((r) => setImmediate(r));
      await Promise.all(runners.map((r) => r.whenIdle()));
      return;
    }
  }
  throw new Error('deliveries still due after 100 rounds');
}
