/**
 * PostgreSQL unavailable or restarted: searches answer 503 in the D2 body instead of hanging,
 * and the server recovers by itself. A TCP proxy in the test stands between the service and
 * the database so that the connection can be cut and restored.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { openEngine, type Engine } from '../src/db/connect.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import type { App } from '../src/http/app-type.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';

class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Refuses new connections and drops the open ones, as a crashed or restarting server would. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

for (const engine of ENGINES.filter((e) => e.name === 'postgres')) {
  describe(`database outage [${engine.name}]`, () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let proxied: Engine;
    let app: App;
    let key: string;

    before(async () => {
      database = await engine.create();
      key = await makeKeyHolder(database.engine.db, systemClock, { ref: 'M-OUT' });
      await makeCompanies(database.engine, systemClock, [{ company_name: 'Outage Lojistik A.Ş.' }]);
      const target = new URL(database.url);
      proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      await proxy.open();
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      proxied = openEngine(viaProxy.toString(), { poolSize: 4, statementTimeoutMs: 1000 });
      app = await buildApp({ keyRing: TEST_KEY_RING, config: parseConfig({ databaseUrl: viaProxy.toString() }, {}), engine: proxied });
    });
    after(async () => {
      await app?.close();
      await proxied?.close().catch(() => {});
      await proxy?.cut().catch(() => {});
      await database?.drop();
    });

    const searchOnce = () => app.inject({ url: '/api/v1/search.php?q=Outage', headers: { 'x-api-key': key } });

    test('503 service_unavailable while the database is gone, quickly; recovery when it is back', async () => {
      assert.equal((await searchOnce()).statusCode, 200);

      await proxy.cut();
      const started = Date.now();
      const down = await searchOnce();
      const elapsed = Date.now() - started;
      assert.equal(down.statusCode, 503, down.body);
      assert.deepEqual(down.json(), {
        success: false,
        error: 'the service cannot reach its database right now; try again shortly',
        code: 503,
        reason: 'service_unavailable',
        docs: '/api/v1/docs/errors#reason-service_unavailable',
      });
      assert.equal(down.headers['retry-after'], '5');
      assert.ok(elapsed < 6000, `answered after ${elapsed} ms`);
      // Every request while it is down gets the same answer, none hangs.
      const more = await Promise.all(Array.from({ length: 10 }, searchOnce));
      assert.deepEqual([...new Set(more.map((r) => r.statusCode))], [503]);

      await proxy.open();
      const recoveredAt = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - recoveredAt < 10_000) {
        status = (await searchOnce()).statusCode;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 200, 'the service recovered by itself');
    });
  });
}
