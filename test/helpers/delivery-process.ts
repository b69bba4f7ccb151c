/**
 * A delivery process for the kill -9 test (test/webhook-kill.test.ts): the runner with the
 * delivery queue on the database of DATABASE_URL and the ring of RISKLOOKUP_SECRET_KEYS (the
 * tests' ring, as every child of the tests gets), short lease and claim, until SIGTERM (drained)
 * or SIGKILL (nothing given back). Prints `ready` once it has ticked.
 */
import { readFileSync } from 'node:fs';
import { openEngine } from '../../src/db/connect.ts';
import { createJobRunner } from '../../src/jobs/job-runner.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createDeliveryQueue } from '../../src/webhooks/delivery-worker.ts';
import { systemResolver } from '../../src/webhooks/safe-lookup.ts';
import { requireKeyRing } from '../../src/secrets/key-ring-source.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const engine = openEngine(env('DATABASE_URL'), { yieldWhenBusy: true, connectionWaitMs: 5000 });
const holder = env('HOLDER');
const log = {
  debug: () => {},
  info: (details: object, message: string) => process.stderr.write(`${holder} info ${message} ${JSON.stringify(details)}\n`),
  warn: (details: object, message: string) => process.stderr.write(`${holder} warn ${message} ${JSON.stringify(details)}\n`),
};
const runner = createJobRunner({ db: engine.db, engineKind: engine.seam.kind, clock: systemClock, log, holder, settings: { pollMs: 100, leaseMs: 1500 } });
const queue = createDeliveryQueue({
  db: engine.db,
  seam: engine.seam,
  clock: systemClock,
  log,
  keyRing: requireKeyRing('the delivery process'),
  addresses: { resolve: systemResolver, allowPrivate: true },
  holder,
  settings: { timeoutMs: 3000, claimMs: 4000 },
  trustedCa: readFileSync(env('RECEIVER_CA')),
});
runner.addQueue(queue);
await runner.start();
// The runner's timer does not hold the process open (a server's listening socket does); this does.
const alive = setInterval(() => {}, 60_000);
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  clearInterval(alive);
  void runner
    .drain()
    .then(() => queue.close())
    .then(() => engine.close())
    .then(() => process.exit(0));
});
