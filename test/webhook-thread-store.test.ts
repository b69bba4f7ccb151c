/**
 * Issue 30: what `serve` does on both engines — the delivery worker's claims and the writes of
 * its outcomes go to the sending thread's own connection (delivery-store.ts), so that none of
 * those statements runs on the serving thread's handle, where on SQLite each blocked the event
 * loop that answers the searches. The worker is given a handle that records every statement made
 * through it: with the thread's store, deliveries are claimed and recorded with no claim or
 * outcome among them; without it (the control), they are there.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, OperationNode } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';
import { enqueue, makeEvent, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import { captureLog } from './helpers/jobs.ts';
import { systemClock } from '../src/lib/clock.ts';
import { seamFor } from '../src/db/dialect-seam.ts';
import { createJobRunner } from '../src/jobs/job-runner.ts';
import { createDeliveryQueue } from '../src/webhooks/delivery-worker.ts';
import { systemResolver } from '../src/webhooks/safe-lookup.ts';
import { deliveryThreadDatabase } from '../src/serve/background-work.ts';

test("serve's deliveries keep their claims and outcomes on the sending thread's connection on both engines", () => {
  const config = { databaseUrl: 'x', dbStatementTimeoutMs: 5000, dbConnectionWaitMs: 1000, dbPooler: 'none' as const };
  assert.deepEqual(deliveryThreadDatabase({ ...config, databaseUrl: 'sqlite:/srv/risk.db' }, 'sqlite'), { url: 'sqlite:/srv/risk.db', connectionWaitMs: 1000 });
  assert.deepEqual(deliveryThreadDatabase({ ...config, databaseUrl: 'postgres://db/risk' }, 'postgres'), {
    url: 'postgres://db/risk',
    statementTimeoutMs: 5000,
    connectionWaitMs: 1000,
    pooler: 'none',
  });
});

/** Records the kind of every statement made through the handle that touches webhook_deliveries. */
function deliveryStatements(seen: string[]): KyselyPlugin {
  return {
    transformQuery({ node }): never {
      if (JSON.stringify(node).includes('webhook_deliveries')) seen.push((node as OperationNode).kind);
      return node as never;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
}

for (const engine of ENGINES) {
  describe(`the delivery worker's statements on the sending thread's connection [${engine.name}]`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    let world: WebhookWorld;
    const db = () => database.engine.db;

    before(async () => {
      database = await engine.create();
      receiver = await startReceiver();
      world = webhookWorld(db(), engine.name, systemClock, { allowPrivate: true });
    });
    afterEach(async () => {
      await db().deleteFrom('webhook_deliveries').execute();
    });
    after(async () => {
      await receiver?.close();
      await database?.drop();
    });

    /** Delivers `count` events to a new endpoint with the thread's store or without; the statements seen on the worker's handle. */
    async function deliverThrough(ref: string, count: number, storeInThread: boolean): Promise<string[]> {
      const { admin, memberId } = await world.member(ref);
      const path = `/${ref.toLowerCase()}`;
      await world.endpoints.registerEndpoint(admin, { url: receiver.url(path) });
      const seen: string[] = [];
      const log = captureLog();
      const runner = createJobRunner({ db: db(), engineKind: engine.name, clock: systemClock, log, holder: ref, settings: { pollMs: 50 } });
      const queue = createDeliveryQueue({
        db: db().withPlugin(deliveryStatements(seen)),
        seam: seamFor(engine.name),
        clock: systemClock,
        log,
        keyRing: world.ring,
        addresses: { resolve: systemResolver, allowPrivate: true },
        holder: ref,
        sendInThread: true,
        ...(storeInThread ? { storeInThread: { url: database.url } } : {}),
        trustedCa: receiver.ca,
        settings: { timeoutMs: 2000, claimMs: 30_000 },
        jitter: () => 0,
      });
      runner.addQueue(queue);
      try {
        await enqueue(
          db(),
          world,
          memberId,
          Array.from({ length: count }, () => makeEvent(systemClock)),
        );
        await runner.start();
        for (const deadline = Date.now() + 20_000; ;) {
          const rows = await db()
            .selectFrom('webhook_deliveries as d')
            .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
            .select('d.state')
            .where('e.member_id', '=', memberId)
            .execute();
          if (rows.length === count && rows.every((r) => r.state === 'succeeded')) break;
          assert.ok(Date.now() < deadline, `every delivery succeeded (${JSON.stringify(rows)}); log: ${JSON.stringify(log.lines)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(receiver.received.filter((r) => r.path === path).length, count);
        return [...seen];
      } finally {
        await runner.drain();
        queue.close();
      }
    }

    test("with the thread's store, no claim or outcome is made on the worker's handle; without it, every one is", async () => {
      const onThread = await deliverThrough('TS-THREAD', 5, true);
      const writes = (kinds: string[]) => kinds.filter((k) => k !== 'SelectQueryNode');
      assert.deepEqual(writes(onThread), [], `statements on the serving handle: ${onThread.join(', ')}`);
      // The control: the same delivery with the worker's own handle makes its claims and outcomes there.
      const onHandle = await deliverThrough('TS-HANDLE', 5, false);
      assert.ok(writes(onHandle).includes('UpdateQueryNode'), `claims on the handle: ${onHandle.join(', ')}`);
      assert.ok(writes(onHandle).includes('RawNode'), `outcomes on the handle: ${onHandle.join(', ')}`);
    });
  });
}
