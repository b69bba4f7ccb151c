/**
 * Typed client for the Company Risk Lookup Service. The types in schema.d.ts are generated
 * from the service's OpenAPI document (`npm run generate`); openapi-fetch does the calls.
 * Every answer is `{ data, error, response }`: `data` on 200, `error` (an ErrorBody) otherwise.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, paths } from './schema.d.ts';

type Schemas = components['schemas'];
export type SearchResponse = Schemas['SearchResponse'];
export type CompanyResult = Schemas['CompanyResult'];
/** A union discriminated by `type`: narrow on `report.type` to get that type's fields and `case`. */
export type Report = Schemas['Report'];
export type NearMatch = Schemas['NearMatch'];
export type Meta = Schemas['Meta'];
export type ErrorBody = Schemas['ErrorBody'];
export type ErrorReason = ErrorBody['reason'];
export type Country = Schemas['Country'];
export type SearchParams = NonNullable<paths['/api/v1/search.php']['get']['parameters']['query']>;
export type WatchEntry = Schemas['WatchEntry'];
export type WatchlistResponse = Schemas['WatchlistResponse'];
export type CompanyChangedEvent = Schemas['CompanyChangedEvent'];
export type EventsResponse = Schemas['EventsResponse'];

export interface RiskLookupOptions {
  /** The service's root, e.g. `https://risk.example.org` (no trailing path). */
  baseUrl: string;
  /** The 64-character key; sent in the `X-API-Key` header only. */
  apiKey?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: (input: Request) => Promise<Response>;
}

export type RiskLookupClient = Client<paths>;

/** A client whose every call carries the key in `X-API-Key` (never in the URL: that is refused, D7). */
export function createRiskLookupClient(options: RiskLookupOptions): RiskLookupClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.apiKey ? { 'X-API-Key': options.apiKey } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** Looks up one company: `GET /api/v1/search.php`. */
export function searchCompany(client: RiskLookupClient, query: SearchParams) {
  return client.GET('/api/v1/search.php', { params: { query } });
}

/** Watches a company (D31): `PUT /api/v1/watchlist/{country}/{tax_id}`. Idempotent; never tells whether it has records. */
export function watchCompany(client: RiskLookupClient, country: string, taxId: string) {
  return client.PUT('/api/v1/watchlist/{country}/{tax_id}', { params: { path: { country, tax_id: taxId } } });
}

/** Stops watching a company: `DELETE /api/v1/watchlist/{country}/{tax_id}` (204; 404 when it was not watched). */
export function unwatchCompany(client: RiskLookupClient, country: string, taxId: string) {
  return client.DELETE('/api/v1/watchlist/{country}/{tax_id}', { params: { path: { country, tax_id: taxId } } });
}

/** One page of the watchlist: `GET /api/v1/watchlist`; pass `next_cursor` back as `after`. */
export function listWatchlist(client: RiskLookupClient, page: { after?: string; limit?: number } = {}) {
  return client.GET('/api/v1/watchlist', { params: { query: page } });
}

/** Events after a cursor, oldest first: `GET /api/v1/events`; store `next_cursor` and send it as `after` next time. */
export function listEvents(client: RiskLookupClient, page: { after?: string; limit?: number } = {}) {
  return client.GET('/api/v1/events', { params: { query: page } });
}

/**
 * Reads every event after `after`, page by page, and returns them with the cursor to keep (the
 * last page's `next_cursor`). Throws the error body of a refused request.
 */
export async function readNewEvents(client: RiskLookupClient, after: string | null): Promise<{ events: CompanyChangedEvent[]; cursor: string | null }> {
  const events: CompanyChangedEvent[] = [];
  let cursor = after;
  for (;;) {
    const { data, error } = await listEvents(client, cursor === null ? { limit: 500 } : { after: cursor, limit: 500 });
    if (error) throw Object.assign(new Error(error.error), { body: error });
    events.push(...data.events);
    cursor = data.next_cursor;
    if (!data.has_more) return { events, cursor };
  }
}

export interface RateLimit {
  /** Requests allowed per quota day. */
  limit: number;
  /** Requests left today. */
  remaining: number;
  /** Seconds until the quota resets (midnight Turkey time). */
  resetSeconds: number;
}

/**
 * Reads the standard `RateLimit-Policy: "daily";q=100;w=86400` and `RateLimit: "daily";r=57;t=3600`
 * fields of a response (IETF httpapi draft); undefined when they are absent or malformed.
 */
export function readRateLimit(response: Response): RateLimit | undefined {
  const params = (field: string | null) =>
    new Map(
      (field ?? '')
        .split(',')[0]!
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=') as [string, string]),
    );
  const policy = params(response.headers.get('RateLimit-Policy'));
  const current = params(response.headers.get('RateLimit'));
  const [limit, remaining, reset] = [policy.get('q'), current.get('r'), current.get('t')].map(Number);
  if (![limit, remaining, reset].every((n) => Number.isInteger(n))) return undefined;
  return { limit: limit!, remaining: remaining!, resetSeconds: reset! };
}

/** Where an error's `docs` path points, as an absolute URL on the service called. */
export function errorDocsUrl(error: ErrorBody, response: Response): string {
  return new URL(error.docs, response.url).toString();
}
