/**
 * The server's background work runs under the runner (src/jobs/): `serve` starts it, the daily
 * retention job (D34: reports, and D21's audit records after a year) is one of its jobs, and
 * SIGTERM drains it before the process exits 0. `--background no` keeps it out of an API process,
 * `--background only` runs it in a process with no API (issue 30: deliveries beside the searches).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli, startServe } from './helpers/cli.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { enqueue, makeEvent, webhookWorld } from './helpers/webhooks.ts';
import { systemClock } from '../src/lib/clock.ts';

const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe(`serve runs the background work [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('two serve processes on one database: the retention job (audit purge) runs once, and SIGTERM leaves nothing held', async () => {
      const now = Date.now();
      const row = (at: number) => ({ at, status: 200, response_ms: 1, client_address: '127.0.0.1' });
      await database.engine.db
        .insertInto('audit_log')
        .values([row(now - 400 * DAY), row(now - 366 * DAY), row(now - 10 * DAY)])
        .execute();
      const servers = await Promise.all([startServe(['--db', database.url]), startServe(['--db', database.url])]);
      try {
        const db = database.engine.db;
        let state;
        for (let i = 0; i < 200; i++) {
          state = await db.selectFrom('job_state').selectAll().where('name', '=', 'retention').executeTakeFirst();
          if (state?.last_finished_at) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(state?.last_finished_at, 'the purge ran');
        const left = await db.selectFrom('audit_log').select('at').execute();
        assert.deepEqual(
          left.map((r) => r.at),
          [now - 10 * DAY],
        );
        // Due again at the next 03:00 Turkey time: the other process, started at the same moment, did not run it again.
        assert.ok(state.next_due_at! > state.last_started_at!, `next due ${state.next_due_at}`);
        assert.equal((state.next_due_at! + 3 * 3600_000) % DAY, 3 * 3600_000, 'at 03:00 Turkey time');
        const runs = await db.selectFrom('operator_log').select('actor').where('action', '=', 'retention.purge').execute();
        assert.equal(runs.length, 1, 'one purge, logged once');
      } finally {
        const codes = await Promise.all(servers.map((s) => s.stop('SIGTERM')));
        assert.deepEqual(codes, [0, 0], servers.map((s) => s.stderr()).join('\n'));
      }
      const held = await database.engine.db.selectFrom('job_state').select(['name', 'holder']).where('holder', 'is not', null).execute();
      assert.deepEqual(held, [], 'every claim and lease given back on SIGTERM');
    });

    test('--background no: the API answers and runs no background work; --background only runs it with no API', async () => {
      const db = database.engine.db;
      await db.deleteFrom('job_state').execute();
      const now = Date.now();
      await db
        .insertInto('audit_log')
        .values({ at: now - 400 * DAY, status: 200, response_ms: 1, client_address: '127.0.0.1' })
        .execute();
      const receiver = await startReceiver();
      try {
        const env = { RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: receiver.certificate.certFile };
        const world = webhookWorld(db, engine.name, systemClock, { allowPrivate: true });
        const { admin, memberId } = await world.member('ROLES');
        await world.endpoints.registerEndpoint(admin, { url: receiver.url('/roles') });
        const api = await startServe(['--db', database.url, '--background', 'no', '--metrics-port', '0'], env);
        let only: Awaited<ReturnType<typeof startServe>> | null = null;
        try {
          await enqueue(db, world, memberId, [makeEvent(systemClock)]);
          assert.equal((await fetch(`${api.url}/api/v1/countries.php`)).status, 200, 'the API process answers');
          // A process with background work ticks every second and delivers at its first tick.
          await new Promise((r) => setTimeout(r, 3000));
          assert.equal(receiver.received.length, 0, 'the API process delivered nothing');
          const pending = await db.selectFrom('webhook_deliveries').select(['state', 'attempts']).execute();
          assert.deepEqual(pending, [{ state: 'pending', attempts: 0 }]);
          assert.deepEqual(await db.selectFrom('job_state').select('name').where('last_started_at', 'is not', null).execute(), [], 'no job ran');
          // Its /metrics still shows the database's figures (the delivery waiting for another
          // process), not the background work's own counts, which it has none of.
          const metricsUrl = /metrics on (http:\/\/\S+)/.exec(api.stdout())?.[1];
          assert.ok(metricsUrl, api.stdout());
          const apiMetrics = await (await fetch(metricsUrl)).text();
          assert.match(apiMetrics, /^risklookup_queue_backlog\{queue="webhook-deliveries"\} 1$/m);
          assert.match(apiMetrics, /^risklookup_queue_oldest_age_seconds\{queue="webhook-deliveries"\} \d+$/m);
          assert.match(apiMetrics, /^risklookup_events_written_total \d+$/m);
          assert.doesNotMatch(apiMetrics, /^risklookup_webhook_deliveries_total/m);

          only = await startServe(['--db', database.url, '--background', 'only'], env, { ready: /^background work only, no API \(/m });
          assert.equal(only.url, '');
          assert.doesNotMatch(only.stdout(), /listening on/);
          await receiver.waitFor(1, 10_000).catch((e: Error) => assert.fail(`${e.message}; serve said: ${only!.stderr()}`));
          let purged = false;
          for (const deadline = Date.now() + 10_000; !purged && Date.now() < deadline;) {
            purged =
              (
                await db
                  .selectFrom('audit_log')
                  .select('at')
                  .where('at', '<', now - 365 * DAY)
                  .execute()
              ).length === 0;
            if (!purged) await new Promise((r) => setTimeout(r, 50));
          }
          assert.ok(purged, 'the retention job ran in the background process');
          // Idle now, with no port of its own: it keeps running until it is told to stop (below).
          await new Promise((r) => setTimeout(r, 1500));
          for (const deadline = Date.now() + 10_000; ;) {
            const row = await db.selectFrom('webhook_deliveries').select(['state', 'attempts']).executeTakeFirstOrThrow();
            if (row.state === 'succeeded') break;
            assert.ok(Date.now() < deadline, `the outcome is written (state ${row.state})`);
            await new Promise((r) => setTimeout(r, 50));
          }
        } finally {
          const codes = await Promise.all([api.stop('SIGTERM'), only?.stop('SIGTERM')]);
          assert.deepEqual(codes, [0, only ? 0 : undefined], `${api.stderr()}\n${only?.stderr() ?? ''}`);
        }
        const held = await db.selectFrom('job_state').select(['name', 'holder']).where('holder', 'is not', null).execute();
        assert.deepEqual(held, [], 'every claim and lease given back on SIGTERM');

        // Its figures on a metrics port of its own (D36): the deliveries' queue, empty now.
        const watched = await startServe(['--db', database.url, '--background', 'only', '--metrics-port', '0'], {}, { ready: /metrics on (http:\/\/\S+)/ });
        try {
          const text = await (await fetch(watched.url)).text();
          assert.match(text, /^risklookup_queue_backlog\{queue="webhook-deliveries"\} 0$/m);
        } finally {
          assert.equal(await watched.stop('SIGTERM'), 0, watched.stderr());
        }
      } finally {
        await receiver.close();
      }
    });
  });
}

test('serve --background: a wrong value, or only with --workers or --demo, is refused with the way out', async () => {
  const db = ['--db', 'sqlite::memory:'];
  const wrong = await runCli(['serve', ...db, '--background', 'maybe']);
  assert.equal(wrong.code, 1, wrong.stderr);
  assert.match(wrong.stderr, /must be yes \(beside the API\), no .* or only .*got 'maybe'/);
  const workers = await runCli(['serve', ...db, '--background', 'only', '--workers', '2']);
  assert.equal(workers.code, 2, workers.stderr);
  assert.match(workers.stderr, /drop --workers/);
  const demo = await runCli(['serve', ...db, '--background', 'only', '--demo']);
  assert.equal(demo.code, 2, demo.stderr);
  assert.match(demo.stderr, /start the demo without --background/);
});
