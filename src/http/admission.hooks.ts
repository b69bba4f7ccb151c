/**
 * D26 in front of every route: the first hook of every request asks the admission gate for a
 * turn (http/admission-gate.ts) and answers 503 `overloaded` with `Retry-After` when shed, before
 * authentication, quota or any database work. The turn is given back when the response is done
 * or the client goes away, whichever comes first.
 *
 * A request with a body gives its turn back while the body arrives and asks for one again once
 * it has (issue 27, finding 5): a turn is for work, and a client that sends its body a byte at a
 * time does none. The body has a short deadline of its own (`bodyDeadlineMs`); past it the
 * answer is 408 `request_timeout` and the connection is closed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { digestApiKey, isWellFormedApiKey } from '../keys/api-key.ts';
import type { AdmissionGate, Ticket } from './admission-gate.ts';
import type { App } from './app-type.ts';
import type { KnownKeys } from './known-keys.ts';

/** Seconds a shed client is asked to wait: turns free up within milliseconds. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * The slowest a body may arrive after its first `bodyTimeoutMs`: 256 KiB/s (2 Mbit/s). A form
 * (16 KiB at most) gets the base timeout and a few milliseconds; the request timeout (10 s,
 * transport.ts) still bounds the largest upload.
 */
export const BODY_MIN_BYTES_PER_SECOND = 256 * 1024;

/** How long a body of `declaredBytes` may take to arrive (chunked bodies: as long as a form). */
export function bodyDeadlineMs(bodyTimeoutMs: number, declaredBytes: number): number {
  return bodyTimeoutMs + Math.ceil((Math.max(0, declaredBytes) * 1000) / BODY_MIN_BYTES_PER_SECOND);
}

/**
 * The lane of a request: its key's when a request of this process has found that key in the
 * database lately (http/known-keys.ts), else its address's. The key is digested at once and
 * never kept or logged. A well-formed key proves nothing (its checksum is public): a lane per
 * made-up key let one address hold every turn. Returns the digest too, for `rememberKey`.
 */
export function laneOf(request: Pick<FastifyRequest, 'headers' | 'ip'>, known: Pick<KnownKeys, 'laneOf'>): { lane: string; digest: string | null } {
  const header = request.headers['x-api-key'];
  // Trimmed as authentication trims it (keys/auth-rules.ts): a key it accepts has its lane.
  const key = typeof header === 'string' ? header.trim() : '';
  const digest = isWellFormedApiKey(key) ? digestApiKey(key) : null;
  return { lane: (digest !== null ? known.laneOf(digest) : null) ?? `addr:${request.ip}`, digest };
}

/** Whether the request sends a body (what the HTTP parser will wait for). */
function hasBody(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

interface Admission {
  lane: string;
  digest: string | null;
  ticket: Ticket;
  /** The body's deadline, while the body arrives (no turn held then). */
  bodyTimer: NodeJS.Timeout | null;
}

const ADMISSION = Symbol('admission');
type AdmittedRequest = FastifyRequest & { [ADMISSION]?: Admission };

export interface AdmissionOptions {
  knownKeys: KnownKeys;
  /** The base of each body's deadline (`bodyDeadlineMs`). */
  bodyTimeoutMs: number;
  /** Paths outside admission (D36's health checks). */
  exempt: ReadonlySet<string>;
  /** Told of every request shed (metrics). */
  onShed?: () => void;
}

function overloaded(request: FastifyRequest): AppError {
  request.shed = true;
  return new AppError('overloaded', `the server is busy: too many requests at once; retry in ${OVERLOADED_RETRY_AFTER_SECONDS} s`, {
    'retry-after': String(OVERLOADED_RETRY_AFTER_SECONDS),
  });
}

/** A turn for the request (waiting in its lane if need be); false when shed. */
function takeTurn(reply: FastifyReply, gate: AdmissionGate, admission: Admission): boolean | Promise<boolean> {
  const ticket = gate.enter(admission.lane);
  admission.ticket = ticket;
  reply.raw.once('close', ticket.leave);
  return ticket.admitted;
}

/**
 * Calls `done` once the turn is decided: at once when the gate answers at once (no promise, no
 * microtask: issue 28), else when the wait ends.
 */
function onTurn(request: FastifyRequest, turn: boolean | Promise<boolean>, onShed: (() => void) | undefined, done: (error?: Error) => void): void {
  const decide = (admitted: boolean) => {
    if (admitted) return done();
    onShed?.();
    done(overloaded(request));
  };
  if (typeof turn === 'boolean') decide(turn);
  else turn.then(decide, done);
}

/** While the body arrives: no turn; past its deadline, the parser reading it fails with 408. */
function awaitBody(request: AdmittedRequest, reply: FastifyReply, admission: Admission, bodyTimeoutMs: number) {
  admission.ticket.leave();
  const raw = request.raw;
  // The error below must never be an uncaught one, whoever reads the body (or none yet).
  raw.on('error', () => {});
  const declared = Number(request.headers['content-length'] ?? 0);
  const timer = setTimeout(
    () => {
      if (raw.complete) return;
      request.log.info({ ms: bodyDeadlineMs(bodyTimeoutMs, declared) }, 'request body not received in time');
      raw.emit('error', new AppError('request_timeout', 'request body not received in time: send the whole request at once', { connection: 'close' }));
    },
    bodyDeadlineMs(bodyTimeoutMs, Number.isFinite(declared) ? declared : 0),
  );
  admission.bodyTimer = timer;
  const stop = () => clearTimeout(timer);
  raw.once('end', stop);
  reply.raw.once('close', stop);
}

/**
 * Gives the request's turn back before its answer is sent, for a wait that does no work: the
 * search routes' wait for their audit record's commit (search.routes.ts), which the audit writer
 * shares among every record of its batch. Holding the turn through it made a key's burst of 429s
 * wait for one commit after another and shed its queue (test/overload.test.ts). Safe to call more
 * than once; the close of the response leaves it too.
 */
export function leaveTurn(request: FastifyRequest): void {
  (request as AdmittedRequest)[ADMISSION]?.ticket.leave();
}

/**
 * The SHA-256 digest of the request's key as admission computed it (`laneOf`): a string when the
 * header held a well-formed key, null when it held none or a malformed one, undefined when the
 * request went past admission (an exempt path). Authentication uses it rather than digesting the
 * key again; it is never logged or kept beyond the request.
 */
export function admittedKeyDigest(request: FastifyRequest): string | null | undefined {
  return (request as AdmittedRequest)[ADMISSION]?.digest;
}

export function registerAdmission(app: App, gate: AdmissionGate, options: AdmissionOptions) {
  // Callback hooks, not async ones: a request passes most of them without waiting, and an async
  // hook costs a promise and a microtask each (issue 28).
  app.addHook('onRequest', (request: AdmittedRequest, reply, done) => {
    if (options.exempt.has(request.routeOptions.url ?? '')) return done();
    const { lane, digest } = laneOf(request, options.knownKeys);
    const admission: Admission = { lane, digest, ticket: { admitted: true, leave: () => {} }, bodyTimer: null };
    request[ADMISSION] = admission;
    onTurn(request, takeTurn(reply, gate, admission), options.onShed, done);
  });

  app.addHook('preParsing', (request: AdmittedRequest, reply, payload, done) => {
    const admission = request[ADMISSION];
    if (admission && hasBody(request)) awaitBody(request, reply, admission, options.bodyTimeoutMs);
    done(null, payload);
  });

  // The first preHandler of every route: the body (urlencoded, or multipart read by its
  // preValidation hook) is in; a turn again before any route's own work.
  app.addHook('preHandler', (request: AdmittedRequest, reply, done) => {
    const admission = request[ADMISSION];
    if (!admission || admission.bodyTimer === null) return done();
    clearTimeout(admission.bodyTimer);
    admission.bodyTimer = null;
    onTurn(request, takeTurn(reply, gate, admission), options.onShed, done);
  });

  // A key that authentication found has its own lane from its next request on.
  app.addHook('onResponse', (request: AdmittedRequest, _reply, done) => {
    const digest = request[ADMISSION]?.digest;
    if (digest && request.keyHolder) options.knownKeys.remember(digest, request.keyHolder.keyId);
    done();
  });
}
