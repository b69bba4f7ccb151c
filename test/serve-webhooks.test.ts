/**
 * `serve` delivers webhooks (D32) signed with secrets sealed under its key ring (D35), and shows
 * its background work on /metrics (D36): through real `serve` processes, a local HTTPS receiver
 * (RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE=1, its certificate in NODE_EXTRA_CA_CERTS) and the
 * standardwebhooks package as the receiver's verifier. `secrets rotate` re-seals the signing
 * secrets, and once the old key has left the ring the deliveries still verify.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli, startServe, type ServeProcess } from './helpers/cli.ts';
import { TEST_KEY_RING_ENV } from './helpers/secrets.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';
import { enqueue, makeEvent, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import { systemClock } from '../src/lib/clock.ts';
import { generateKeyEntry, keyIdOf } from '../src/secrets/key-ring.ts';

/** The value of one sample (`name{labels}`) in a Prometheus text, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Reads /metrics until `ready` holds (a figure is recorded just after the work it counts). */
async function metricsWhen(url: string, ready: (text: string) => boolean, what: string): Promise<string> {
  let text = '';
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    text = `${answer.status}\n${await answer.text()}`;
    if (answer.status === 200 && ready(text)) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${what}; /metrics said:\n${text}`);
}

const metricsUrlOf = (server: ServeProcess) => {
  const url = /metrics on (http:\/\/\S+)/.exec(server.stdout())?.[1];
  assert.ok(url, server.stdout());
  return url;
};

const headersOf = (r: { headers: object }) => r.headers as Record<string, string>;

for (const engine of ENGINES) {
  describe(`serve delivers webhooks and shows its background work [${engine.name}]`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    let world: WebhookWorld;
    let env: NodeJS.ProcessEnv;
    const db = () => database.engine.db;
    const at = (path: string) => receiver.received.filter((r) => r.path === path);

    before(async () => {
      database = await engine.create();
      receiver = await startReceiver();
      world = webhookWorld(db(), engine.name, systemClock, { allowPrivate: true });
      env = { RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: receiver.certificate.certFile };
    });
    afterEach(async () => {
      receiver.answer = () => ({ status: 204 });
      // Each test counts its own deliveries: a retry left by the one before must not become due.
      await db().deleteFrom('webhook_deliveries').execute();
    });
    after(async () => {
      await receiver?.close();
      await database?.drop();
    });

    /**
     * A member whose endpoint leaves its first request hanging, with two events due for 2 minutes:
     * the first is in flight, the second waits behind it (event order), so one item is due.
     */
    async function heldBacklog(ref: string, path: string): Promise<void> {
      const { admin, memberId } = await world.member(ref);
      const { endpoint } = await world.endpoints.registerEndpoint(admin, { url: receiver.url(path) });
      await enqueue(db(), world, memberId, [makeEvent(systemClock), makeEvent(systemClock)]);
      await db()
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: Date.now() - 120_000 })
        .where('endpoint_id', '=', endpoint.id)
        .execute();
      let held = 0;
      const before = receiver.answer;
      receiver.answer = (r, i) => (r.path === path && held++ === 0 ? 'hang' : before(r, i));
    }

    test('a queued delivery arrives signed; /metrics has the deliveries by outcome, the jobs run and the backlog beside the requests', async () => {
      const { admin, memberId } = await world.member('SV-SIGNED');
      const { secret } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/signed') });
      const event = makeEvent(systemClock, { country: 'TR', tax_id: '0680123456' });
      await enqueue(db(), world, memberId, [event]);
      await heldBacklog('SV-HELD', '/held');

      const server = await startServe(['--db', database.url, '--metrics-port', '0'], env);
      try {
        const metricsUrl = metricsUrlOf(server);
        await receiver.waitFor(2, 20_000).catch((e: Error) => assert.fail(`${e.message}; serve said: ${server.stderr()}`));
        const [got] = at('/signed');
        assert.ok(got, 'delivered by serve');
        assert.deepEqual(new Webhook(secret).verify(got.body, headersOf(got)), {
          type: 'company.changed',
          timestamp: new Date(event.occurredAt).toISOString(),
          data: event.data,
        });
        assert.equal(got.headers['webhook-id'], event.id);
        assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got.body, headersOf(got)), /No matching signature/);

        assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
        const text = await metricsWhen(
          metricsUrl,
          (t) =>
            sample(t, 'risklookup_webhook_deliveries_total{outcome="succeeded"}') === 1 &&
            sample(t, 'risklookup_job_runs_total{job="retention"}') === 1 &&
            sample(t, 'risklookup_job_runs_total{job="webhook-delivery-retention"}') === 1,
          'the delivery and the two periodic jobs are counted',
        );
        // The app's figures and the background work's, in one /metrics.
        assert.equal(sample(text, 'risklookup_http_requests_total{route="/healthz",method="GET",status="200"}'), 1);
        assert.equal(sample(text, 'risklookup_job_failures_total{job="retention"}'), 0);
        assert.equal(sample(text, 'risklookup_job_runs_total{job="webhook-deliveries"}'), 1, 'one item finished; the hanging one runs still');
        assert.equal(sample(text, 'risklookup_job_failures_total{job="webhook-deliveries"}'), 0);
        assert.equal(sample(text, 'risklookup_webhook_deliveries_total{outcome="retrying"}'), 0);
        assert.equal(sample(text, 'risklookup_webhook_deliveries_total{outcome="failed"}'), 0);
        assert.equal(sample(text, 'risklookup_queue_backlog{queue="webhook-deliveries"}'), 1, 'the message behind the hanging one');
        const age = sample(text, 'risklookup_queue_oldest_age_seconds{queue="webhook-deliveries"}')!;
        assert.ok(age >= 120 && age < 240, `the oldest due item waited ${age} s`);
        assert.doesNotMatch(text, /whsec_/, 'no secret');
        assert.equal(sample(text, 'risklookup_events_written_total'), 0, 'a test event and a queued delivery are not company events');

        // The hanging request is cut: a retry is recorded; the message behind it goes out.
        receiver.dropHanging();
        await metricsWhen(
          metricsUrl,
          (t) =>
            sample(t, 'risklookup_webhook_deliveries_total{outcome="retrying"}') === 1 &&
            sample(t, 'risklookup_webhook_deliveries_total{outcome="succeeded"}') === 2 &&
            sample(t, 'risklookup_queue_backlog{queue="webhook-deliveries"}') === 0 &&
            sample(t, 'risklookup_queue_oldest_age_seconds{queue="webhook-deliveries"}') === 0,
          'the cut request is a retry, the next message succeeds, nothing is due',
        );
      } finally {
        assert.equal(await server.stop(), 0, server.stderr());
      }
    });

    test('with --workers 2 the primary sums the workers’ counts and does not double the backlog, a figure of the database', async () => {
      const { admin, memberId } = await world.member('SV-WORKERS');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/workers') });
      await enqueue(db(), world, memberId, [makeEvent(systemClock)]);
      await heldBacklog('SV-WORKERS-HELD', '/workers-held');
      // The first test's server ran the periodic jobs: due again now, for these two workers.
      await db()
        .updateTable('job_state')
        .set({ next_due_at: Date.now() - 1000 })
        .where('name', 'in', ['retention', 'webhook-delivery-retention'])
        .execute();
      const server = await startServe(['--db', database.url, '--metrics-port', '0', '--workers', '2'], env);
      try {
        const metricsUrl = metricsUrlOf(server);
        const text = await metricsWhen(
          metricsUrl,
          (t) =>
            sample(t, 'risklookup_webhook_deliveries_total{outcome="succeeded"}') === 1 &&
            sample(t, 'risklookup_job_runs_total{job="retention"}') === 1 &&
            sample(t, 'risklookup_job_runs_total{job="webhook-delivery-retention"}') === 1 &&
            at('/workers-held').length === 1,
          'a worker delivered the message, the held one is in flight, the periodic jobs ran',
        );
        assert.equal(at('/workers').length, 1, 'delivered once');
        assert.equal(sample(text, 'risklookup_queue_backlog{queue="webhook-deliveries"}'), 1, 'both workers see the one due item: not 2');
        const age = sample(text, 'risklookup_queue_oldest_age_seconds{queue="webhook-deliveries"}')!;
        assert.ok(age >= 120 && age < 240, `the oldest due item waited ${age} s, not twice that`);
        // A periodic job runs once across the workers (one claim), and the sum says so (a moment later too).
        await new Promise((r) => setTimeout(r, 1500));
        const later = await metricsWhen(metricsUrl, () => true, 'the figures a moment later');
        assert.equal(sample(later, 'risklookup_job_runs_total{job="retention"}'), 1);
        assert.equal(sample(later, 'risklookup_job_runs_total{job="webhook-delivery-retention"}'), 1);
        assert.equal(sample(later, 'risklookup_webhook_deliveries_total{outcome="succeeded"}'), 1);
        receiver.dropHanging();
      } finally {
        assert.equal(await server.stop(), 0, server.stderr());
      }
    });

    test('secrets status counts the signing secrets; secrets rotate re-seals them; without the old key serve signs with the right two', async () => {
      const { admin, memberId } = await world.member('SV-ROTATE');
      const { endpoint, secret: first } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/rotate') });
      const { secret: current } = await world.endpoints.rotateSecret(admin, { endpointId: endpoint.id });

      const status = await runCli(['secrets', 'status', '--db', database.url]);
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /webhook_endpoints\.secret_sealed \(webhook signing secrets\): \d+ under 'test' \(newest\)/);
      assert.match(status.stdout, /webhook_endpoints\.previous_secret_sealed \(.*\): \d+ under 'test' \(newest\)/);

      const newKey = generateKeyEntry('next');
      const both = { RISKLOOKUP_SECRET_KEYS: `${TEST_KEY_RING_ENV.RISKLOOKUP_SECRET_KEYS},${newKey}` };
      const rotated = await runCli(['--json', 'secrets', 'rotate', '--db', database.url], both);
      assert.equal(rotated.code, 0, rotated.stderr);
      const report = JSON.parse(rotated.stdout) as { resealed: number; unreadable: unknown[] };
      assert.deepEqual(report.unreadable, []);
      const row = await db().selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      assert.deepEqual([keyIdOf(row.secret_sealed), keyIdOf(row.previous_secret_sealed!)], ['next', 'next']);
      const after = await runCli(['secrets', 'status', '--db', database.url], both);
      assert.doesNotMatch(after.stdout, /webhook_endpoints.*under 'test'/);
      assert.match(after.stdout, /webhook_endpoints\.secret_sealed .*under 'next' \(newest\)/);

      const event = makeEvent(systemClock);
      await enqueue(db(), world, memberId, [event]);
      const server = await startServe(['--db', database.url], { ...env, RISKLOOKUP_SECRET_KEYS: newKey });
      try {
        for (let i = 0; i < 200 && at('/rotate').length === 0; i++) await new Promise((r) => setTimeout(r, 50));
        const [got] = at('/rotate');
        assert.ok(got, `delivered by a serve whose ring lacks the old key; serve said: ${server.stderr()}`);
        assert.equal(got.headers['webhook-id'], event.id);
        assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2, 'the new secret and, for 24 h, the previous one');
        for (const s of [current, first]) assert.ok(new Webhook(s).verify(got.body, headersOf(got)), 'either secret verifies');
      } finally {
        assert.equal(await server.stop(), 0, server.stderr());
      }
    });
  });
}
