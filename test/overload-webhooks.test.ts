/**
 * A receiver that never answers must not slow searches (D32, issue 30): deliveries have their
 * own bounded concurrency, apart from D26's admission gate, and hold no database connection
 * while they wait. Searches' p99 with the delivery worker busy against a hanging receiver,
 * against the same searches without it, in alternating rounds on one process (run alone: it
 * measures time).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTestApp, NOON_TR } from './helpers/app.ts';
import { httpGet } from './helpers/http.ts';
import { countries } from './helpers/factories.ts';
import { prepareDemo } from '../src/demo/demo.service.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { fixedClock, systemClock } from '../src/lib/clock.ts';
import { enqueue, makeEvent, webhookWorld } from './helpers/webhooks.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';

const SEARCHES = 300;
const ROUNDS = 3;
const CLIENTS = 4;

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1]!;
}

for (const engine of ENGINES) {
  describe(`searches beside a hanging webhook receiver [${engine.name}]`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    before(async () => {
      database = await engine.create();
      receiver = await startReceiver();
      receiver.answer = () => 'hang';
    });
    after(async () => {
      await receiver?.close();
      await database?.drop();
    });

    test("searches' p99 is unchanged while every delivery waits on a receiver that never answers", async () => {
      const clock = fixedClock(NOON_TR);
      await prepareDemo(database.engine, clock, countries, 100);
      const key = (await issueKey(database.engine.db, clock, 'M-1001', 1_000_000)).key;
      // The cache off: every search reads the database, as the deliveries' claims and records do.
      // Over a real port, so that the searches' I/O and the deliveries' timers take turns as in a server.
      const app = await makeTestApp(database, { searchCacheEntries: 0 });
      await app.app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
      const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
      // Deliveries run on the real clock: a timed-out attempt is retried 5 s later, and meanwhile the next message goes.
      const world = webhookWorld(database.engine.db, engine.name, systemClock, { allowPrivate: true });
      for (let m = 0; m < 3; m++) {
        const { admin, memberId } = await world.member(`HANG-${m}`);
        for (let e = 0; e < 3; e++) await world.endpoints.registerEndpoint(admin, { url: receiver.url(`/hang/${m}/${e}`) });
        await enqueue(
          database.engine.db,
          world,
          memberId,
          Array.from({ length: 300 }, () => makeEvent(systemClock)),
        );
      }
      const queries = ['q=demir', 'q=Marmara', 'q=Karadeniz', 'type=tax_id&q=DE136695976'];
      // Four clients at once: with the pool's 10 connections, deliveries that held one each while
      // waiting (9 endpoints) would leave the searches queuing for a connection.
      const openSeen: number[] = [];
      const measure = async () => {
        const samples: number[] = [];
        const client = async (offset: number) => {
          for (let i = offset; i < SEARCHES; i += CLIENTS) {
            const started = process.hrtime.bigint();
            const answer = await httpGet(`${base}/api/v1/search.php?${queries[i % queries.length]!}`, { 'x-api-key': key }, agent);
            samples.push(Number(process.hrtime.bigint() - started) / 1e6);
            openSeen.push(receiver.open());
            assert.equal(answer.status, 200);
          }
        };
        await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
        return samples;
      };
      await measure(); // warm-up
      const quiet: number[] = [];
      const busy: number[] = [];
      const roundP99 = { quiet: [] as number[], busy: [] as number[] };
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const q = await measure();
          quiet.push(...q);
          roundP99.quiet.push(p99(q));
          const { runner } = world.worker(`busy-${round}`, { ca: receiver.ca, settings: { concurrency: 16, perEndpoint: 4, timeoutMs: 1500, claimMs: 5000 } });
          await runner.start();
          const sentBefore = receiver.received.length;
          await receiver.waitFor(sentBefore + 9);
          openSeen.length = 0;
          const b = await measure();
          busy.push(...b);
          roundP99.busy.push(p99(b));
          const typical = [...openSeen].sort((x, y) => x - y)[Math.floor(openSeen.length / 2)]!;
          assert.ok(typical >= 8, `deliveries to the 9 endpoints were waiting on the receiver while the searches ran (median ${typical} open)`);
          await world.drainAll();
        }
      } finally {
        agent.destroy();
        await app.close();
      }
      const rounds = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
      const figures =
        `p99 of ${ROUNDS * SEARCHES} searches without deliveries ${p99(quiet).toFixed(1)} ms (rounds ${rounds(roundP99.quiet)}), ` +
        `beside a hanging receiver ${p99(busy).toFixed(1)} ms (rounds ${rounds(roundP99.busy)}); ${receiver.received.length} attempts sent`;
      console.log(`[${engine.name}] ${figures}`);
      // Generous for a shared 2-core machine; a search waiting behind the deliveries would show as whole timeouts (1.5 s).
      assert.ok(p99(busy) <= 2 * p99(quiet) + 5, figures);
    });
  });
}
