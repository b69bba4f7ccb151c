/**
 * Who makes a delivery's attempt: signs it (signature.ts) and sends it (webhook-sender.ts, the
 * address checked again at connection time). Two ways, one contract:
 *
 * - in the calling thread (tests, whose resolvers and clocks are their own);
 * - in a worker thread of its own (`serve`): the TLS connection, the request and its answer, and
 *   the HMAC are then not done on the event loop that serves searches. Measured (issue 30, docs/
 *   benchmarks.md "Searches while delivering, second pass"): sending and signing were over half of
 *   what a delivery cost the serving thread. On PostgreSQL the thread also makes the claims and
 *   writes the outcomes (delivery-store.ts); on SQLite they stay in the serving thread.
 *
 * The signing secrets cross sealed and are opened where they sign (signing-secrets.ts): the
 * sending thread has the process's key ring (D35: every process uses the same ring; the thread is
 * in the same process), handed to it at its start, and keeps nothing after the attempt.
 */
import https from 'node:https';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../lib/worker-thread.ts';
import type { AttemptResult } from './delivery-rules.ts';
import { guardedLookup, type AddressRule } from './safe-lookup.ts';
import { signatureHeader } from './signature.ts';
import { openSigningSecrets, type SealedSigningSecrets, type SecretWarning } from './signing-secrets.ts';
import { SecretUnreadableError, type KeyRing } from '../secrets/key-ring.ts';
import type { Pooler } from '../db/pooler.ts';
import { sendWebhook, type SenderDeps } from './webhook-sender.ts';
import type { ClaimedDelivery, OutcomesWritten, OutcomeWrite } from './deliveries.repository.ts';
import type { ClaimOrder, DeliveryStore } from './delivery-store.ts';

/** One attempt, before signing. */
export interface AttemptRequest {
  readonly url: string;
  readonly webhookId: string;
  readonly timestampSeconds: number;
  /** The signing secrets that are valid now: opened, or sealed as the endpoint's row holds them (opened by the sender with its ring). */
  readonly secrets: readonly string[] | SealedSigningSecrets;
  readonly body: string;
}

export interface AttemptSender {
  /**
   * Every outcome is an AttemptResult (webhook-sender.ts); rejects only when the request cannot be
   * signed: SecretUnreadableError when its sealed current secret does not open with the ring.
   */
  send(request: AttemptRequest): Promise<AttemptResult>;
  /** Closes idle connections (and the thread); call once nothing is in flight. */
  close(): void;
}

export interface SenderOptions {
  /** Connections kept at most (the worker's concurrency). */
  readonly maxSockets: number;
  readonly timeoutMs: number;
  readonly trustedCa?: string | Buffer;
}

/** What opens sealed secrets, and hears of a previous secret that did not open. */
export interface SecretOpening {
  readonly ring?: Pick<KeyRing, 'open'>;
  readonly warn?: (warning: SecretWarning) => void;
}

/** The request's secrets, opened when sealed. SecretUnreadableError for a current secret that does not open. */
function secretsOf(request: AttemptRequest, opening: SecretOpening): readonly string[] {
  const given = request.secrets;
  if (Array.isArray(given)) return given as readonly string[];
  if (!opening.ring) throw new Error('a sealed signing secret reached a sender without a key ring');
  const { secrets, warning } = openSigningSecrets(given as SealedSigningSecrets, opening.ring);
  if (warning) opening.warn?.(warning);
  return secrets;
}

/** Signs and sends: what both ways run. */
export function signAndSend(request: AttemptRequest, deps: SenderDeps & SecretOpening): Promise<AttemptResult> {
  const signature = signatureHeader(secretsOf(request, deps), request.webhookId, request.timestampSeconds, request.body);
  return sendWebhook({ url: request.url, webhookId: request.webhookId, timestampSeconds: request.timestampSeconds, signature, body: request.body }, deps);
}

export function senderDepsOf(options: SenderOptions, addresses: AddressRule): SenderDeps & { agent: https.Agent } {
  // The bounds are the claim's (per endpoint, in all); the agent adds none of its own per host.
  const agent = new https.Agent({ keepAlive: true, maxSockets: options.maxSockets, ...(options.trustedCa ? { ca: options.trustedCa } : {}) });
  return { agent, lookup: guardedLookup(addresses), timeoutMs: options.timeoutMs };
}

export function createInThreadSender(options: SenderOptions, addresses: AddressRule, opening: SecretOpening = {}): AttemptSender {
  const deps = { ...senderDepsOf(options, addresses), ...opening };
  return { send: async (request) => signAndSend(request, deps), close: () => deps.agent.destroy() };
}

/** PostgreSQL for the thread's own connections (delivery-store.ts): the claims and the outcomes. */
export interface ThreadDatabase {
  readonly url: string;
  readonly statementTimeoutMs?: number;
  readonly connectionWaitMs?: number;
  /** The server's RISKLOOKUP_DB_POOLER (db/plan-cache-mode.ts). */
  readonly pooler?: Pooler;
}

/** What the thread is started with (the address rule's resolver is the system's there). */
export interface SenderThreadData extends SenderOptions {
  readonly allowPrivate: boolean;
  readonly database?: ThreadDatabase;
  /** The process's key ring as text (KeyRing.toText), to open the sealed secrets in the thread. Never logged. */
  readonly ring?: string;
}

/** A heap of its own, small: the thread holds the bodies in flight only. */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

function startThread(workerData: SenderThreadData): Worker {
  return startWorkerThread(import.meta.url, 'sender.worker', { workerData, resourceLimits: THREAD_LIMITS });
}

/**
 * The messages to the thread, and its answers. The attempts started in one turn of the event loop
 * (a claim's burst) cross in one message, and the answers the thread has in one turn come back in
 * one: a message costs ~40 µs to post on the serving thread and ~80 µs in the sending one,
 * whatever it holds (issue 30, sixth pass: one message per attempt and per answer was a tenth of a
 * delivery's CPU). A claim and a write of outcomes are a message each (a few a second).
 */
export interface SenderThreadRequest extends AttemptRequest {
  readonly id: number;
}
export type SenderThreadAnswer =
  | { readonly id: number; readonly result: AttemptResult; readonly warning?: SecretWarning }
  | { readonly id: number; readonly error: string }
  /** The current secret did not open (SecretUnreadableError): not sent. */
  | { readonly id: number; readonly unreadable: { readonly keyId: string | null; readonly reason: string } };

export type ToSenderThread =
  | { readonly kind: 'send'; readonly requests: SenderThreadRequest[] }
  | { readonly kind: 'claim'; readonly id: number; readonly order: ClaimOrder }
  | { readonly kind: 'write'; readonly id: number; readonly outcomes: readonly OutcomeWrite[] }
  /** Close the connections and end the thread. */
  | { readonly kind: 'close' };

export type FromSenderThread =
  | { readonly kind: 'answers'; readonly answers: SenderThreadAnswer[] }
  | { readonly kind: 'stored'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'stored'; readonly id: number; readonly error: string };

/** How long a closing thread has to end its connections before it is stopped. */
const CLOSE_GRACE_MS = 2000;

/** Collects items and hands them on together once the current turn's work is done: `when` schedules the hand-over. */
export function coalesced<T>(post: (items: T[]) => void, when: (flush: () => void) => void): (item: T) => void {
  let items: T[] = [];
  return (item) => {
    items.push(item);
    if (items.length > 1) return;
    when(() => {
      const batch = items;
      items = [];
      post(batch);
    });
  };
}

/**
 * Attempts made in a worker thread (started at the first use, started again after it stopped).
 * If the thread stops with attempts in flight, each of them ends as "no answer" (in words): the
 * delivery is retried on the schedule (at least once; it may have been sent). With a `database`,
 * the thread also makes the claims and writes the outcomes on connections of its own (`store`,
 * delivery-store.ts); a claim or a write in flight when it stops fails, and what it claimed or
 * attempted is taken again when its claim expires.
 */
export function createThreadSender(
  options: SenderOptions & { allowPrivate: boolean; database?: ThreadDatabase; ring?: Pick<KeyRing, 'toText'>; warn?: (warning: SecretWarning) => void },
): AttemptSender & { store: DeliveryStore | null } {
  let thread: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (result: AttemptResult) => void; reject: (error: Error) => void }>();
  const storing = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const idle = () => waiting.size === 0 && storing.size === 0;
  const stopped = (why: string) => {
    thread = null;
    for (const { resolve } of waiting.values()) resolve({ kind: 'no_answer', error: `not sent or not answered: the sending thread stopped (${why})` });
    waiting.clear();
    for (const { reject } of storing.values()) reject(new Error(`the delivery thread stopped (${why})`));
    storing.clear();
  };
  const ensureThread = (): Worker => {
    if (thread) return thread;
    const data: SenderThreadData = {
      maxSockets: options.maxSockets,
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      ...(options.trustedCa ? { trustedCa: options.trustedCa } : {}),
      ...(options.database ? { database: options.database } : {}),
      ...(options.ring ? { ring: options.ring.toText() } : {}),
    };
    const started = startThread(data);
    started.on('message', (message: FromSenderThread) => {
      if (message.kind === 'answers') {
        for (const answer of message.answers) {
          const settle = waiting.get(answer.id);
          waiting.delete(answer.id);
          if ('result' in answer) {
            if (answer.warning) options.warn?.(answer.warning);
            settle?.resolve(answer.result);
          } else if ('unreadable' in answer) settle?.reject(new SecretUnreadableError(answer.unreadable.keyId, answer.unreadable.reason));
          else settle?.reject(new Error(answer.error));
        }
      } else {
        const settle = storing.get(message.id);
        storing.delete(message.id);
        if ('error' in message) settle?.reject(new Error(message.error));
        else settle?.resolve(message.value);
      }
      if (idle()) started.unref();
    });
    started.on('error', (error) => {
      if (thread === started) stopped(error.message);
    });
    started.on('exit', (code) => {
      if (thread === started) stopped(`exit code ${code}`);
    });
    thread = started;
    post = coalesced<SenderThreadRequest>((requests) => {
      // A thread that stopped meanwhile has already ended these attempts as "no answer".
      if (thread === started) started.postMessage({ kind: 'send', requests } satisfies ToSenderThread);
    }, queueMicrotask);
    return started;
  };
  let post: (request: SenderThreadRequest) => void = () => {};
  /** Held while anything is in flight, so that the process waits for it. */
  const hold = (worker: Worker) => {
    if (idle()) worker.ref();
  };
  const store = <T>(message: (id: number) => ToSenderThread): Promise<T> => {
    const worker = ensureThread();
    const id = ++nextId;
    hold(worker);
    return new Promise<T>((resolve, reject) => {
      storing.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage(message(id));
    });
  };
  return {
    send(request) {
      const worker = ensureThread();
      const id = ++nextId;
      hold(worker);
      return new Promise<AttemptResult>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        post({ id, ...request });
      });
    },
    store: options.database
      ? {
          claim: (order) => store<ClaimedDelivery[]>((id) => ({ kind: 'claim', id, order })),
          write: (outcomes) => store<OutcomesWritten>((id) => ({ kind: 'write', id, outcomes })),
        }
      : null,
    close() {
      const worker = thread;
      if (!worker) return;
      stopped('the sender was closed');
      // Its connections closed first (a database's sessions end cleanly), then the thread.
      worker.postMessage({ kind: 'close' } satisfies ToSenderThread);
      setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
}
