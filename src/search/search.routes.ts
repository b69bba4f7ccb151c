/**
 * GET /api/v1/search(.php) (spec 4.1): adapts HTTP to the search use case (answer-search.ts).
 * In order: admission (D26, http/admission.hooks.ts, before anything else) → key in URL (D7) → key
 * (D17) → parameters (D7 then the schema) → the use case (plan, allowance, search, charge) →
 * audit (D21, committed before the answer is sent, whatever it was).
 */
import { performance } from 'node:perf_hooks';
import type { App } from '../http/app-type.ts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { ParsedQuery } from '../http/query-string.ts';
import { chargeAnonymous } from '../http/rate-limit.hooks.ts';
import { admittedKeyDigest, leaveTurn } from '../http/admission.hooks.ts';
import { errorResponses, okResponse, SearchQuerySchema } from '../http/schemas.ts';
import { identifyKeyHolder } from '../keys/auth.service.ts';
import { createKeyHolderReads, type FindKeyHolder } from '../keys/key-holder-reads.ts';
import { markKeyUsed } from '../keys/keys.repository.ts';
import { KeyLastUse } from '../keys/key-last-use.ts';
import { checkKeyHolder } from '../keys/auth-rules.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { recordSearch, searchRecord } from '../audit/audit.service.ts';
import type { AuditWriter } from '../audit/audit-writer.ts';
import { checkSearchInput, normaliseSearchQuery, rejectSecretsInUrl } from './search-params.ts';
import type { SearchResponse, SearchService } from './answer-search.ts';
import type { SearchInput } from './search.service.ts';
import type { Db } from '../db/types.ts';

export interface SearchRouteDeps {
  db: Db;
  audit: AuditWriter;
  clock: Clock;
  /** D20: the address's allowance when no known key is sent. */
  anonDailyLimit: number;
  /** D21: how much of `q` the audit keeps. */
  auditQueryChars: number;
  countryCodes: readonly string[];
  /** The search use case (services.ts). */
  search: Pick<SearchService, 'answer'>;
}

async function authenticate(deps: SearchRouteDeps, findKeyHolder: FindKeyHolder, request: FastifyRequest) {
  request.clientAddress = request.ip ?? null;
  try {
    rejectSecretsInUrl(request.query as ParsedQuery);
    const header = request.headers['x-api-key'] as string | undefined;
    request.keyHolder = await identifyKeyHolder(deps.db, header, quotaDayOf(deps.clock.now()), admittedKeyDigest(request), findKeyHolder);
  } catch (error) {
    // No known key: the request is paid for by the address's anonymous allowance (D20),
    // which caps key guessing from one address.
    if (error instanceof AppError) await chargeAnonymous(deps, request);
    throw error;
  }
  // The key's use today came with the key: the use case checks it, and the headers of a request
  // that ends before it is charged show it (rate-limit.hooks.ts).
  checkKeyHolder(request.keyHolder);
}

/**
 * The 200 body as JSON.stringify writes it, not as the schema's compiled serializer would: the
 * answer model is built field by field (toSearchResponse, toCompanyResult, toReportView), so
 * both write the same bytes, but fast-json-stringify picks each report's `Report` branch by
 * running the branches' Ajv validators: 0.23 against 0.14 ms for a 51 KB answer of 208 reports.
 * test/search.happy.test.ts checks real answers of every report type against the
 * OpenAPI document, so the model cannot drift from it unseen.
 *
 * The results' JSON is kept with the results (issue 28): an answer from the search cache shares
 * its `results` array with every other answer of that cached search, so their bytes are written
 * once and only the fields of the request (query, meta) each time. Byte for byte JSON.stringify's
 * (search.routes.test.ts), in toSearchResponse's order of fields.
 */
const resultsJson = new WeakMap<readonly unknown[], string>();

export function serializeSearchResponse(response: SearchResponse): string {
  let results = resultsJson.get(response.results);
  if (results === undefined) {
    results = JSON.stringify(response.results);
    resultsJson.set(response.results, results);
  }
  const near = response.near_matches === undefined ? '' : `,"near_matches":${JSON.stringify(response.near_matches)}`;
  return (
    `{"success":true,"query":${JSON.stringify(response.query)},"type":${JSON.stringify(response.type)},` +
    `"country":${JSON.stringify(response.country)},"result_count":${response.result_count},` +
    `"results":${results},"meta":${JSON.stringify(response.meta)}${near}}`
  );
}

export function registerSearchRoutes(app: App, deps: SearchRouteDeps, paths: readonly string[]) {
  const lastUse = new KeyLastUse((keyId, day) => markKeyUsed(deps.db, keyId, day));
  // The key look-ups of a turn in one statement on PostgreSQL (nothing cached: key-holder-reads.ts).
  const findKeyHolder = createKeyHolderReads(deps.db);
  for (const url of paths) {
    app.get(url, {
      exposeHeadRoute: false,
      schema: {
        // One operation id for the documented path; the alias without `.php` is the same operation.
        ...(url === paths[0] ? { operationId: 'search' } : {}),
        summary: 'Look up one company by name or tax ID',
        description:
          'Returns the visible active risk reports of every matching company (at most 10). ' +
          "Authenticated with X-API-Key; a 200 counts against the daily quota of the key's member (all its keys together: a new key continues the day).",
        tags: ['search'],
        security: [{ apiKey: [] }],
        querystring: SearchQuerySchema(deps.countryCodes),
        response: {
          200: okResponse('SearchResponse', 'The matching companies (maybe none) and, for a name search, near matches'),
          ...errorResponses([400, 401, 403, 429, 500, 503]),
        },
      },
      onRequest: async (request) => authenticate(deps, findKeyHolder, request),
      // A callback hook (no promise, no microtask: issue 28); Fastify turns a throw into the error answer.
      preValidation: (request, _reply, done) => {
        // D7's rules (search-params.ts, the same for the portal and the CLI) before the schema, which documents them.
        const asked = normaliseSearchQuery(request.query);
        const { q, type, country } = checkSearchInput(asked, (code) => deps.countryCodes.includes(code));
        // The type stays absent when it was not asked (D21's audit records what the request said).
        (request as { query: unknown }).query = { q, ...(asked.type === undefined ? {} : { type }), ...(country === null ? {} : { country }) };
        done();
      },
      // Before the answer leaves, not after (issue 28): an answer of 200 was recorded with its unit
      // (the handler); any other is committed here with the others of its event-loop turn
      // (audit-writer.ts), so a process killed right after answering has the record. Once per
      // request: a failed write turns the answer into an error, whose own send comes here again.
      onSend: (request, reply, payload, done) => {
        if (request.audited) return done(null, payload);
        request.audited = true;
        // The answer is made: the commit it waits for is shared work, not this request's.
        leaveTurn(request);
        recordSearch(deps, request, reply).then(() => done(null, payload), done);
      },
      handler: async (request, reply) => {
        const query = request.query;
        const input: SearchInput = { q: query.q, type: query.type ?? 'name', country: query.country ?? null };
        const holder = request.keyHolder!;
        const startedAt = performance.now() - reply.elapsedTime;
        // The member's day, whichever of its keys asks (D18 amended).
        const searcher = {
          kind: 'api_key',
          memberId: holder.memberId,
          memberRef: holder.memberRef,
          dailyLimit: holder.dailyLimit,
          usage: holder.usage,
          dataVersion: holder.dataVersion,
          // D21: the answer's record commits with its unit (charge-batch.ts), before the answer leaves.
          record: (a: { resultCount: number; responseMs: number }) => searchRecord(deps, request, { status: 200, ...a }),
        } as const;
        const answer = await deps.search.answer(searcher, input, startedAt);
        request.audited = true;
        // The key's own "last used" (the portal's API page): written on its first answer of a day
        // in this process, before that answer is sent (key-last-use.ts).
        const recording = lastUse.record(holder.keyId, holder.usage.day, request.log);
        if (recording) await recording;
        request.allowance = answer.allowance;
        request.resultCount = answer.response.result_count;
        request.foundCompanyIds = answer.foundCompanyIds;
        reply.header('cache-control', 'no-store');
        reply.type('application/json; charset=utf-8').serializer(serializeSearchResponse);
        return answer.response;
      },
    });
  }
}
