/**
 * Webhook delivery (D32, Standard Webhooks 1.0) to a local HTTPS receiver, on both engines with
 * a fake clock: signatures checked by the `standardwebhooks` package (an independent
 * implementation), the retry schedule, 410, Retry-After, no redirects, the timeout, the address
 * rule again at connection time, and event order per endpoint.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { deliverDue, enqueue, makeEvent, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import { startReceiver, type Answer, type Receiver } from './helpers/webhook-receiver.ts';
import { RETRY_DELAYS_MS } from '../src/webhooks/delivery-rules.ts';
import { USER_AGENT } from '../src/webhooks/webhook-sender.ts';
import { UNREADABLE_SECRET_ERROR, UNREADABLE_SECRET_WAIT_MS } from '../src/webhooks/delivery-worker.ts';
import { KeyRing } from '../src/secrets/key-ring.ts';
import { sealColumn, WEBHOOK_PREVIOUS_SECRET } from '../src/secrets/secret-columns.ts';

for (const engine of ENGINES) {
  describe(`webhook delivery [${engine.name}]`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    // Near the real time: the receiver's library checks the timestamp against its own clock.
    const clock = fixedClock(Date.now());
    let world: WebhookWorld;
    before(async () => {
      database = await engine.create();
      receiver = await startReceiver({ dnsNames: ['receiver.test'] });
      world = webhookWorld(database.engine.db, engine.name, clock, { allowPrivate: true });
      // Set once the database is ready: on a busy machine that can take longer than the receiver's 5 minutes of tolerance.
      clock.set(Date.now());
    });
    afterEach(async () => {
      await world.drainAll();
      clock.set(Date.now());
      receiver.answer = () => ({ status: 204 });
    });
    after(async () => {
      await receiver?.close();
      await database?.drop();
    });
    const db = () => database.engine.db;
    const deliveryOf = (webhookId: string) => db().selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).executeTakeFirstOrThrow();
    const at = (path: string) => receiver.received.filter((r) => r.path === path);

    test('a delivery is signed to Standard Webhooks 1.0, with both secrets during a rotation', async () => {
      const { admin, memberId } = await world.member('DL-SIGN');
      const { endpoint, secret } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/sign') });
      const { runner } = world.worker('p1', { ca: receiver.ca });
      const event = makeEvent(clock, { country: 'TR', tax_id: '0680123456', threat_level: { before: null, after: 'normal' } });
      assert.equal(await enqueue(db(), world, memberId, [event]), 1);
      await runner.start();
      await deliverDue(runner);
      const [got] = at('/sign');
      assert.ok(got, 'delivered');
      const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
      assert.deepEqual(verified, { type: 'company.changed', timestamp: new Date(event.occurredAt).toISOString(), data: event.data });
      assert.equal(got.headers['webhook-id'], event.id);
      assert.equal(got.headers['webhook-timestamp'], String(Math.floor(clock.now() / 1000)));
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.headers['user-agent'], USER_AGENT);
      assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
      const row = await deliveryOf(event.id);
      assert.deepEqual([row.state, row.attempts, row.last_status, row.last_error], ['succeeded', 1, 204, null]);
      // A wrong secret does not verify: the check above is not vacuous.
      assert.throws(
        () => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, got.headers as Record<string, string>),
        /No matching signature/,
      );

      const rotated = await world.endpoints.rotateSecret(admin, { endpointId: endpoint.id });
      const second = makeEvent(clock);
      await enqueue(db(), world, memberId, [second]);
      await deliverDue(runner);
      const during = at('/sign')[1]!;
      assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
      for (const s of [secret, rotated.secret])
        assert.ok(new Webhook(s).verify(during.body, during.headers as Record<string, string>), 'either secret verifies');
      clock.advance(24 * 3600_000 + 1);
      const third = makeEvent(clock);
      await enqueue(db(), world, memberId, [third]);
      await deliverDue(runner);
      const later = at('/sign')[2]!;
      assert.equal(String(later.headers['webhook-signature']).split(' ').length, 1, 'after 24 h only the new secret signs');
    });

    test('a signing secret this process cannot open: nothing sent, no attempt counted, the reason kept a minute; a process with the key sends it', async () => {
      const { admin, memberId } = await world.member('DL-LOST');
      const { endpoint, secret } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/lost') });
      const event = makeEvent(clock);
      await enqueue(db(), world, memberId, [event]);
      const otherRing = KeyRing.generate('other');
      const stranger = world.worker('p-other-ring', { ca: receiver.ca, ring: otherRing });
      await stranger.runner.start();
      await deliverDue(stranger.runner);
      assert.equal(at('/lost').length, 0, 'nothing sent unsigned');
      const row = await deliveryOf(event.id);
      assert.deepEqual(
        [row.state, row.attempts, row.first_attempt_at, row.last_error, row.next_attempt_at],
        ['pending', 0, null, UNREADABLE_SECRET_ERROR, clock.now() + UNREADABLE_SECRET_WAIT_MS],
      );
      assert.equal(stranger.queue.outcomes().secret_unreadable, 1);
      const warned = stranger.log.lines.find((l) => l.level === 'warn' && l.message.startsWith('webhook not sent'));
      assert.deepEqual((warned?.details as { keyId?: string } | undefined)?.keyId, 'test', 'the log names the missing key');
      assert.ok(!JSON.stringify(stranger.log.lines).includes(secret.slice(6)), 'never the secret');
      await world.drainAll();

      clock.advance(UNREADABLE_SECRET_WAIT_MS);
      const { runner, log } = world.worker('p-ring', { ca: receiver.ca });
      await runner.start();
      await deliverDue(runner);
      const [got] = at('/lost');
      assert.ok(got && new Webhook(secret).verify(got.body, got.headers as Record<string, string>));
      assert.deepEqual([(await deliveryOf(event.id)).state, (await deliveryOf(event.id)).attempts], ['succeeded', 1]);

      // A previous secret under a lost key (rotated since): signed with the current one only.
      const rotated = await world.endpoints.rotateSecret(admin, { endpointId: endpoint.id });
      await db()
        .updateTable('webhook_endpoints')
        .set({ previous_secret_sealed: sealColumn(otherRing, WEBHOOK_PREVIOUS_SECRET, endpoint.id, secret) })
        .where('id', '=', endpoint.id)
        .execute();
      await enqueue(db(), world, memberId, [makeEvent(clock)]);
      await deliverDue(runner);
      const second = at('/lost')[1]!;
      assert.equal(String(second.headers['webhook-signature']).split(' ').length, 1);
      assert.ok(new Webhook(rotated.secret).verify(second.body, second.headers as Record<string, string>));
      assert.ok(log.lines.some((l) => l.level === 'warn' && /previous signing secret cannot be opened/.test(l.message)));
    });

    test('the connection goes where the checked resolution says: a name the system cannot resolve reaches the receiver', async () => {
      const { admin, memberId } = await world.member('DL-LOOKUP');
      world.dns.set('receiver.test', ['127.0.0.1']);
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/lookup', 'receiver.test') });
      const { runner } = world.worker('p1', { ca: receiver.ca });
      const event = makeEvent(clock);
      await enqueue(db(), world, memberId, [event]);
      await runner.start();
      await deliverDue(runner);
      assert.equal(at('/lookup').length, 1);
      assert.equal((await deliveryOf(event.id)).state, 'succeeded');
    });

    test('SSRF at connection time: a name that resolved to a public address at registration and to loopback now is refused, nothing sent', async () => {
      const strict = webhookWorld(db(), engine.name, clock, { allowPrivate: false });
      const { admin, memberId } = await strict.member('DL-REBIND');
      strict.dns.set('rebind.example.com', ['93.184.216.34']);
      const { endpoint } = await strict.endpoints.registerEndpoint(admin, { url: receiver.url('/rebind', 'rebind.example.com') });
      strict.dns.set('rebind.example.com', ['127.0.0.1']);
      const { runner } = strict.worker('p1', { ca: receiver.ca });
      const event = makeEvent(clock);
      await enqueue(db(), strict, memberId, [event]);
      await runner.start();
      await deliverDue(runner);
      assert.equal(at('/rebind').length, 0, 'no request reached the loopback receiver');
      const row = await deliveryOf(event.id);
      assert.deepEqual([row.state, row.attempts, row.last_status], ['pending', 1, null]);
      assert.equal(
        row.last_error,
        'refused: rebind.example.com does not resolve to a public address (it resolves to a private or reserved address, or to none): webhooks only go to public addresses; give a host name that resolves to a public internet address',
        'the address it resolved to is not shown (issue 30)',
      );
      await strict.drainAll();
      await strict.endpoints.deleteEndpoint(admin, { endpointId: endpoint.id });
    });

    test('failures are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; then the endpoint is disabled with the reason', async () => {
      const { admin, memberId } = await world.member('DL-RETRY');
      const { endpoint } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/retry') });
      receiver.answer = (r) => (r.path === '/retry' ? { status: 500 } : { status: 204 });
      const { runner } = world.worker('p1', { ca: receiver.ca });
      const event = makeEvent(clock);
      await enqueue(db(), world, memberId, [event]);
      await runner.start();
      await deliverDue(runner);
      assert.equal(at('/retry').length, 1);
      for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
        clock.advance(delay - 1);
        await deliverDue(runner);
        assert.equal(at('/retry').length, i + 1, `not before ${delay} ms`);
        clock.advance(1);
        await deliverDue(runner);
        assert.equal(at('/retry').length, i + 2, `retry ${i + 1} after ${delay} ms`);
      }
      const row = await deliveryOf(event.id);
      assert.deepEqual([row.state, row.attempts, row.last_status], ['failed', 10, 500]);
      const [view] = await world.endpoints.listEndpoints(admin, { memberId });
      assert.deepEqual(
        [view!.id, view!.status, view!.disabledReason],
        [endpoint.id, 'disabled', 'A message could not be delivered in 10 attempts over 3 days; the last attempt: answered 500, not a 2xx.'],
      );
      clock.advance(86_400_000);
      await deliverDue(runner);
      assert.equal(at('/retry').length, 10, 'nothing more');
    });

    test('410 Gone disables the endpoint at once; nothing more is sent or queued for it', async () => {
      const { admin, memberId } = await world.member('DL-GONE');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/gone') });
      receiver.answer = (r) => (r.path === '/gone' ? { status: 410 } : { status: 204 });
      const { runner } = world.worker('p1', { ca: receiver.ca });
      const [first, second] = [makeEvent(clock), makeEvent(clock)];
      await enqueue(db(), world, memberId, [first, second]);
      await runner.start();
      await deliverDue(runner);
      clock.advance(86_400_000);
      await deliverDue(runner);
      assert.equal(at('/gone').length, 1);
      assert.deepEqual([(await deliveryOf(first.id)).state, (await deliveryOf(second.id)).state], ['failed', 'pending']);
      const [view] = await world.endpoints.listEndpoints(admin, { memberId });
      assert.deepEqual([view!.status, view!.disabledReason], ['disabled', 'The endpoint answered 410 Gone, which asks for no more deliveries.']);
      assert.equal(await enqueue(db(), world, memberId, [makeEvent(clock)]), 0, 'a disabled endpoint gets no new deliveries');
    });

    test('429 and 503 wait for Retry-After; a redirect is a failure and is not followed; no answer in time is a failure', async () => {
      const { admin, memberId } = await world.member('DL-ETIQUETTE');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/etiquette') });
      const retryDate = new Date(clock.now() + 3600_000).toUTCString();
      const answers: Answer[] = [
        { status: 429, headers: { 'retry-after': '120' } },
        { status: 503, headers: { 'retry-after': retryDate } },
        { status: 302, headers: { location: receiver.url('/elsewhere') } },
        'hang',
      ];
      receiver.answer = (r) => (r.path === '/etiquette' ? (answers[at('/etiquette').length - 1] ?? { status: 204 }) : { status: 204 });
      // 2 s for an answer: with 300 ms a loaded machine's slow 429 counted as no answer (the schedule's 5 s).
      const { runner } = world.worker('p1', { ca: receiver.ca, settings: { timeoutMs: 2000, claimMs: 5000 } });
      const event = makeEvent(clock);
      await enqueue(db(), world, memberId, [event]);
      await runner.start();
      await deliverDue(runner);
      const started = clock.now();
      let row = await deliveryOf(event.id);
      assert.equal(row.next_attempt_at, started + 120_000, '429: Retry-After 120 s, not the 5 s of the schedule');
      clock.set(row.next_attempt_at);
      await deliverDue(runner);
      row = await deliveryOf(event.id);
      assert.equal(row.next_attempt_at, Date.parse(retryDate), "503: Retry-After as an HTTP date (an hour, beyond the schedule's 5 min)");
      clock.set(row.next_attempt_at);
      await deliverDue(runner);
      row = await deliveryOf(event.id);
      assert.equal(row.last_error, 'answered 302, a redirect: redirects are not followed, so give the endpoint its final URL');
      assert.equal(at('/elsewhere').length, 0, 'the redirect was not followed');
      clock.set(row.next_attempt_at);
      await deliverDue(runner);
      row = await deliveryOf(event.id);
      assert.deepEqual([row.state, row.attempts, row.last_status, row.last_error], ['pending', 4, null, 'no answer within 2 s']);
      clock.set(row.next_attempt_at);
      await deliverDue(runner);
      assert.deepEqual([(await deliveryOf(event.id)).state, at('/etiquette').length], ['succeeded', 5]);
    });

    test("event order per endpoint: a newer message waits for an older one's first attempt; a retry holds nothing back", async () => {
      const { admin, memberId } = await world.member('DL-ORDER');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/order') });
      receiver.answer = (r) => (r.path === '/order' && at('/order').length === 1 ? { status: 500 } : { status: 204 });
      const { runner } = world.worker('p1', { ca: receiver.ca });
      const events = [makeEvent(clock), makeEvent(clock), makeEvent(clock), makeEvent(clock)];
      await enqueue(db(), world, memberId, events);
      await runner.start();
      await deliverDue(runner);
      const ids = events.map((e) => e.id);
      assert.deepEqual(
        at('/order').map((r) => r.headers['webhook-id']),
        ids,
        'first attempts in event order, one after another',
      );
      clock.advance(5000);
      await deliverDue(runner);
      assert.deepEqual(
        at('/order').map((r) => r.headers['webhook-id']),
        [...ids, ids[0]],
        'the failed first message was retried after the newer ones went',
      );
    });
  });
}
