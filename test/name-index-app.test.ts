/**
 * The in-memory index of names (issue 28) through the real app: loaded after start without
 * holding up the first requests, its size on /metrics and in the log, kept current through an
 * import (a write session's "everything changed"), and off with the setting (the database only).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { search } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createMetrics, type Metrics } from '../src/metrics/metrics.ts';
import { NOON_TR } from './helpers/app.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';

async function gauge(metrics: Metrics, name: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  assert.ok(match, `${name} not on /metrics`);
  return Number(match[1]);
}

/** Waits (bounded) until the gauge is above 0. */
async function whenLoaded(metrics: Metrics): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const bytes = await gauge(metrics, 'risklookup_name_index_bytes');
    if (bytes > 0) return bytes;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('the index of names did not load within 5 s');
}

for (const engine of ENGINES) {
  for (const nameIndex of ['yes', 'no'] as const) {
    describe(`the in-memory index of names in the app, --name-index ${nameIndex} [${engine.name}]`, () => {
      let database: TestDatabase;
      let app: Awaited<ReturnType<typeof buildApp>>;
      let key: string;
      const metrics = createMetrics();
      const logs: string[] = [];
      const clock = fixedClock(NOON_TR);
      before(async () => {
        database = await engine.create();
        await makeCompanies(database.engine, clock, [{ company_name: 'Kestanelik Lojistik A.Ş.' }, { company_name: 'Cevizlik Gıda Ltd. Şti.' }]);
        key = await makeKeyHolder(database.engine.db, clock, { ref: 'M-1', dailyLimit: 1000 });
        const destination = new Writable({
          write(chunk, _encoding, callback) {
            logs.push(String(chunk));
            callback();
          },
        });
        app = await buildApp({
          keyRing: TEST_KEY_RING,
          config: parseConfig({ databaseUrl: database.url, nameIndex, searchCacheEntries: 0 }, {}),
          engine: database.engine,
          logger: createLogger({ level: 'info', destination }),
          clock,
          metrics,
        });
        await app.ready();
      });
      after(async () => {
        await app?.close();
        await database?.drop();
      });

      const names = async (q: string) => {
        const response = await search(app, key, `q=${encodeURIComponent(q)}&type=name`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json<{ results: Array<{ company_name: string }> }>().results.map((r) => r.company_name);
      };

      test('searches answer, and an imported company is found on the next search', async () => {
        assert.deepEqual(await names('kestanelik'), ['Kestanelik Lojistik A.Ş.']);
        if (nameIndex === 'yes') await whenLoaded(metrics);
        assert.deepEqual(await names('kestanelik'), ['Kestanelik Lojistik A.Ş.']);
        await makeCompanies(database.engine, clock, [{ company_name: 'Kestanelik Yapı' }]);
        // The import's "everything changed": the database answers until the index is built again.
        assert.deepEqual(await names('kestanelik'), ['Kestanelik Lojistik A.Ş.', 'Kestanelik Yapı']);
        assert.deepEqual(await names('cevizlik'), ['Cevizlik Gıda Ltd. Şti.']);
      });

      test(nameIndex === 'yes' ? 'its size is on /metrics and in the log' : 'it is off: nothing held, nothing loaded', async () => {
        if (nameIndex === 'yes') {
          const bytes = await whenLoaded(metrics);
          assert.ok(bytes > 1000, String(bytes));
          assert.equal(await gauge(metrics, 'risklookup_name_index_companies'), 3);
          const line = logs.map((l) => JSON.parse(l) as { msg: string; bytes?: number }).find((l) => l.msg.startsWith('in-memory index of names loaded'));
          assert.ok(line && Number(line.bytes) > 1000, logs.join(''));
        } else {
          await new Promise((resolve) => setTimeout(resolve, 200));
          assert.equal(await gauge(metrics, 'risklookup_name_index_bytes'), 0);
          assert.equal(await gauge(metrics, 'risklookup_name_index_companies'), 0);
          assert.ok(!logs.some((l) => l.includes('in-memory index of names loaded')));
        }
      });
    });
  }
}
