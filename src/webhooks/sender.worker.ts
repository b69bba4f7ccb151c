/**
 * The thread of createThreadSender (attempt-sender.ts): signs and sends each attempt it is given
 * and answers with its result. Keeps its connections alive between attempts; the address rule is
 * checked at connection time here, with the system's resolver. Started with a database
 * (PostgreSQL), it also makes the delivery worker's claims and writes its outcomes on connections
 * of its own (delivery-store.ts), opened at the first of them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  coalesced,
  senderDepsOf,
  signAndSend,
  type FromSenderThread,
  type SenderThreadAnswer,
  type SenderThreadData,
  type ToSenderThread,
} from './attempt-sender.ts';
import type { DeliveryStore } from './delivery-store.ts';
import { systemResolver } from './safe-lookup.ts';
import type { SecretWarning } from './signing-secrets.ts';
import { KeyRing, SecretUnreadableError } from '../secrets/key-ring.ts';
import { yieldToServingThread } from '../lib/thread-priority.ts';

// Signing and sending give way to the serving thread on the same cores: a delivery can start a few
// milliseconds later, a search should not wait behind a burst of TLS and HMAC (issue 30).
yieldToServingThread();

const data = workerData as SenderThreadData;
const deps = senderDepsOf(data, { resolve: systemResolver, allowPrivate: data.allowPrivate });
/** The process's ring (D35), to open the sealed signing secrets here rather than in the serving thread. */
const ring = data.ring ? KeyRing.parse(data.ring, 'the serving process') : undefined;
const port = parentPort!;
const reply = (message: FromSenderThread) => port.postMessage(message);

// The answers of one turn go back together, after the turn's I/O (setImmediate).
const answer = coalesced<SenderThreadAnswer>((answers) => reply({ kind: 'answers', answers }), setImmediate);

/**
 * The thread's own connections. One: a claim and a write of outcomes take a few milliseconds each
 * and cover up to 16 deliveries, so one after the other they keep up with any pace; with the
 * serving process's background pool (BACKGROUND_POOL_SIZE) this makes the 3 connections beside the
 * requests' pool that a `serve` process has had since issue 30's third pass.
 */
export const THREAD_POOL_SIZE = 1;

let database: Promise<{ store: DeliveryStore; close: () => Promise<void> }> | null = null;
function openDatabase() {
  const settings = data.database;
  if (!settings) throw new Error('this sending thread has no database');
  database ??= (async () => {
    const [{ openEngine }, { databaseDeliveryStore, DELIVERY_THREAD_APPLICATION }] = await Promise.all([
      import('../db/connect.ts'),
      import('./delivery-store.ts'),
    ]);
    const url = new URL(settings.url);
    url.searchParams.set('application_name', DELIVERY_THREAD_APPLICATION);
    const engine = openEngine(url.toString(), {
      poolSize: THREAD_POOL_SIZE,
      ...(settings.statementTimeoutMs ? { statementTimeoutMs: settings.statementTimeoutMs } : {}),
      ...(settings.connectionWaitMs ? { connectionWaitMs: settings.connectionWaitMs } : {}),
      ...(settings.pooler ? { pooler: settings.pooler } : {}),
    });
    return { store: databaseDeliveryStore(engine.db, engine.seam), close: () => engine.close() };
  })();
  return database;
}

function stored(id: number, work: () => Promise<unknown>): void {
  void Promise.resolve()
    .then(work)
    .then(
      (value) => reply({ kind: 'stored', id, value }),
      (error: unknown) => reply({ kind: 'stored', id, error: (error as Error).message }),
    );
}

port.on('message', (message: ToSenderThread) => {
  switch (message.kind) {
    case 'send':
      for (const { id, ...attempt } of message.requests) {
        // A request that cannot be signed (a malformed secret) fails the attempt's run, as in the
        // calling thread; a sealed secret that does not open is named as such (the worker defers it).
        let warning: SecretWarning | undefined;
        void Promise.resolve()
          .then(() => signAndSend(attempt, { ...deps, ...(ring ? { ring } : {}), warn: (w) => (warning = w) }))
          .then(
            (result) => answer(warning ? { id, result, warning } : { id, result }),
            (error: unknown) =>
              answer(
                error instanceof SecretUnreadableError
                  ? { id, unreadable: { keyId: error.keyId, reason: error.message } }
                  : { id, error: (error as Error).message },
              ),
          );
      }
      return;
    case 'claim':
      return stored(message.id, async () => (await openDatabase()).store.claim(message.order));
    case 'write':
      return stored(message.id, async () => (await openDatabase()).store.write(message.outcomes));
    case 'close':
      void (async () => {
        deps.agent.destroy();
        if (database) await (await database).close().catch(() => {});
        port.close();
      })();
      return;
  }
});
