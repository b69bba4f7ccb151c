/**
 * D3 and D20 as hooks: requests without a known key are charged to the client address's
 * anonymous allowance, and every response carries the figures of the allowance that applied.
 */
import type { App } from './app-type.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import {
  addressSubject,
  chargeAllowance,
  keySubject,
  peekAllowance,
  rateLimitHeaders,
} from '../quota/allowance.ts';

export interface RateLimitDeps {
  db: Kysely<Database>;
  clock: Clock;
  anonDailyLimit: number;
}

/** Charges the anonymous allowance (D20); throws 429 when it is used up. */
export async function chargeAnonymous(deps: RateLimitDeps, request: FastifyRequest): Promise<void> {
  const charge = await chargeAllowance(
    deps.db,
    deps.clock,
    addressSubject(request.ip),
    deps.anonDailyLimit,
    `The daily allowance for requests without a valid API key from ${request.ip}`,
  );
  request.allowance = charge.allowance;
}

async function allowanceFor(deps: RateLimitDeps, request: FastifyRequest) {
  if (request.allowance) return request.allowance;
  const holder = request.keyHolder;
  return holder
    ? peekAllowance(deps.db, deps.clock, keySubject(holder.keyId), holder.dailyLimit)
    : peekAllowance(deps.db, deps.clock, addressSubject(request.ip), deps.anonDailyLimit);
}

export function registerRateLimitHooks(app: App, deps: RateLimitDeps, keyedPaths: readonly string[]) {
  // Routes that take a key charge the anonymous allowance themselves, only when the key is not known.
  app.addHook('onRequest', async (request) => {
    if (!keyedPaths.includes(request.routeOptions.url ?? '')) await chargeAnonymous(deps, request);
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.hasHeader('x-ratelimit-limit')) return;
    try {
      reply.headers(rateLimitHeaders(await allowanceFor(deps, request), deps.clock.now()));
    } catch (error) {
      request.log.error({ err: error }, 'could not read the allowance for the rate-limit headers');
    }
  });
}
