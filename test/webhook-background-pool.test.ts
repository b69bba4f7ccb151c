/**
 * Issue 30, third pass: on PostgreSQL a `serve` process's background work (the deliveries' claims
 * and outcomes, the runner's lease, the daily jobs) has a pool of its own, so that it never waits
 * for a connection behind the searches nor takes one a search waits for; and a delivery's outcome
 * commits without waiting for the write-ahead log's flush, the claim still with it. PostgreSQL only:
 * SQLite has one connection in a process and no write-ahead log flush at each commit (WAL mode,
 * synchronous NORMAL), and webhook-delivery.test.ts covers its deliveries.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startServe } from './helpers/cli.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';
import { enqueue, makeEvent, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import { systemClock } from '../src/lib/clock.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { vkn } from '../src/demo/valid-ids.ts';
import { seamFor } from '../src/db/dialect-seam.ts';
import { claimDueDeliveries, recordAttempts } from '../src/webhooks/deliveries.repository.ts';
import { DELIVERY_THREAD_APPLICATION } from '../src/webhooks/delivery-store.ts';

for (const engine of ENGINES.filter((e) => e.name === 'postgres')) {
  describe(`background work beside the searches [${engine.name}]`, () => {
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

    test("a delivery goes out while the searches' only connection waits on a lock", async () => {
      const { admin, memberId } = await world.member('BG-POOL');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/bg-pool') });
      const key = (await issueKey(db(), systemClock, 'BG-POOL', 1000)).key;
      const server = await startServe(['--db', database.url], {
        RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1',
        NODE_EXTRA_CA_CERTS: receiver.certificate.certFile,
        RISKLOOKUP_DB_POOL_SIZE: '1',
        RISKLOOKUP_DB_STATEMENT_TIMEOUT_MS: '20000',
      });
      // Another session holds the tables a search reads and writes: the search's statement waits,
      // holding the requests' one pooled connection, until this transaction ends.
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE api_keys, usage_counters, audit_log IN ACCESS EXCLUSIVE MODE');
        let answered = false;
        const search = fetch(`${server.url}/api/v1/search.php?type=tax_id&country=TR&q=${vkn('612345678')}`, {
          headers: { 'x-api-key': key },
          signal: AbortSignal.timeout(30_000),
        }).then((r) => {
          answered = true;
          return r.status;
        });
        for (const deadline = Date.now() + 10_000; ;) {
          const { rows } = await locker.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
          );
          if (rows[0]!.n > 0) break;
          assert.ok(Date.now() < deadline, 'the search reached the locked tables');
          await new Promise((r) => setTimeout(r, 50));
        }
        await enqueue(db(), world, memberId, [makeEvent(systemClock)]);
        await receiver.waitFor(1, 10_000).catch((e: Error) => assert.fail(`${e.message}; serve said: ${server.stderr()}`));
        assert.equal(answered, false, 'delivered while the search still waited on the lock');
        await locker.query('ROLLBACK');
        assert.equal(await search, 200, 'the search answers once the lock is gone');
        const row = await db().selectFrom('webhook_deliveries').select(['state', 'attempts']).executeTakeFirstOrThrow();
        for (const deadline = Date.now() + 10_000; ;) {
          const now = await db().selectFrom('webhook_deliveries').select(['state', 'attempts']).executeTakeFirstOrThrow();
          if (now.state === 'succeeded') break;
          assert.ok(Date.now() < deadline, `the outcome is written (state ${row.state})`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await locker.end().catch(() => {});
        // A failed run may leave the process draining behind a request: it is not what is tested here.
        const stopped = server.stop();
        const timer = setTimeout(() => server.signal('SIGKILL'), 15_000);
        await stopped;
        clearTimeout(timer);
      }
    });

    test("the claims and the outcomes are written on the sending thread's own connection, not the serving thread's", async () => {
      const { admin, memberId } = await world.member('BG-THREAD');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/bg-thread') });
      const server = await startServe(['--db', database.url], {
        RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1',
        NODE_EXTRA_CA_CERTS: receiver.certificate.certFile,
      });
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      /** The sessions waiting for a lock with a statement that matches, once there is one. */
      const waitingWith = async (statement: RegExp) => {
        for (const deadline = Date.now() + 10_000; ;) {
          // Not through the locker: inside a transaction, pg_stat_activity is read once.
          const { rows } = await sql<{ application_name: string; query: string }>`
            SELECT application_name, query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db());
          const matching = rows.filter((r) => statement.test(r.query));
          if (matching.length > 0) return matching.map((r) => r.application_name);
          assert.ok(
            Date.now() < deadline,
            `a statement like ${statement} waits for the lock (waiting: ${JSON.stringify(rows)}); serve said: ${server.stderr()}`,
          );
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      try {
        // A claim waits for the table: the session making it is the delivery thread's.
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE webhook_deliveries IN ACCESS EXCLUSIVE MODE');
        assert.deepEqual(await waitingWith(/skip locked/i), [DELIVERY_THREAD_APPLICATION]);
        await locker.query('ROLLBACK');
        // An outcome's write waits for the delivery's row, locked while the receiver holds its answer.
        let delivered: () => void = () => {};
        const arrived = new Promise<void>((resolve) => (delivered = resolve));
        receiver.answer = () => {
          delivered();
          return { status: 204, delayMs: 3000 };
        };
        await enqueue(db(), world, memberId, [makeEvent(systemClock)]);
        await arrived;
        await locker.query('BEGIN');
        await locker.query('SELECT id FROM webhook_deliveries FOR UPDATE');
        assert.deepEqual(await waitingWith(/^\s*WITH v \(id, token/), [DELIVERY_THREAD_APPLICATION]);
        await locker.query('ROLLBACK');
        for (const deadline = Date.now() + 10_000; ;) {
          const row = await db().selectFrom('webhook_deliveries').select(['state', 'attempts']).executeTakeFirstOrThrow();
          if (row.state === 'succeeded') break;
          assert.ok(Date.now() < deadline, `the outcome is written (state ${row.state})`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        receiver.answer = () => ({ status: 204 });
        await locker.end().catch(() => {});
        await server.stop();
      }
      // Stopped: the thread's session ended with it.
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${DELIVERY_THREAD_APPLICATION}`.execute(db());
      assert.equal(rows[0]!.n, 0);
    });

    test("an outcome's transaction commits without waiting for the WAL flush, that transaction only", async () => {
      const { admin, memberId } = await world.member('BG-FLUSH');
      await world.endpoints.registerEndpoint(admin, { url: receiver.url('/bg-flush') });
      await enqueue(db(), world, memberId, [makeEvent(systemClock)]);
      const seam = seamFor('postgres');
      const now = Date.now();
      const request = { now, limit: 1, holder: 'h', token: 'tok', claimUntil: now + 60_000, roomFor: () => 4, fullEndpoints: [] };
      const setting = () => sql<{ s: string }>`SELECT current_setting('synchronous_commit') AS s`;
      // The claim: its transaction keeps the server's setting (a claim lost in a crash could be sent twice at once).
      const claimed = await claimDueDeliveries(db(), seam, request);
      assert.equal(claimed.length, 1);
      // The outcome, inside a transaction of the caller's (as when an endpoint is disabled with it): the setting for that transaction only.
      const [inside, recorded] = await db()
        .transaction()
        .execute(async (trx) => {
          const results = await recordAttempts(trx, seam, [{ claimed: claimed[0]!, record: { state: 'succeeded', now, status: 204, error: null } }]);
          return [(await setting().execute(trx)).rows[0]!.s, results] as const;
        });
      assert.equal(inside, 'off');
      assert.deepEqual(recorded, [true]);
      assert.equal((await setting().execute(db())).rows[0]!.s, 'on', 'the other transactions of the connection wait for the flush');
      const row = await db().selectFrom('webhook_deliveries').select(['state', 'attempts', 'claim_token']).executeTakeFirstOrThrow();
      assert.deepEqual(row, { state: 'succeeded', attempts: 1, claim_token: null });
    });
  });
}
