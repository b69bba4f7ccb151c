/**
 * `risklookup serve`: one process, or a primary with `--workers N` processes sharing the port
 * (node:cluster). The primary migrates and prepares the demo once, before any worker starts.
 */
import cluster from 'node:cluster';
import { admissionLimitsOf, buildApp } from '../app.ts';
import { AdmissionGate } from '../http/admission-gate.ts';
import { NEW_SPACE_SIZES_MB, type Config } from '../config.ts';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { openEngine } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { prepareDemo, type DemoOutcome } from '../demo/demo.service.ts';
import { systemClock } from '../lib/clock.ts';
import { createLogger, createServerLogStream } from '../lib/logger.ts';
import type { Output } from '../cli/output.ts';
import { reloadTls, type Transport } from '../http/transport.ts';
import { startServer, waitForShutdownSignal } from './server.ts';
import { AggregatorRegistry } from 'prom-client';
import { createMetrics } from '../metrics/metrics.ts';
import { registerBackgroundMetrics, registerDatabaseWorkMetrics } from '../metrics/background-metrics.ts';
import { startMetricsServer, type MetricsServer } from '../metrics/metrics-server.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { KEYS_VARIABLE } from '../secrets/key-ring-source.ts';
import { sealLegacySecrets } from '../secrets/secrets.service.ts';
import { BACKGROUND_POOL_SIZE, buildBackgroundWork, databaseWorkFigures } from './background-work.ts';
import { applyHeapGrowth, serveNewSpace } from './heap-growth.ts';
import { ALWAYS_SERVING } from '../webhooks/delivery-pace.ts';

export interface ServeOptions {
  config: Config;
  transport: Transport;
  host: string;
  port: number;
  workers: number;
  demo: boolean;
  logLevel: string;
  /** D36: where `GET /metrics` answers (its own port); null: no metrics port. */
  metrics: { host: string; port: number } | null;
  /** D36: on SIGTERM, how long /healthz answers 503 while requests are still served. */
  drainDelayMs: number;
  /** D35: the ring every process of the installation shares. */
  keyRing: KeyRing;
  /** `serve --demo` made the ring for this run: its workers are handed it (they would make others). */
  keyRingGenerated: boolean;
}

function openServerEngine(config: Config, serving?: { onCheckpointerError: (error: Error) => void }, poolSize = config.dbPoolSize) {
  return openEngine(config.databaseUrl, {
    poolSize,
    backgroundPoolSize: BACKGROUND_POOL_SIZE,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    connectionWaitMs: config.dbConnectionWaitMs,
    pooler: config.dbPooler,
    yieldWhenBusy: true,
    // SQLite's checkpoints off the serving thread (db/sqlite-checkpointer.ts).
    ...(serving ? { backgroundCheckpoints: true, ...serving } : {}),
  });
}

/**
 * Migrates, seals what an earlier version stored in clear (D35: operators' TOTP seeds, kept, not
 * reset), and with --demo fills an empty database. Runs once per installation start.
 */
async function prepareDatabase(options: ServeOptions, out: Output): Promise<DemoOutcome> {
  const engine = openServerEngine(options.config);
  try {
    await migrateToLatest(engine);
    const sealed = await sealLegacySecrets(engine.db, options.keyRing);
    if (sealed > 0)
      out.info(
        `sealed ${sealed} secret${sealed === 1 ? '' : 's'} an earlier version stored in clear (operators' TOTP seeds) under key '${options.keyRing.newestId}'`,
      );
    if (!options.demo) return { kind: 'untouched' };
    return await prepareDemo(engine, systemClock, buildCountryCatalogue(options.config.countries), options.config.defaultDailyLimit, options.config.retention);
  } finally {
    await engine.close();
  }
}

/** Serves in this process until SIGTERM/SIGINT; returns the URL through `onListening`. */
async function serveHere(options: ServeOptions, onListening: (url: string, database: string, metricsUrl: string | null) => void): Promise<void> {
  applyHeapGrowth(options.config.heapGrowthPercent);
  let logger: ReturnType<typeof createLogger> | null = null;
  // SQLite's checkpoints in a thread of their own, unless V8's new space is kept at its start
  // size: a thread's start sets V8's growth factor back to 2, and at this point grew it to 8–16 MB
  // before the next collection set it again (test/serve-heap-growth.test.ts), so with
  // `--new-space-growth no` the serving thread checkpoints, as SQLite does by itself.
  const engine = openServerEngine(
    options.config,
    options.config.newSpaceMb > NEW_SPACE_SIZES_MB[0]
      ? {
          onCheckpointerError: (error) =>
            logger?.error({ err: error }, "SQLite's checkpoint thread stopped: the serving thread checkpoints from now on, after 10,000 pages of log"),
        }
      : undefined,
  );
  const logStream = createServerLogStream();
  // Lines wait up to 50 ms (lib/logger.ts): whatever ends the process, what was logged is written.
  const flushLog = () => {
    try {
      logStream.flushSync();
    } catch {
      // stderr gone: nothing left to write to.
    }
  };
  process.once('exit', flushLog);
  logger = createLogger({ level: options.logLevel, destination: logStream });
  const metrics = createMetrics({ processMetrics: true });
  const lifecycle = { draining: false };
  let server;
  let app;
  let metricsServer: MetricsServer | null = null;
  const gate = new AdmissionGate(admissionLimitsOf(options.config));
  // `--background no`: an API process; another process (`--background yes` or `only`) runs the work.
  const background =
    options.config.background === 'no'
      ? null
      : buildBackgroundWork({
          engine,
          clock: systemClock,
          config: options.config,
          log: logger,
          keyRing: options.keyRing,
          requestLoad: () => ({ ...gate.stats(), admitted: gate.admitted }),
        });
  // The background work's figures beside the app's, in this process's one registry (D36).
  if (background) registerBackgroundMetrics(metrics, background, logger);
  else {
    // The database's figures (the deliveries waiting, the events written) still show here.
    registerDatabaseWorkMetrics(metrics, databaseWorkFigures({ engine, clock: systemClock }), logger);
    logger.info(
      'no background work in this process (--background no): webhook deliveries, retention and purges run in a process with --background yes or only',
    );
  }
  try {
    app = await buildApp({ config: options.config, engine, logger, transport: options.transport, metrics, lifecycle, keyRing: options.keyRing, gate });
    await engine.openPool();
    const scheme = options.transport.kind === 'tls' ? 'https' : 'http';
    server = await startServer(
      app,
      engine,
      options.host,
      options.port,
      scheme,
      options.config.drainGraceMs,
      { lifecycle, delayMs: options.drainDelayMs },
      background,
    );
    // With --workers the primary serves the workers' figures together (runPrimary). A worker
    // answers the primary's requests only once it has made an AggregatorRegistry: prom-client adds
    // its listener in that constructor, not in setRegistries (without it every scrape timed out).
    if (cluster.isWorker) {
      if (options.metrics) new AggregatorRegistry();
      AggregatorRegistry.setRegistries([metrics.registry]);
    } else if (options.metrics) {
      metricsServer = await startMetricsServer(options.metrics.host, options.metrics.port, async () => ({
        contentType: metrics.registry.contentType,
        body: await metrics.registry.metrics(),
      }));
    }
  } catch (error) {
    await server?.stop();
    await engine.close();
    throw error;
  }
  const onHangup = () => {
    try {
      reloadTls(app, options.transport);
      logger.info('SIGHUP: TLS certificate and key reloaded');
    } catch (error) {
      logger.error({ err: error }, 'SIGHUP: could not reload the TLS certificate; keeping the old one');
    }
  };
  process.on('SIGHUP', onHangup);
  // A database that does not answer now delays the background work, not the requests: the runner
  // logs it and ticks again every second.
  await background?.start();
  // Started: the new space may grow now, to --new-space-mb (serve/heap-growth.ts).
  serveNewSpace();
  onListening(server.url, engine.description, metricsServer?.url ?? null);
  await waitForShutdownSignal();
  process.off('SIGHUP', onHangup);
  if (options.drainDelayMs > 0) logger.info({ ms: options.drainDelayMs }, 'draining: /healthz answers 503 while requests are still served');
  await server.stop();
  await metricsServer?.close();
  logStream.flushSync();
}

/**
 * `serve --background only`: the background work (webhook deliveries, retention, purges) in a
 * process with no API, until SIGTERM/SIGINT; then it drains as a serving process does (nothing new
 * starts, a delivery in flight finishes or is given back). It cannot see the API processes'
 * requests, so deliveries keep the pace of a process that serves (ALWAYS_SERVING). Its metrics, if
 * asked for, on their own port (D36).
 */
async function backgroundOnly(options: ServeOptions, onStarted: (database: string, metricsUrl: string | null) => void): Promise<void> {
  // No requests: one connection for the jobs that use the requests' pool, beside the background pool.
  const engine = openServerEngine(options.config, undefined, 1);
  const logStream = createServerLogStream();
  const logger = createLogger({ level: options.logLevel, destination: logStream });
  process.once('exit', () => {
    try {
      logStream.flushSync();
    } catch {
      // stderr gone: nothing left to write to.
    }
  });
  const metrics = createMetrics({ processMetrics: true });
  const background = buildBackgroundWork({
    engine,
    clock: systemClock,
    config: options.config,
    log: logger,
    keyRing: options.keyRing,
    requestLoad: ALWAYS_SERVING,
  });
  registerBackgroundMetrics(metrics, background, logger);
  let metricsServer: MetricsServer | null = null;
  try {
    await engine.openPool();
    if (options.metrics)
      metricsServer = await startMetricsServer(options.metrics.host, options.metrics.port, async () => ({
        contentType: metrics.registry.contentType,
        body: await metrics.registry.metrics(),
      }));
  } catch (error) {
    await engine.close();
    throw error;
  }
  await background.start();
  onStarted(engine.description, metricsServer?.url ?? null);
  // Nothing else may hold the event loop open (the runner's timer is unref'd; SQLite holds no socket).
  const alive = setInterval(() => {}, 1 << 30);
  await waitForShutdownSignal();
  clearInterval(alive);
  await background.drain();
  await metricsServer?.close();
  await engine.close();
  logStream.flushSync();
}

function demoLines(demo: DemoOutcome, url: string): string[] {
  if (demo.kind === 'untouched') return [];
  const curl = `curl -s -H 'X-API-Key: ${demo.key}' '${url}/api/v1/search.php?q=Anadolu%20Demir&country=TR'`;
  return [
    demo.kind === 'created'
      ? `demo data loaded: ${demo.companies} companies and 7 members`
      : 'demo data already present; issued a new demo key (the previous demo key is revoked)',
    `demo API key (shown once): ${demo.key}`,
    'try:',
    `  ${curl}`,
    '  a misspelt name finds no company, and lists the close ones in near_matches (D25):',
    `  ${curl.replace('q=Anadolu%20Demir', 'q=Anadolu%20Demri')}`,
    `  curl -s '${url}/api/v1/countries.php'`,
    `API reference: ${url}/api/v1/docs (OpenAPI document: ${url}/api/v1/openapi.json)`,
    `portal: ${url}/portal/ email ${demo.portal.email} password ${demo.portal.password} (a new password at every start)`,
  ];
}

function announce(out: Output, url: string, database: string, demo: DemoOutcome, workers: number, metricsUrl: string | null) {
  out.result(
    {
      listening: url,
      database,
      workers,
      ...(metricsUrl ? { metrics: metricsUrl } : {}),
      ...(demo.kind === 'untouched' ? {} : { demo_key: demo.key, demo_portal: { url: `${url}/portal/`, ...demo.portal } }),
    },
    [
      `listening on ${url} (${database}${workers > 1 ? `, ${workers} worker processes` : ''})`,
      ...(metricsUrl ? [`metrics on ${metricsUrl}`] : []),
      ...demoLines(demo, url),
    ],
  );
}

async function runPrimary(options: ServeOptions, out: Output): Promise<void> {
  const demo = await prepareDatabase(options, out);
  const aggregator = new AggregatorRegistry();
  const metricsServer = options.metrics
    ? await startMetricsServer(options.metrics.host, options.metrics.port, async () => ({
        contentType: aggregator.contentType,
        body: await aggregator.clusterMetrics(),
      }))
    : null;
  let stopping = false;
  let listening = 0;
  let announced = false;
  const exited = new Set<number>();
  const fork = () => {
    const worker = cluster.fork({ RISKLOOKUP_WORKER: '1', ...(options.keyRingGenerated ? { [KEYS_VARIABLE]: options.keyRing.toText() } : {}) });
    worker.on('message', (message: { listening?: string; database?: string }) => {
      if (message.listening && ++listening === options.workers && !announced) {
        announced = true;
        announce(out, message.listening, message.database ?? '', demo, options.workers, metricsServer?.url ?? null);
      }
    });
    worker.on('exit', (code, signal) => {
      exited.add(worker.id);
      if (!stopping) {
        out.info(`worker ${worker.process.pid} stopped (${signal ?? code}); starting another`);
        fork();
      }
    });
  };
  for (let i = 0; i < options.workers; i++) fork();
  const forwardHangup = () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGHUP');
  };
  process.on('SIGHUP', forwardHangup);
  const signal = await waitForShutdownSignal();
  process.off('SIGHUP', forwardHangup);
  stopping = true;
  out.info(`${signal}: draining in-flight requests in ${options.workers} workers, then stopping`);
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (exited.has(w.id)) return resolve();
          w.once('exit', () => resolve());
          w.process.kill('SIGTERM');
        }),
    ),
  );
  await metricsServer?.close();
  out.info('stopped');
}

export async function runServe(options: ServeOptions, out: Output): Promise<void> {
  if (options.workers > 1 && cluster.isPrimary) return runPrimary(options, out);
  if (cluster.isWorker) {
    await serveHere(options, (url, database) => process.send?.({ listening: url, database }));
    // The IPC channel to the primary would keep this process alive; all else is closed.
    process.disconnect?.();
    return;
  }
  const demo = await prepareDatabase(options, out);
  if (options.config.background === 'only') {
    await backgroundOnly(options, (database, metricsUrl) =>
      out.result({ background: 'only', database, ...(metricsUrl ? { metrics: metricsUrl } : {}) }, [
        `background work only, no API (${database}): webhook deliveries, retention and purges`,
        ...(metricsUrl ? [`metrics on ${metricsUrl}`] : []),
      ]),
    );
  } else {
    await serveHere(options, (url, database, metricsUrl) => announce(out, url, database, demo, 1, metricsUrl));
  }
  out.info('stopped');
}
