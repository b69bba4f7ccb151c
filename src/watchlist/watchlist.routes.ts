/**
 * The monitoring API (D31): `PUT`/`DELETE /api/v1/watchlist/{country}/{tax_id}`,
 * `GET /api/v1/watchlist` and the event feed `GET /api/v1/events`. Key auth in D17's order
 * (the search's own steps), D2's body, D3's headers. Neither counts against the search quota:
 * each has its own daily allowance per member, charged when the key has passed, so the headers
 * show that allowance on every answer of these routes.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import type { ParsedQuery } from '../http/query-string.ts';
import { chargeAnonymous } from '../http/rate-limit.hooks.ts';
import { errorResponses, okResponse } from '../http/schemas.ts';
import { RESPONSE_HEADERS } from '../http/response-headers.ts';
import { checkKeyHolder } from '../keys/auth-rules.ts';
import { identifyKeyHolder } from '../keys/auth.service.ts';
import { admittedKeyDigest } from '../http/admission.hooks.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { peekAllowance, takeUnit, type Meter } from '../quota/allowance.ts';
import { rejectSecretsInUrl } from '../search/search-params.ts';
import { EVENTS_PAGE_MAX, type EventFeed } from '../events/event-feed.service.ts';
import { WATCHLIST_PAGE_MAX, type Watchlist } from './watchlist.service.ts';
import type { Actor } from '../actors/actor.ts';
import { WATCH_SCHEMAS } from './watchlist-schemas.ts';
import type { Db } from '../db/types.ts';

export const WATCH_PATH = '/api/v1/watchlist/:country/:tax_id';
export const WATCHLIST_PATH = '/api/v1/watchlist';
export const EVENTS_PATH = '/api/v1/events';
/** Routes that take a key (the rate-limit hooks charge the anonymous allowance only when it is unknown). */
export const MONITORING_PATHS = [WATCH_PATH, WATCHLIST_PATH, EVENTS_PATH] as const;
export const MONITORING_METHODS: Record<string, readonly string[]> = {
  [WATCH_PATH]: ['PUT', 'DELETE'],
  [WATCHLIST_PATH]: ['GET'],
  [EVENTS_PATH]: ['GET'],
};

export interface MonitoringRouteDeps {
  db: Db;
  clock: Clock;
  /** The routes' own daily allowances and the anonymous allowance (D20). */
  limits: { watchlistDailyLimit: number; eventsDailyLimit: number; anonDailyLimit: number };
  /** The use cases (services.ts). */
  watchlist: Pick<Watchlist, 'add' | 'remove' | 'list'>;
  events: Pick<EventFeed, 'page'>;
}

type Allowance = 'watchlist' | 'events';

function meterOf(deps: MonitoringRouteDeps, memberId: number, which: Allowance): Meter {
  return which === 'watchlist'
    ? { subject: `watchlist:member:${memberId}`, limit: deps.limits.watchlistDailyLimit, whatRanOut: "Your member's daily allowance of watchlist calls" }
    : { subject: `events:member:${memberId}`, limit: deps.limits.eventsDailyLimit, whatRanOut: "Your member's daily allowance of event feed requests" };
}

/** D17's steps as the search takes them; then one unit of the route's own allowance. */
async function authenticate(deps: MonitoringRouteDeps, request: FastifyRequest, which: Allowance): Promise<number> {
  try {
    rejectSecretsInUrl(request.query as ParsedQuery);
    const header = request.headers['x-api-key'] as string | undefined;
    request.keyHolder = await identifyKeyHolder(deps.db, header, quotaDayOf(deps.clock.now()), admittedKeyDigest(request));
  } catch (error) {
    if (error instanceof AppError) await chargeAnonymous({ ...deps, anonDailyLimit: deps.limits.anonDailyLimit }, request);
    throw error;
  }
  const memberId = Number(request.keyHolder.memberId);
  const meter = meterOf(deps, memberId, which);
  try {
    checkKeyHolder(request.keyHolder);
  } catch (error) {
    // The allowance that applies to this request is the route's, not the search quota (D3).
    request.allowance = await peekAllowance(deps.db, deps.clock, meter.subject, meter.limit);
    throw error;
  }
  request.allowance = await takeUnit(deps.db, meter, deps.clock.now());
  return memberId;
}

const WatchParams = Type.Object({
  country: Type.String({ description: '2-letter code of a supported country (GET /api/v1/countries)', maxLength: 20 }),
  tax_id: Type.String({ description: "The company's tax ID; checked as a tax-ID search checks it (D9: format and check digits)", maxLength: 60 }),
});

const PageQuery = (max: number) =>
  Type.Object({
    after: Type.Optional(Type.String({ description: '`next_cursor` of the previous answer', maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max, description: `At most ${max}; 100 when absent` })),
  });

const API_KEY = [{ apiKey: [] }];

export function registerMonitoringRoutes(app: App, deps: MonitoringRouteDeps): void {
  for (const schema of WATCH_SCHEMAS) app.addSchema(schema);
  /** The key that passed authenticate(), as the use cases' actor. */
  const actorOf = (request: FastifyRequest): Actor => ({ kind: 'api_key', memberId: Number(request.keyHolder!.memberId) });

  app.put(WATCH_PATH, {
    schema: {
      operationId: 'watchCompany',
      summary: 'Watch a company',
      description:
        "Adds the company to the member's watchlist (D31), whether or not it has records: the answer never tells. " +
        'Stores what a search answers now as the baseline and sends nothing; later changes arrive as events. ' +
        'Idempotent. Does not count against the search quota.',
      tags: ['watchlist'],
      security: API_KEY,
      params: WatchParams,
      response: { 200: okResponse('WatchResponse', 'The company is on the watchlist'), ...errorResponses([400, 401, 403, 409, 429, 500, 503]) },
    },
    onRequest: async (request) => {
      await authenticate(deps, request, 'watchlist');
    },
    handler: async (request) => {
      const { added, entry } = await deps.watchlist.add(actorOf(request), { country: request.params.country, taxId: request.params.tax_id });
      return { success: true as const, added, watch: entry };
    },
  });

  app.delete(WATCH_PATH, {
    schema: {
      operationId: 'unwatchCompany',
      summary: 'Stop watching a company',
      description: 'Removes the company from the watchlist; events already written stay in the feed.',
      tags: ['watchlist'],
      security: API_KEY,
      params: WatchParams,
      response: {
        204: { description: 'Removed from the watchlist', headers: RESPONSE_HEADERS },
        ...errorResponses([400, 401, 403, 404, 429, 500, 503]),
      },
    },
    onRequest: async (request) => {
      await authenticate(deps, request, 'watchlist');
    },
    handler: async (request, reply) => {
      const { removed, target } = await deps.watchlist.remove(actorOf(request), { country: request.params.country, taxId: request.params.tax_id });
      if (!removed) {
        throw new AppError('not_found', `${target.country} ${target.taxIdNorm} is not on your watchlist`);
      }
      return reply.code(204).send();
    },
  });

  app.get(WATCHLIST_PATH, {
    schema: {
      operationId: 'listWatchlist',
      summary: 'The watchlist, a page at a time',
      description: 'Companies the member watches, by country and tax ID, with the count and the cap. No risk data.',
      tags: ['watchlist'],
      security: API_KEY,
      querystring: PageQuery(WATCHLIST_PAGE_MAX),
      response: { 200: okResponse('WatchlistResponse', 'One page of the watchlist'), ...errorResponses([400, 401, 403, 429, 500, 503]) },
    },
    onRequest: async (request) => {
      await authenticate(deps, request, 'watchlist');
    },
    handler: async (request) => {
      const page = await deps.watchlist.list(actorOf(request), { after: request.query.after ?? null, limit: request.query.limit ?? 100 });
      return { success: true as const, watch_count: page.watchCount, cap: page.cap, watches: page.entries, next_cursor: page.nextCursor };
    },
  });

  app.get(EVENTS_PATH, {
    schema: {
      operationId: 'listEvents',
      summary: 'Changes to watched companies, oldest first',
      description:
        'The `company.changed` events of the member after `after` (D31), oldest first, kept 30 days. Store `next_cursor` and send it ' +
        'as `after` next time; the cursor is stable. Its own daily allowance, apart from the search quota.',
      tags: ['watchlist'],
      security: API_KEY,
      querystring: PageQuery(EVENTS_PAGE_MAX),
      response: { 200: okResponse('EventsResponse', 'Events after the cursor'), ...errorResponses([400, 401, 403, 429, 500, 503]) },
    },
    onRequest: async (request) => {
      await authenticate(deps, request, 'events');
    },
    handler: async (request) => {
      const page = await deps.events.page(actorOf(request), { after: request.query.after ?? null, limit: request.query.limit ?? 100 });
      return { success: true as const, events: page.events, next_cursor: page.nextCursor, has_more: page.hasMore };
    },
  });
}
