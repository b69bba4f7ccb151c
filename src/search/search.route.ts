/**
 * GET /api/v1/search(.php) (spec 4.1). The pipeline, in order: key in URL (D7) → key (D17) →
 * parameters (D7 then the schema) → plan (D8/D9) → quota (D18) → search → audit (D21).
 */
import type { App } from '../http/app-type.ts';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Database } from '../db/schema.ts';
import type { DialectSeam } from '../db/dialect-seam.ts';
import { AppError } from '../lib/errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { ParsedQuery } from '../http/query-string.ts';
import { chargeAnonymous } from '../http/rate-limit-hooks.ts';
import { errorResponses, okResponse, SearchQuerySchema } from '../http/schemas.ts';
import { identifyKeyHolder } from '../keys/auth.service.ts';
import { checkKeyHolder } from '../keys/auth-rules.ts';
import { chargeAllowance, keySubject, remainingOf } from '../quota/allowance.ts';
import { recordSearch } from '../audit/audit.service.ts';
import type { AuditWriter } from '../audit/audit-writer.ts';
import { normaliseSearchQuery, rejectSecretsInUrl } from './search-params.ts';
import { SearchCache } from './search-cache.ts';
import { NameSample } from './name-sample.ts';
import { planSearch, runSearch, type SearchInput, type SearchOutcome } from './search.service.ts';

export interface SearchRouteDeps {
  db: Kysely<Database>;
  audit: AuditWriter;
  seam: DialectSeam;
  clock: Clock;
  config: Config;
  countries: CountryCatalogue;
}

async function authenticate(deps: SearchRouteDeps, request: FastifyRequest) {
  try {
    rejectSecretsInUrl(request.query as unknown as ParsedQuery);
    request.keyHolder = await identifyKeyHolder(deps.db, request.headers['x-api-key'] as string | undefined);
  } catch (error) {
    // No known key: the request is paid for by the address's anonymous allowance (D20),
    // which caps key guessing from one address.
    if (error instanceof AppError) await chargeAnonymous({ ...deps, anonDailyLimit: deps.config.anonDailyLimit }, request);
    throw error;
  }
  // The key's allowance is read for the headers only if the request ends before it is charged
  // (rate-limit-hooks.ts): an answered search reads it once, in the charge itself.
  checkKeyHolder(request.keyHolder);
}

export function registerSearchRoutes(app: App, deps: SearchRouteDeps, paths: readonly string[]) {
  // PostgreSQL's trigram index keeps no positions and intersects trigrams itself; SQLite's FTS5
  // phrases read every trigram's positions, so it looks up one rare trigram per word.
  const names = deps.seam.kind === 'sqlite' ? new NameSample() : null;
  // Sampled before the first request rather than during it (65 ms at 10^7 companies); a
  // failure here only leaves the first search to sample.
  app.addHook('onReady', async () => {
    await names?.refresh(deps.db).catch((error: unknown) => app.log.warn({ err: error }, 'could not sample company names'));
  });
  const searchDeps = { db: deps.db, seam: deps.seam, maxResults: deps.config.maxResults, names };
  const cache = new SearchCache<SearchOutcome>(deps.config.searchCacheEntries);
  for (const url of paths) {
    app.get(url, {
      exposeHeadRoute: false,
      schema: {
        // One operation id for the documented path; the alias without `.php` is the same operation.
        ...(url === paths[0] ? { operationId: 'search' } : {}),
        summary: 'Look up one company by name or tax ID',
        description:
          'Returns the visible active risk reports of every matching company (at most 10). ' +
          "Authenticated with X-API-Key; a 200 counts against the key's daily quota.",
        tags: ['search'],
        security: [{ apiKey: [] }],
        querystring: SearchQuerySchema(deps.countries.list().map((c) => c.code)),
        response: {
          200: okResponse('SearchResponse', 'The matching companies (maybe none) and, for a name search, near matches'),
          ...errorResponses([400, 401, 403, 429, 500, 503]),
        },
      },
      onRequest: async (request) => authenticate(deps, request),
      preValidation: async (request) => {
        (request as { query: unknown }).query = normaliseSearchQuery(request.query);
      },
      onResponse: async (request, reply) => recordSearch(deps, request, reply),
      handler: async (request, reply) => {
        const query = request.query as { q: string; type?: 'name' | 'tax_id'; country?: string };
        const input: SearchInput = { q: query.q, type: query.type ?? 'name', country: query.country ?? null };
        const plan = planSearch(deps.countries, input);
        const holder = request.keyHolder!;
        const charge = await chargeAllowance(deps.db, deps.clock, keySubject(holder.keyId), holder.dailyLimit, `This API key's daily quota`);
        request.allowance = charge.allowance;
        let outcome;
        try {
          outcome = await cache.get(deps.db, JSON.stringify(plan), () => runSearch(searchDeps, plan));
        } catch (error) {
          // Only an answered search counts (D18).
          await charge.refund();
          request.allowance = { ...charge.allowance, used: charge.allowance.used - 1 };
          throw error;
        }
        request.resultCount = outcome.results.length;
        reply.header('cache-control', 'no-store');
        return {
          success: true as const,
          query: input.q,
          type: input.type,
          country: input.country,
          result_count: outcome.results.length,
          results: outcome.results,
          meta: {
            queries_used_today: charge.allowance.used,
            daily_limit: charge.allowance.limit,
            remaining_today: remainingOf(charge.allowance),
            response_ms: Math.round(reply.elapsedTime),
            truncated: outcome.truncated,
          },
        };
      },
    });
  }
}
