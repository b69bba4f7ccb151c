/**
 * Builds the HTTP application; never listens (STYLE). `server.ts` listens, tests inject.
 */
import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from './http/app-type.ts';
import type { Config } from './config.ts';
import { buildCountryCatalogue } from './countries/catalogue.ts';
import { registerCountriesRoutes } from './countries/countries.routes.ts';
import type { Engine } from './db/connect.ts';
import { handleClientError, registerErrorHandling, sendError } from './http/error-handling.ts';
import { parseQueryString } from './http/query-string.ts';
import { registerRateLimitHooks } from './http/rate-limit.hooks.ts';
import { registerTransportHooks, serverOptions, type Transport } from './http/transport.ts';
import { decorateRequests } from './http/request-context.ts';
import { ERROR_DOCS_PATH, ERROR_REASONS } from './lib/errors.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { registerSearchRoutes } from './search/search.routes.ts';
import { AdmissionGate } from './http/admission-gate.ts';
import { registerAdmission } from './http/admission.hooks.ts';
import { KnownKeys } from './http/known-keys.ts';
import { registerSharedSchemas } from './http/schemas.ts';
import { DOCS_ROUTE_PATHS, registerDocsRoutes } from './docs/docs.routes.ts';
import { createAuditWriter } from './audit/audit-writer.ts';
import { registerPortal } from './portal/portal.plugin.ts';
import { PORTAL_PREFIX } from './portal/layout.ts';
import { HEALTH_PATHS, registerHealthRoutes, type Lifecycle } from './health/health.routes.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { registerRequestLog } from './http/request-log.ts';
import type { KeyRing } from './secrets/key-ring.ts';
import { MONITORING_METHODS, MONITORING_PATHS, registerMonitoringRoutes } from './watchlist/watchlist.routes.ts';
import { createServices } from './services.ts';

export const SEARCH_PATHS = ['/api/v1/search.php', '/api/v1/search'] as const;
export const COUNTRIES_PATHS = ['/api/v1/countries.php', '/api/v1/countries'] as const;
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The API reference page and the error-reason page: stable URLs, linked from the README and the portal. */
export { DOCS_PATH } from './docs/docs-pages.ts';
export { ERROR_DOCS_PATH } from './lib/errors.ts';

const API_DESCRIPTION = [
  'One company per request: its visible risk reports, a count and a threat level.',
  '',
  '- **Key**: send it in the `X-API-Key` header, never in the URL. Only a search answered 200 counts against its daily quota.',
  '- **Quota**: every response carries `X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Used` and the standard ' +
    '`RateLimit-Policy` / `RateLimit` fields; a 429 or 503 carries `Retry-After`.',
  '- **Errors**: every non-2xx body is `ErrorBody`. Branch on `reason` (one of ' +
    `${Object.keys(ERROR_REASONS).length} stable identifiers), follow \`docs\` to [what it means and what to do](${ERROR_DOCS_PATH}).`,
  '- **Near matches**: a name search that finds nothing lists close names in `near_matches`; confirm one with a `type=tax_id` search.',
  '- **Times** are Turkey time (UTC+3); dates `YYYY-MM-DD`.',
].join('\n');

export function admissionLimitsOf(config: Config) {
  const { maxActive, maxActivePerKey, maxQueued, maxQueuedPerKey, maxWaitMs } = config;
  return { maxActive, maxActivePerKey, maxQueued, maxQueuedPerKey, maxWaitMs };
}

/** Headers on every answer: the request id, no sniffing, no referrer, no caching and no content unless a route says otherwise. */
function addCommonHeaders(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  // The docs pages and the portal set their own policies (docs/docs.routes.ts, portal/portal.plugin.ts).
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  return reply;
}

/** D36's gauges read when scraped: admission (D26) and the database pool. */
function registerGauges(metrics: Metrics, gate: AdmissionGate, engine: Engine) {
  metrics.gauge({
    name: 'risklookup_admission_queued',
    help: 'Requests waiting for a turn (D26)',
    collect() {
      this.set(gate.stats().queued);
    },
  });
  metrics.gauge({
    name: 'risklookup_admission_active',
    help: 'Requests in work (D26)',
    collect() {
      this.set(gate.stats().active);
    },
  });
  metrics.gauge({
    name: 'risklookup_db_pool_waiting',
    help: 'Requests waiting for a database connection (PostgreSQL pool; 0 on SQLite)',
    collect() {
      this.set(engine.poolStats?.().waiting ?? 0);
    },
  });
}

export interface AppDeps {
  config: Config;
  engine: Engine;
  logger?: Logger;
  clock?: Clock;
  /** D6; plain HTTP (for loopback) when absent. */
  transport?: Transport;
  /** D36: where the app's figures go (a fresh registry when absent); served by serve's metrics port. */
  metrics?: Metrics;
  /** D36: the server's state for the health checks (draining once SIGTERM arrives). */
  lifecycle?: Lifecycle;
  /** D35: the key ring every process of the installation shares; no default (serve refuses to start without one). */
  keyRing: KeyRing;
  /** D26's gate; serve makes it, so that the background work sees the requests waiting (webhooks/delivery-pace.ts). */
  gate?: AdmissionGate;
}

export async function buildApp({
  config,
  engine,
  logger,
  clock = systemClock,
  transport = { kind: 'loopback' },
  metrics = createMetrics(),
  lifecycle = { draining: false },
  keyRing,
  gate = new AdmissionGate(admissionLimitsOf(config)),
}: AppDeps): Promise<App> {
  // Typed as Fastify's base logger, which App is declared with (not pino's own Logger type).
  const baseLogger: FastifyBaseLogger | undefined = logger;
  const app = Fastify({
    ...(baseLogger ? { loggerInstance: baseLogger } : { logger: false }),
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: false },
    genReqId: () => randomUUID(),
    // D36: one line per request, written by http/request-log.ts when the answer is done.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024,
    return503OnClosing: true,
    // Fastify must not destroy connections on close: one that has just sent its request looks
    // idle until the request is parsed. serve/server.ts stops listening first, gives such
    // requests a grace period, and only then closes (ending idle keep-alive connections).
    forceCloseConnections: false,
    clientErrorHandler: handleClientError,
    // A URL that is not valid percent-encoding: the one error body (D2), with every header the
    // onSend hook adds, instead of Fastify's own answer echoing the path without them.
    frameworkErrors: (_error, request, reply) => {
      void sendError(
        addCommonHeaders(request, reply),
        'malformed_request',
        'malformed request: the URL is not valid percent-encoding; encode it as UTF-8 and try again',
      );
    },
    ...serverOptions(transport),
  }).withTypeProvider<TypeBoxTypeProvider>() as App;

  const countries = buildCountryCatalogue(config.countries);
  decorateRequests(app);

  registerSharedSchemas(app);
  await app.register(swagger, {
    // Named schemas keep their names under components.schemas (the default is def-0, def-1...).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Company Risk Lookup Service',
        version: '1.0.0',
        description: API_DESCRIPTION,
      },
      tags: [
        { name: 'search', description: 'Look up one company (X-API-Key; a 200 counts against the daily quota)' },
        { name: 'countries', description: 'Supported countries and tax-ID formats (no key)' },
        { name: 'watchlist', description: 'Watch companies and read what changed (X-API-Key; own allowances, not the search quota)' },
      ],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    },
  });

  // D26 first: a shed request costs no authentication, quota or database work.
  registerAdmission(app, gate, {
    knownKeys: new KnownKeys(),
    bodyTimeoutMs: config.bodyTimeoutMs,
    exempt: new Set(HEALTH_PATHS),
    onShed: () => metrics.shed.inc(),
  });
  registerRequestLog(app, metrics);
  registerGauges(metrics, gate, engine);
  registerErrorHandling(app, {
    ...Object.fromEntries(SEARCH_PATHS.map((p) => [p, ['GET']])),
    ...Object.fromEntries(COUNTRIES_PATHS.map((p) => [p, ['GET', 'HEAD']])),
    ...Object.fromEntries(DOCS_ROUTE_PATHS.map((p) => [p, ['GET', 'HEAD']])),
    ...MONITORING_METHODS,
  });
  registerTransportHooks(app, transport, HEALTH_PATHS);
  registerRateLimitHooks(
    app,
    { db: engine.db, clock, anonDailyLimit: config.anonDailyLimit },
    [...SEARCH_PATHS, ...MONITORING_PATHS],
    PORTAL_PREFIX,
    HEALTH_PATHS,
  );
  app.addHook('onSend', (request, reply, payload, done) => {
    addCommonHeaders(request, reply);
    done(null, payload);
  });

  const audit = createAuditWriter(engine.db, (error, lost) => app.log.error({ err: error, lost }, 'could not write audit records'));
  // After the last request is answered (Fastify closes the server first), store what is buffered.
  app.addHook('onClose', async () => audit.close());
  // The composition root: every use case built once, each route handed the ones it calls.
  const services = createServices({ db: engine.db, seam: engine.seam, clock, config, log: app.log, audit, countries, keyRing });
  // Before the database closes: the index of names' background loading ends without a warning.
  app.addHook('onClose', (_instance, done) => {
    services.companySearch.stop();
    done();
  });
  // Before the first request rather than during it; a failure only leaves the first search to do it.
  app.addHook('onReady', async () => {
    await services.companySearch.warmUp().catch((error: unknown) => app.log.warn({ err: error }, 'could not sample company names'));
  });
  metrics.gauge({
    name: 'risklookup_name_index_bytes',
    help: 'Bytes of the in-memory index of names (issue 28); 0 while loading or turned off',
    collect() {
      this.set(services.companySearch.nameIndex()?.bytes ?? 0);
    },
  });
  metrics.gauge({
    name: 'risklookup_name_index_companies',
    help: 'Companies in the in-memory index of names (those with a visible report)',
    collect() {
      this.set(services.companySearch.nameIndex()?.companies ?? 0);
    },
  });
  const countryCodes = countries.list().map((c) => c.code);
  registerSearchRoutes(
    app,
    { db: engine.db, audit, clock, anonDailyLimit: config.anonDailyLimit, auditQueryChars: config.auditQueryChars, countryCodes, search: services.search },
    SEARCH_PATHS,
  );
  registerCountriesRoutes(app, countries, COUNTRIES_PATHS);
  registerMonitoringRoutes(app, {
    db: engine.db,
    clock,
    watchlist: services.watchlist,
    events: services.events,
    limits: {
      watchlistDailyLimit: config.watchlistDailyLimit,
      eventsDailyLimit: config.eventsDailyLimit,
      anonDailyLimit: config.anonDailyLimit,
    },
  });
  registerHealthRoutes(app, { engine, lifecycle });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, () => app.swagger());
  registerDocsRoutes(app, OPENAPI_PATH);
  // D27: the portal is its own scope (HTML pages and errors, sessions, CSRF); admission and transport above apply to it too.
  registerPortal(app, { clock, transport, searchUseCase: services.search, countryCodes, publicUrl: config.publicUrl, services });

  await app.ready();
  return app;
}
