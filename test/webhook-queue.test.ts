/**
 * The webhook queue on both engines: two processes deliver a backlog without sending any
 * delivery twice, concurrency bounds in all and per endpoint, the outbox bound to its
 * transaction, test events, redelivery, the 30-day list and its retention job.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import { deliverDue, enqueue, makeEvent, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';
import { secondProcess } from './helpers/jobs.ts';
import { createJobRunner } from '../src/jobs/job-runner.ts';
import { deliveryRetentionJob } from '../src/webhooks/delivery-worker.ts';
import { captureLog } from './helpers/jobs.ts';
import type { Engine } from '../src/db/connect.ts';

for (const engine of ENGINES) {
  describe(`webhook queue [${engine.name}]`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    let other: Engine;
    const clock = fixedClock(Date.now());
    let world: WebhookWorld;
    before(async () => {
      database = await engine.create();
      other = secondProcess(database);
      receiver = await startReceiver();
      world = webhookWorld(database.engine.db, engine.name, clock, { allowPrivate: true });
    });
    afterEach(async () => {
      await world.drainAll();
      clock.set(Date.now());
      receiver.answer = () => ({ status: 204 });
    });
    after(async () => {
      await receiver?.close();
      await other?.close();
      await database?.drop();
    });
    const db = () => database.engine.db;
    const at = (path: string) => receiver.received.filter((r) => r.path === path);

    test('two processes deliver one backlog: every delivery sent once, none twice', async () => {
      const paths: string[] = [];
      for (let m = 0; m < 3; m++) {
        const { admin, memberId } = await world.member(`Q-TWO-${m}`);
        const events = Array.from({ length: 10 }, () => makeEvent(clock));
        for (let e = 0; e < 3; e++) {
          paths.push(`/two/${m}/${e}`);
          await world.endpoints.registerEndpoint(admin, { url: receiver.url(`/two/${m}/${e}`) });
        }
        await enqueue(db(), world, memberId, events);
      }
      // Slow answers, so that the two processes' claims overlap.
      receiver.answer = () => ({ status: 204, delayMs: 20 });
      const settings = { concurrency: 4 };
      const a = world.worker('process-a', { ca: receiver.ca, settings });
      const b = world.worker('process-b', { ca: receiver.ca, settings, db: other.db });
      await Promise.all([a.runner.start(), b.runner.start()]);
      await deliverDue(a.runner, b.runner);
      const got = receiver.received.filter((r) => r.path.startsWith('/two/')).map((r) => `${r.path} ${String(r.headers['webhook-id'])}`);
      assert.equal(got.length, 90);
      assert.equal(new Set(got).size, 90, 'no delivery sent twice');
      const sent = [a.queue.outcomes().succeeded, b.queue.outcomes().succeeded];
      assert.equal(sent[0]! + sent[1]!, 90);
      if (engine.name === 'sqlite') assert.ok(sent.includes(0), `on SQLite one process at a time holds the lease: ${sent.join(', ')}`);
      else assert.ok(sent[0]! > 0 && sent[1]! > 0, `on PostgreSQL both processes deliver at once: ${sent.join(', ')}`);
    });

    test('while searches wait at the gate, paced deliveries still all arrive, each once', async () => {
      const { admin, memberId } = await world.member('Q-PACED');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/paced/one') });
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/paced/two') });
      await enqueue(
        db(),
        world,
        memberId,
        Array.from({ length: 30 }, () => makeEvent(clock)),
      );
      const gate = { active: 4, queued: 2, admitted: 6 };
      // Searches in work and waiting the whole time: 200 a second, 2 at once.
      const { runner } = world.worker('paced', { ca: receiver.ca, settings: { pace: { ratePerSecond: 200, burst: 2 } }, requestLoad: () => gate });
      const before = receiver.received.length;
      await runner.start();
      await receiver.waitFor(before + 60);
      const got = receiver.received.filter((r) => r.path.startsWith('/paced/')).map((r) => `${r.path} ${String(r.headers['webhook-id'])}`);
      assert.equal(got.length, 60);
      assert.equal(new Set(got).size, 60, 'no delivery sent twice');
    });

    test('concurrency is bounded in all and per endpoint', async () => {
      const { admin, memberId } = await world.member('Q-BOUND');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/bound/one') });
      const events = Array.from({ length: 8 }, () => makeEvent(clock));
      // First attempts fail (one after another, in order); the retries are then due together.
      receiver.answer = (r) => (r.path === '/bound/one' && at('/bound/one').length <= 8 ? { status: 500 } : { status: 204 });
      const { runner } = world.worker('p1', { ca: receiver.ca, settings: { concurrency: 6, perEndpoint: 2 } });
      await enqueue(db(), world, memberId, events);
      await runner.start();
      await deliverDue(runner);
      assert.equal(at('/bound/one').length, 8);
      // Long enough that the bound is reached however slowly a loaded machine opens the connections (30 ms was not: flaky).
      receiver.answer = () => ({ status: 204, delayMs: 400 });
      receiver.resetMostOpen();
      clock.advance(5000);
      await deliverDue(runner);
      assert.equal(at('/bound/one').length, 16);
      const most = receiver.mostOpen();
      assert.equal(most, 2, `at most 2 at once to one endpoint (and 2 reached), saw ${most}`);
      // In all: 4 endpoints of 2 members, first attempts (one per endpoint at a time), 3 at once in this process.
      const more = [await world.member('Q-BOUND-2'), await world.member('Q-BOUND-3')];
      for (const [i, m] of more.entries()) {
        await world.endpoints.registerEndpoint(m.admin, { url: receiver.url(`/bound/all/${i}/a`) });
        await world.endpoints.registerEndpoint(m.admin, { url: receiver.url(`/bound/all/${i}/b`) });
        await enqueue(db(), world, m.memberId, [makeEvent(clock), makeEvent(clock)]);
      }
      const three = world.worker('p3', { ca: receiver.ca, settings: { concurrency: 3, perEndpoint: 2 } });
      await runner.drain();
      receiver.resetMostOpen();
      await three.runner.start();
      await deliverDue(three.runner);
      assert.equal(receiver.received.filter((r) => r.path.startsWith('/bound/all/')).length, 8);
      assert.equal(receiver.mostOpen(), 3, 'at most 3 at once in all (and 3 reached)');
    });

    test('a slot is free once the receiver has answered: the outcome is still written after, once, and the delivery is not claimed again meanwhile', async () => {
      const { admin, memberId } = await world.member('Q-FREED');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/freed/one') });
      await enqueue(db(), world, memberId, [makeEvent(clock), makeEvent(clock)]);
      const { queue } = world.worker('freed', { ca: receiver.ca, settings: { concurrency: 2 } });
      const claimed = await queue.claim(10);
      assert.equal(claimed.length, 1, 'the newer message waits for the older one');
      const [first] = claimed;
      const atFree: Array<{ received: number; succeeded: number }> = [];
      let claimedMeanwhile: Promise<Awaited<ReturnType<typeof queue.claim>>> | null = null;
      await queue.run(first!, new AbortController().signal, () => {
        atFree.push({ received: at('/freed/one').length, succeeded: queue.outcomes().succeeded });
        // A claim made now (the slot is free, the outcome not written yet) never takes the same delivery.
        claimedMeanwhile ??= queue.claim(10);
      });
      assert.deepEqual(atFree, [{ received: 1, succeeded: 0 }], 'the slot was freed once, after the answer and before the outcome was written');
      assert.equal(queue.outcomes().succeeded, 1, 'the outcome written once the run ended');
      const meanwhile = await claimedMeanwhile!;
      assert.ok(!meanwhile.some((d) => d.id === first!.id), 'the delivery in flight was not claimed again');
      await queue.release(meanwhile);
      const row = await db()
        .selectFrom('webhook_deliveries')
        .select(['state', 'attempts', 'last_status'])
        .where('id', '=', first!.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { state: 'succeeded', attempts: 1, last_status: 204 });
      assert.equal(at('/freed/one').length, 1);
    });

    test('the outbox writes deliveries only with its transaction, once per event and enabled endpoint', async () => {
      const { admin, memberId } = await world.member('Q-OUTBOX');
      const bystander = await world.member('Q-BYSTANDER');
      const [e1, e2] = [
        (await world.endpoints.registerEndpoint(admin, { url: receiver.url('/outbox/1') })).endpoint,
        (await world.endpoints.registerEndpoint(admin, { url: receiver.url('/outbox/2') })).endpoint,
      ];
      await world.endpoints.registerEndpoint(bystander.admin, { url: receiver.url('/outbox/bystander') });
      const count = async () =>
        Number(
          (
            await db()
              .selectFrom('webhook_deliveries')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('endpoint_id', 'in', [e1.id, e2.id])
              .executeTakeFirstOrThrow()
          ).n,
        );
      const event = makeEvent(clock);
      await assert.rejects(
        db()
          .transaction()
          .execute(async (trx) => {
            assert.equal(await world.outbox.enqueueForMember(trx, memberId, event), 2);
            throw new Error('the change that caused the event failed');
          }),
        /the change that caused the event failed/,
      );
      assert.equal(await count(), 0, 'rolled back with its transaction');
      await db()
        .transaction()
        .execute((trx) => world.outbox.enqueueForMember(trx, memberId, event));
      assert.equal(await count(), 2);
      await db()
        .transaction()
        .execute((trx) => world.outbox.enqueueForMember(trx, memberId, event));
      assert.equal(await count(), 2, 'the same event id is queued once per endpoint');
      await db()
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_reason: 'test', disabled_at: clock.now() })
        .where('id', '=', e2.id)
        .execute();
      assert.equal(await enqueue(db(), world, memberId, [makeEvent(clock)]), 1, 'a disabled endpoint gets none');
      const bystanderRows = await db()
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', 'not in', [e1.id, e2.id])
        .where('payload', 'like', `%${event.id}%`)
        .execute();
      assert.equal(bystanderRows.length, 0);
      await assert.rejects(
        db()
          .transaction()
          .execute((trx) => world.outbox.enqueueForMember(trx, memberId, { ...event, id: 'has.a.dot' })),
        /1 to 64 letters, digits, _ or -/,
      );
    });

    test('a test event is delivered, signed; one message is redelivered with the same id and body; the list shows them', async () => {
      const { admin, user } = await world.member('Q-TEST');
      const stranger = await world.member('Q-STRANGER');
      const { endpoint, secret } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/test-event') });
      const { runner } = world.worker('p1', { ca: receiver.ca });
      const sent = await world.deliveries.sendTestEvent(admin, { endpointId: endpoint.id });
      await runner.start();
      await deliverDue(runner);
      const [first] = at('/test-event');
      const body = new Webhook(secret).verify(first!.body, first!.headers as Record<string, string>) as { type: string; data: { endpoint_id: number } };
      assert.deepEqual([body.type, body.data.endpoint_id, first!.headers['webhook-id']], ['webhook.test', endpoint.id, sent.webhookId]);
      const again = await world.deliveries.redeliver(admin, { deliveryId: sent.deliveryId });
      assert.deepEqual([again.state, again.attempts], ['pending', 0]);
      await deliverDue(runner);
      const [, second] = at('/test-event');
      assert.deepEqual([second!.headers['webhook-id'], second!.body], [first!.headers['webhook-id'], first!.body]);
      const [listed] = await world.deliveries.listDeliveries(admin, { endpointId: endpoint.id });
      assert.deepEqual(
        [listed!.id, listed!.eventType, listed!.state, listed!.attempts, listed!.lastStatus, listed!.nextAttemptAt],
        [sent.deliveryId, 'webhook.test', 'succeeded', 1, 204, null],
      );
      const refused = async (promise: Promise<unknown>) => {
        const error = await promise.then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(error instanceof DomainError);
        return error.problems.map((p) => p.code);
      };
      assert.deepEqual(await refused(world.deliveries.redeliver(stranger.admin, { deliveryId: sent.deliveryId })), ['webhook.delivery_not_found']);
      assert.deepEqual(await refused(world.deliveries.redeliver(user, { deliveryId: sent.deliveryId })), ['webhook.admin_only']);
      assert.deepEqual(await refused(world.deliveries.redeliver(admin, { deliveryId: 999_999 })), ['webhook.delivery_not_found']);
      await db().updateTable('webhook_deliveries').set({ state: 'delivering' }).where('id', '=', sent.deliveryId).execute();
      assert.deepEqual(await refused(world.deliveries.redeliver(admin, { deliveryId: sent.deliveryId })), ['webhook.delivery_in_progress']);
    });

    test('deliveries of the last 30 days are listed; the daily job deletes older ones and forgets previous secrets past their 24 hours', async () => {
      const { admin, memberId } = await world.member('Q-RETAIN');
      const { endpoint } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/retain') });
      const { endpoint: fresh } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/retain-fresh') });
      await world.endpoints.rotateSecret(admin, { endpointId: endpoint.id });
      await world.endpoints.rotateSecret(admin, { endpointId: fresh.id });
      // The first rotation's 24 hours are over; the second's are not.
      await db()
        .updateTable('webhook_endpoints')
        .set({ previous_secret_until: clock.now() - 1 })
        .where('id', '=', endpoint.id)
        .execute();
      const day = 86_400_000;
      await enqueue(db(), world, memberId, [makeEvent(clock)]);
      const old = makeEvent(clock);
      await enqueue(db(), world, memberId, [old]);
      await db()
        .updateTable('webhook_deliveries')
        .set({ created_at: clock.now() - 31 * day, state: 'succeeded' })
        .where('webhook_id', '=', old.id)
        .execute();
      assert.equal((await world.deliveries.listDeliveries(admin, { endpointId: endpoint.id })).length, 1);
      const log = captureLog();
      const runner = createJobRunner({ db: db(), engineKind: engine.name, clock, log, settings: { pollMs: 3_600_000 } });
      runner.addPeriodic(deliveryRetentionJob({ db: db(), clock, log }));
      await runner.start();
      await runner.whenIdle();
      await runner.drain();
      const previous = await db()
        .selectFrom('webhook_endpoints')
        .select(['id', 'previous_secret_sealed', 'previous_secret_until'])
        .where('id', 'in', [endpoint.id, fresh.id])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        previous.map((r) => [r.previous_secret_sealed === null, r.previous_secret_until === null]),
        [
          [true, true],
          [false, false],
        ],
        'an expired previous secret is forgotten, a valid one kept',
      );
      assert.ok(log.lines.some((l) => l.message === 'forgot previous webhook signing secrets past their 24 hours'));
      const left = await db().selectFrom('webhook_deliveries').select('webhook_id').where('endpoint_id', '=', endpoint.id).execute();
      assert.equal(left.length, 1);
      assert.notEqual(left[0]!.webhook_id, old.id);
      assert.ok(log.lines.some((l) => l.message === 'deleted webhook deliveries older than 30 days'));
    });
  });
}
