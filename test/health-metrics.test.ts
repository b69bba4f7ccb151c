/**
 * D36 through the real app on every engine: /healthz and /readyz without a key and outside every
 * allowance, saying only `ok` or the failed check; the request figures in the Prometheus text
 * format, only on the metrics port of `serve`; one log line per request, with no key, session,
 * CSRF token or link token in any line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder, makeMember } from './helpers/factories.ts';
import { anonymousBrowser, makePortalUser, signIn } from './helpers/portal.ts';
import { runCli, startServe } from './helpers/cli.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { inviteUser } from '../src/users/users.service.ts';
import { NOON_TR } from './helpers/app.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

for (const engine of ENGINES) {
  describe(`health, readiness, metrics and the request log [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const lifecycle = { draining: false };
    const metrics = createMetrics();

    before(async () => {
      database = await engine.create();
      const clock = fixedClock(NOON_TR);
      const logs: string[] = [];
      const { Writable } = await import('node:stream');
      const destination = new Writable({
        write(chunk, _encoding, callback) {
          logs.push(String(chunk));
          callback();
        },
      });
      const { createLogger } = await import('../src/lib/logger.ts');
      const app = await buildApp({
        keyRing: TEST_KEY_RING,
        config: parseConfig({ databaseUrl: database.url, anonDailyLimit: 2 }, {}),
        engine: database.engine,
        logger: createLogger({ level: 'info', destination }),
        clock,
        metrics,
        lifecycle,
      });
      t = { app, clock, logs, close: () => app.close() };
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('/healthz and /readyz answer ok without a key, outside the anonymous allowance, with no rate-limit figures', async () => {
      for (let i = 0; i < 5; i++) {
        for (const url of ['/healthz', '/readyz']) {
          const response = await t.app.inject({ method: 'GET', url });
          assert.equal(response.statusCode, 200, url);
          assert.equal(response.body, 'ok\n');
          assert.equal(response.headers['x-ratelimit-limit'], undefined);
          assert.equal(response.headers['cache-control'], 'no-store');
        }
      }
      // The allowance of 2 keyless requests a day is untouched by the ten checks.
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/countries' })).statusCode, 200);
    });

    test('draining: both answer 503 `draining`; readiness names the failed check, nothing more', async () => {
      lifecycle.draining = true;
      try {
        for (const url of ['/healthz', '/readyz']) {
          const response = await t.app.inject({ method: 'GET', url });
          assert.deepEqual([response.statusCode, response.body], [503, 'draining\n'], url);
        }
      } finally {
        lifecycle.draining = false;
      }
      await sql`DELETE FROM kysely_migration WHERE name = '0007-name-words'`.execute(database.engine.db);
      try {
        const stale = await t.app.inject({ method: 'GET', url: '/readyz' });
        assert.deepEqual([stale.statusCode, stale.body], [503, 'migrations\n']);
        assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the process is up all the same');
      } finally {
        await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('0007-name-words', '2026-01-01T00:00:00.000Z')`.execute(database.engine.db);
      }
    });

    test('readiness says `database` when the database does not answer', async () => {
      const other = await engine.create();
      const app = await buildApp({ keyRing: TEST_KEY_RING, config: parseConfig({ databaseUrl: other.url }, {}), engine: other.engine });
      try {
        assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).body, 'ok\n');
        await other.engine.close();
        const down = await app.inject({ method: 'GET', url: '/readyz' });
        assert.deepEqual([down.statusCode, down.body], [503, 'database\n']);
      } finally {
        await app.close();
        await other.drop();
      }
    });

    test('behind a proxy the health checks answer over plain HTTP (every other request must be HTTPS)', async () => {
      const app = await buildApp({
        keyRing: TEST_KEY_RING,
        config: parseConfig({ databaseUrl: database.url }, {}),
        engine: database.engine,
        transport: { kind: 'proxy', trusted: ['127.0.0.1'] },
      });
      try {
        assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
        assert.equal((await app.inject({ method: 'GET', url: '/api/v1/countries' })).statusCode, 403);
      } finally {
        await app.close();
      }
    });

    test('the figures: answers by route and status, latency, quota 429s, admission and pool gauges; no /metrics on the main port', async () => {
      const [taxId] = await makeCompanies(database.engine, t.clock, [{ company_name: 'Ölçülen A.Ş.' }]);
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'MET-1', dailyLimit: 1 });
      assert.equal((await search(t.app, key, `type=tax_id&country=TR&q=${taxId}`)).statusCode, 200);
      assert.equal((await search(t.app, key, `type=tax_id&country=TR&q=${taxId}`)).statusCode, 429);
      const text = await metrics.registry.metrics();
      assert.match(text, /risklookup_http_requests_total\{route="\/api\/v1\/search\.php",method="GET",status="200"\} 1/);
      assert.match(text, /risklookup_http_requests_total\{route="\/api\/v1\/search\.php",method="GET",status="429"\} 1/);
      assert.match(text, /risklookup_quota_refusals_total\{route="\/api\/v1\/search\.php"\} 1/);
      assert.match(text, /risklookup_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/v1\/search\.php",method="GET"\} \d/);
      assert.match(text, /risklookup_admission_queued 0/);
      assert.match(text, /risklookup_admission_shed_total 0/);
      assert.match(text, /risklookup_db_pool_waiting 0/);
      // No query, no id in a label: route patterns only.
      assert.doesNotMatch(text, new RegExp(taxId!));
      assert.equal((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
    });

    test('one log line per request, at info, and no key, session id, CSRF token or link token in any line', async () => {
      await makeMember(database.engine.db, t.clock, { ref: 'LOG-1' });
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'LOG-2' });
      const user = await makePortalUser(database.engine.db, t.clock, { role: 'member_user', memberRef: 'LOG-1' });
      const link = await inviteUser(database.engine.db, t.clock, {
        email: 'log-invite@example.com',
        role: 'member_user',
        memberRef: 'LOG-1',
        createdBy: 'test',
      });
      t.logs.length = 0;
      const browser = await signIn(t.app, user);
      await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' });
      await search(t.app, key, 'q=Anadolu%20Demir');
      await search(t.app, key, `q=Anadolu&api_key=${key}`);
      await t.app.inject({ method: 'GET', url: `/api/v1/${key}` });
      const visitor = await anonymousBrowser(t.app);
      await visitor.get(`/portal/accept?token=${link.token}`);
      const lines = t.logs.map((l) => JSON.parse(l) as LogLine);
      const requestLines = lines.filter((l) => l.msg === 'request');
      // Sign-in (page, post, home), locale, 3 API requests, the visitor's sign-in page and the link.
      assert.equal(requestLines.length, 9, JSON.stringify(requestLines.map((l) => [l.method, l.route])));
      assert.equal(new Set(requestLines.map((l) => l.reqId)).size, 9, 'one line per request');
      assert.ok(requestLines.every((l) => l.level === 30 && typeof l.status === 'number' && typeof l.ms === 'number' && typeof l.route !== 'undefined'));
      assert.ok(!lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed'), "Fastify's own two lines are off");
      const all = t.logs.join('');
      for (const [what, secret] of [
        ['key', key],
        ['session id', browser.sessionId()],
        ['CSRF token', browser.csrf],
        ['link token', link.token],
        ['password', user.password],
        ['search words', 'Anadolu'],
      ] as const) {
        assert.ok(secret && !all.includes(secret), `a ${what} reached the logs`);
      }
    });
  });
}

describe('serve: the metrics port (D36)', () => {
  test('GET /metrics answers on --metrics-port only; a public --metrics-host is refused unless asked', async () => {
    const database = await ENGINES[0]!.create();
    const server = await startServe(['--db', database.url, '--metrics-port', '0']);
    try {
      const metricsUrl = /metrics on (http:\/\/\S+)/.exec(server.stdout())?.[1];
      assert.ok(metricsUrl, server.stdout());
      assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      await fetch(`${server.url}/healthz`);
      const text = await (await fetch(metricsUrl)).text();
      assert.match(text, /risklookup_http_requests_total\{route="\/healthz",method="GET",status="200"\} 1/);
      assert.match(text, /risklookup_process_cpu_seconds_total/);
      // Memory beside the heap (issue 28): ArrayBuffers and the peak resident set, in bytes.
      assert.match(text, /^risklookup_nodejs_array_buffers_bytes \d+$/m);
      const peak = Number(/^risklookup_process_max_resident_memory_bytes (\d+)$/m.exec(text)?.[1]);
      const resident = Number(/^risklookup_process_resident_memory_bytes (\d+)$/m.exec(text)?.[1]);
      // Read a moment apart: the peak may trail a resident set still growing, never by much.
      assert.ok(peak >= 0.9 * resident && resident > 10 * 2 ** 20, `peak ${peak}, resident ${resident}`);
      assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
    } finally {
      await server.stop();
      await database.drop();
    }
    const refused = await runCli(['serve', '--db', 'sqlite::memory:', '--metrics-port', '9999', '--metrics-host', '0.0.0.0']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refusing to serve \/metrics on 0\.0\.0\.0.*--metrics-public/s);
  });
});
