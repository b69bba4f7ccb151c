/**
 * The thread of createThreadSender (attempt-sender.ts): signs and sends each attempt it is given
 * and answers with its result. Keeps its connections alive between attempts; the address rule is
 * checked at connection time here, with the system's resolver.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { coalesced, senderDepsOf, signAndSend, type SenderThreadAnswer, type SenderThreadData, type SenderThreadRequest } from './attempt-sender.ts';
import { systemResolver } from './safe-lookup.ts';
import { yieldToServingThread } from '../lib/thread-priority.ts';

// Signing and sending give way to the serving thread on the same cores: a delivery can start a few
// milliseconds later, a search should not wait behind a burst of TLS and HMAC (issue 30).
yieldToServingThread();

const data = workerData as SenderThreadData;
const deps = senderDepsOf(data, { resolve: systemResolver, allowPrivate: data.allowPrivate });

// The answers of one turn go back together, after the turn's I/O (setImmediate).
const answer = coalesced<SenderThreadAnswer>((answers) => parentPort!.postMessage(answers), setImmediate);

parentPort!.on('message', (requests: SenderThreadRequest[]) => {
  for (const { id, ...attempt } of requests) {
    // A request that cannot be signed (a malformed secret) fails the attempt's run, as in the calling thread.
    void Promise.resolve()
      .then(() => signAndSend(attempt, deps))
      .then(
        (result) => answer({ id, result }),
        (error: unknown) => answer({ id, error: (error as Error).message }),
      );
  }
});
