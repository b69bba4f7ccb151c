/**
 * D26 in front of every route: the first hook of every request asks the admission gate for a
 * turn (http/admission-gate.ts) and answers 503 `overloaded` with `Retry-After` when shed, before
 * authentication, quota or any database work. The turn is given back when the response is done
 * or the client goes away, whichever comes first.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { isWellFormedApiKey } from '../keys/api-key.ts';
import type { AdmissionGate } from './admission-gate.ts';
import type { App } from './app-type.ts';

/** Seconds a shed client is asked to wait: turns free up within milliseconds. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * The lane of a request: its key as sent (never logged) when it could be a key we issued (D16's
 * shape and checksum, no database), else its address. Text that is no key at all shares its
 * address's lane: a client that sent a new random header with each request got a lane of its
 * own for each, past the per-key bound. A forger who computes the public checksum still gets a
 * lane per made-up key (each such request is then refused, and paid for by the address's
 * anonymous allowance, D20); a mistyped key now waits in its address's lane.
 */
export function laneOf(request: Pick<FastifyRequest, 'headers' | 'ip'>): string {
  const header = request.headers['x-api-key'];
  // Trimmed as authentication trims it (keys/auth-rules.ts): a key it accepts has its lane.
  const key = typeof header === 'string' ? header.trim() : '';
  return isWellFormedApiKey(key) ? `key:${key}` : `addr:${request.ip}`;
}

export function registerAdmission(app: App, gate: AdmissionGate) {
  app.addHook('onRequest', async (request, reply) => {
    const ticket = gate.enter(laneOf(request));
    reply.raw.once('close', ticket.leave);
    if (await ticket.admitted) return;
    request.shed = true;
    throw new AppError('overloaded', `the server is busy: too many requests at once; retry in ${OVERLOADED_RETRY_AFTER_SECONDS} s`, {
      'retry-after': String(OVERLOADED_RETRY_AFTER_SECONDS),
    });
  });
}
