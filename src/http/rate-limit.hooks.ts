/**
 * D3 and D20 as hooks: requests without a known key are charged to the client address's
 * anonymous allowance, and every response carries the figures of the allowance that applied.
 */
import type { App } from './app-type.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import { nextQuotaResetSeconds, quotaDayOf } from '../lib/turkey-time.ts';
import { addressSubject, memberSubject, peekAllowance, rateLimitHeaders, takeUnit, type Allowance } from '../quota/allowance.ts';
import type { Db } from '../db/types.ts';

export interface RateLimitDeps {
  db: Db;
  clock: Clock;
  anonDailyLimit: number;
}

/**
 * Charges the anonymous allowance (D20) as the request arrives: what counts there is the request
 * itself, not an answer. Throws 429 when it is used up.
 */
export async function chargeAnonymous(deps: RateLimitDeps, request: FastifyRequest): Promise<void> {
  const meter = {
    subject: addressSubject(request.ip),
    limit: deps.anonDailyLimit,
    whatRanOut: `The daily allowance for requests without a valid API key from ${request.ip}`,
  };
  request.allowance = await takeUnit(deps.db, meter, deps.clock.now());
}

/** The allowance that applied, when known without a statement (charged, or read with the key this very day). */
function knownAllowance(request: FastifyRequest, now: number): Allowance | null {
  if (request.allowance) return request.allowance;
  const holder = request.keyHolder;
  if (holder && holder.usage.day === quotaDayOf(now)) return { limit: holder.dailyLimit, used: holder.usage.used, resetAt: nextQuotaResetSeconds(now) };
  return null;
}

function allowanceFor(deps: RateLimitDeps, request: FastifyRequest): Promise<Allowance> {
  const holder = request.keyHolder;
  return holder
    ? peekAllowance(deps.db, deps.clock, memberSubject(holder.memberId), holder.dailyLimit)
    : peekAllowance(deps.db, deps.clock, addressSubject(request.ip), deps.anonDailyLimit);
}

/** Whether a request's path is `prefix` or under it (the query string aside). */
function isUnder(url: string, prefix: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * @param keyedPaths routes that take a key: they charge the anonymous allowance themselves, only
 *   when the key is not known.
 * @param unmeteredPrefix the portal (D27): people sign in there, keys never do, so its pages and
 *   assets neither use up nor show D20's allowance of keyless API requests (an office behind one
 *   address would otherwise lose the portal, sign-in included, after a few hundred page views).
 *   Its sign-in has its own throttle; its searches are charged to the user's allowance (D28).
 */
export function registerRateLimitHooks(
  app: App,
  deps: RateLimitDeps,
  keyedPaths: readonly string[],
  unmeteredPrefix: string,
  /** Outside every allowance and without its headers (D36's health checks). */
  unmeteredPaths: readonly string[] = [],
) {
  const unmetered = (request: FastifyRequest) => isUnder(request.url, unmeteredPrefix) || unmeteredPaths.includes(request.routeOptions.url ?? '');
  // Callback hooks: a keyed request passes both without a statement, and then without a promise
  // or a microtask either (issue 28).
  app.addHook('onRequest', (request, _reply, done) => {
    if (unmetered(request) || keyedPaths.includes(request.routeOptions.url ?? '')) return done();
    chargeAnonymous(deps, request).then(() => done(), done);
  });
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    // A shed request (D26) is answered without touching the database, so without the figures.
    if (reply.hasHeader('x-ratelimit-limit') || request.shed || unmetered(request)) return done(null, payload);
    const now = deps.clock.now();
    const known = knownAllowance(request, now);
    if (known) {
      reply.headers(rateLimitHeaders(known, now));
      return done(null, payload);
    }
    allowanceFor(deps, request).then(
      (allowance) => {
        reply.headers(rateLimitHeaders(allowance, deps.clock.now()));
        done(null, payload);
      },
      (error: unknown) => {
        request.log.error({ err: error }, 'could not read the allowance for the rate-limit headers');
        done(null, payload);
      },
    );
  });
}
