/**
 * Several server processes on one database (D18 across processes): a `--workers 2` cluster and
 * a third, separate process share one key's quota exactly, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { httpGet } from './helpers/http.ts';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startServe, type ServeProcess } from './helpers/cli.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { systemClock } from '../src/lib/clock.ts';
import { keySubject } from '../src/quota/allowance.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';

for (const engine of ENGINES) {
  describe(`several server processes [${engine.name}]`, () => {
    let database: TestDatabase;
    const servers: ServeProcess[] = [];

    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      for (const s of servers) await s.stop();
      await database?.drop();
    });

    test('D18: 300 parallel requests over three processes with 50 left give exactly 50 answers of 200', async () => {
      const db = database.engine.db;
      const key = await makeKeyHolder(db, systemClock, { ref: 'M-MULTI', dailyLimit: 60 });
      await makeCompanies(database.engine, systemClock, [{ company_name: 'Multiprocess Lojistik A.Ş.' }]);
      // 10 of the 60 are already used today.
      const holder = await db.selectFrom('api_keys').select('id').executeTakeFirstOrThrow();
      await db
        .insertInto('usage_counters')
        .values({ subject: keySubject(Number(holder.id)), day: quotaDayOf(Date.now()), used: 10 })
        .execute();

      servers.push(await startServe(['--workers', '2', '--db', database.url]));
      servers.push(await startServe(['--db', database.url]));
      // Many connections per server, so the requests really run side by side.
      const agent = new Agent({ keepAlive: true, maxSockets: 50 });
      const statuses = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          httpGet(`${servers[i % 2]!.url}/api/v1/search.php?q=Multiprocess`, { 'x-api-key': key }, agent).then((r) => r.status),
        ),
      );
      agent.destroy();
      const count = (s: number) => statuses.filter((x) => x === s).length;
      assert.deepEqual({ ok: count(200), limited: count(429), other: 300 - count(200) - count(429) }, { ok: 50, limited: 250, other: 0 });
    });

    test('SIGTERM stops the cluster and the single process with exit code 0', async () => {
      while (servers.length > 0) assert.equal(await servers.pop()!.stop(), 0);
    });
  });
}
