import { availableParallelism } from 'node:os';
import { readWholeNumber } from '../../lib/whole-number.ts';
import { Command } from 'commander';
import { DEFAULT_HEAP_GROWTH_PERCENT, DEFAULT_NEW_SPACE_MB, DEFAULT_SEARCH_CACHE_ENTRIES, NEW_SPACE_SIZES_MB, parseConfig } from '../../config.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD } from '../../search/near-match-score.ts';
import { CommandError, UsageError } from '../command-errors.ts';
import { isLoopback } from '../../lib/loopback.ts';
import { metricsHostProblem } from '../../metrics/metrics-host.ts';
import { readTlsFiles, type Transport } from '../../http/transport.ts';
import { globalOptions } from '../context.ts';
import { holdNewSpace } from '../../serve/heap-growth.ts';
import { createOutput } from '../output.ts';
import { KeyRing, KeyRingError } from '../../secrets/key-ring.ts';
import { HOW_TO_MAKE_A_RING, keyRingFromEnv, requireKeyRing } from '../../secrets/key-ring-source.ts';

/**
 * D35: the ring from the environment; `--demo` without one makes one for this run (and says what
 * that means); any other start without one is refused, saying how to make one.
 */
function keyRingOf(demo: boolean): { keyRing: KeyRing; generated: boolean } {
  try {
    const given = keyRingFromEnv();
    if (given) return { keyRing: given, generated: false };
    if (!demo) return { keyRing: requireKeyRing("'risklookup serve'"), generated: false };
  } catch (error) {
    throw error instanceof KeyRingError ? new CommandError(error.message) : error;
  }
  process.stderr.write(
    'warning: --demo made a secret key ring for this run only: operators enrolled during it cannot sign in after a restart ' +
      `(they would need a reset link). To keep them, ${HOW_TO_MAKE_A_RING}\n`,
  );
  return { keyRing: KeyRing.generate('demo'), generated: true };
}

interface ServeFlags {
  host: string;
  port: string;
  workers: string;
  demo?: boolean;
  maxResults?: string;
  anonDailyLimit?: string;
  countries?: string;
  dbPoolSize?: string;
  dbStatementTimeout?: string;
  auditRetentionDays?: string;
  searchCacheEntries?: string;
  nearMatchThreshold?: string;
  nameIndex?: string;
  background?: string;
  heapGrowth?: string;
  newSpaceGrowth?: string;
  newSpaceMb?: string;
  maxActive?: string;
  maxActivePerKey?: string;
  maxQueued?: string;
  maxQueuedPerKey?: string;
  maxWait?: string;
  dbConnectionWait?: string;
  bodyTimeout?: string;
  metricsPort?: string;
  metricsHost: string;
  metricsPublic?: boolean;
  drainDelay: string;
  logLevel: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string | boolean;
}

function transportOf(flags: ServeFlags): Transport {
  if (Boolean(flags.tlsCert) !== Boolean(flags.tlsKey)) {
    throw new UsageError('--tls-cert and --tls-key go together: give both PEM files');
  }
  if (flags.tlsCert && flags.trustProxy) {
    throw new UsageError('choose one: --tls-cert/--tls-key (TLS ends here) or --trust-proxy (TLS ends at the proxy)');
  }
  if (flags.tlsCert && flags.tlsKey) {
    readTlsFiles({ certFile: flags.tlsCert, keyFile: flags.tlsKey });
    return { kind: 'tls', certFile: flags.tlsCert, keyFile: flags.tlsKey };
  }
  if (flags.trustProxy) {
    const trusted =
      flags.trustProxy === true
        ? true
        : flags.trustProxy
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean);
    return { kind: 'proxy', trusted };
  }
  return { kind: 'loopback' };
}

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  const read = readWholeNumber(name, raw, min, max);
  if ('problem' in read) throw new UsageError(read.problem);
  return read.value;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('migrate the database, then serve the HTTP API')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--workers <n>', `server processes sharing the port (this machine has ${availableParallelism()} cores)`, '1')
    .option('--tls-cert <file>', 'PEM certificate: terminate TLS here (re-read on SIGHUP)')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option(
      '--trust-proxy [addresses]',
      'TLS ends at a reverse proxy: trust its X-Forwarded-Proto/-For (optionally only from these comma-separated addresses or CIDRs)',
    )
    .option('--demo', 'fill an empty database with demo data and print a demo key')
    .option('--max-results <n>', 'companies per response, 1 to 50 (D10)')
    .option('--anon-daily-limit <n>', 'daily requests per address without a known key (D20)')
    .option('--countries <list>', "served countries: 'all' or codes such as TR,DE,IT (D22)")
    .option('--db-pool-size <n>', 'PostgreSQL connections per process (default 10)')
    .option('--db-statement-timeout <ms>', 'PostgreSQL statement timeout (default 5000)')
    .option('--search-cache-entries <n>', `search answers kept until the data changes; 0 turns the cache off (default ${DEFAULT_SEARCH_CACHE_ENTRIES})`)
    .option('--near-match-threshold <x>', `near matches (D25) scoring below this, 0 to 1, are not shown (default ${DEFAULT_NEAR_MATCH_THRESHOLD})`)
    .option(
      '--background <yes|no|only>',
      "this process's background work (webhook deliveries, retention, purges): yes (default) beside the API; no: none, an API process (run another with only); only: that work and no API",
    )
    .option('--name-index <yes|no>', 'keep the searchable names in memory for fresh name searches; no: the database only (default yes)')
    .option(
      '--heap-growth <percent>',
      `how far V8's heap may grow past its live size before a full collection; 0: V8's own (up to 300 %) (default ${DEFAULT_HEAP_GROWTH_PERCENT})`,
    )
    .option(
      '--new-space-growth <yes|no>',
      "no: keep V8's new space at its start size, 2–4 MB (less memory, more CPU per request); default yes: up to --new-space-mb",
    )
    .option(
      '--new-space-mb <n>',
      `the largest V8's new space may grow to, MB: ${NEW_SPACE_SIZES_MB.join(', ')} (32: V8's own maximum; smaller: less memory, more CPU per request) (default ${DEFAULT_NEW_SPACE_MB})`,
    )
    .option('--max-active <n>', 'requests in work at once per process; beyond, they wait (D26, default 16)')
    .option('--max-active-per-key <n>', 'of those, from one key or keyless address (default 4)')
    .option('--max-queued <n>', 'requests waiting for a turn per process; beyond, 503 overloaded (default 2000)')
    .option('--max-queued-per-key <n>', 'requests of one key waiting for a turn (default 500)')
    .option('--max-wait <ms>', 'longest wait for a turn before 503 overloaded (default 5000)')
    .option('--body-timeout <ms>', 'a request body must arrive within this, plus 1 s per 256 KiB, else 408 (D26, default 2000)')
    .option('--db-connection-wait <ms>', 'longest wait for a PostgreSQL connection from the pool (default 1000)')
    .option('--metrics-port <port>', 'serve GET /metrics (Prometheus text format) on this port, apart from the API (D36; default: none)')
    .option('--metrics-host <host>', 'address of the metrics port: loopback or a private address', '127.0.0.1')
    .option('--metrics-public', 'allow --metrics-host to be a public or wildcard address (0.0.0.0): only behind a firewall')
    .option('--drain-delay <ms>', 'on SIGTERM, keep serving this long with /healthz answering 503, so a load balancer takes this process out first', '0')
    .option('--audit-retention-days <n>', 'delete search audit records older than this many days, 1 to 3650 (default 365, D34)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug', process.env.LOG_LEVEL ?? 'info')
    .action(async (flags: ServeFlags, cmd: Command) => {
      const { db, json } = globalOptions(cmd);
      const port = wholeNumber('--port', flags.port, 0, 65535);
      const workers = wholeNumber('--workers', flags.workers, 1, 64);
      const drainDelayMs = wholeNumber('--drain-delay', flags.drainDelay, 0, 300_000);
      const metricsPort = flags.metricsPort === undefined ? null : wholeNumber('--metrics-port', flags.metricsPort, 0, 65535);
      const metricsProblem = metricsPort === null ? null : metricsHostProblem(flags.metricsHost, flags.metricsPublic === true);
      if (metricsProblem) throw new UsageError(metricsProblem);
      if (metricsPort !== null && metricsPort !== 0 && metricsPort === port)
        throw new UsageError("--metrics-port must differ from --port: metrics never share the API's port");
      let transport: Transport;
      try {
        transport = transportOf(flags);
      } catch (error) {
        throw error instanceof CommandError ? error : new CommandError((error as Error).message);
      }
      if (transport.kind === 'proxy' && transport.trusted === true) {
        process.stderr.write(
          'warning: --trust-proxy without addresses believes X-Forwarded-For from any client, so the per-address limits ' +
            '(the keyless allowance, D20, and the portal sign-in throttle, D27) only hold if nothing but the proxy can reach this port; ' +
            "name the proxy's addresses: --trust-proxy 10.0.0.5 or --trust-proxy 10.0.0.0/24\n",
        );
      }
      if (transport.kind === 'loopback' && !isLoopback(flags.host)) {
        throw new CommandError(
          `refusing to serve plain HTTP on ${flags.host}: API keys must travel over HTTPS only (D6). ` +
            'Give --tls-cert and --tls-key, or run behind a TLS-terminating proxy with --trust-proxy, or listen on 127.0.0.1',
        );
      }
      let config;
      try {
        config = parseConfig({
          databaseUrl: db,
          maxResults: flags.maxResults,
          anonDailyLimit: flags.anonDailyLimit,
          countries: flags.countries,
          dbPoolSize: flags.dbPoolSize,
          dbStatementTimeoutMs: flags.dbStatementTimeout,
          auditRetentionDays: flags.auditRetentionDays,
          searchCacheEntries: flags.searchCacheEntries,
          nearMatchThreshold: flags.nearMatchThreshold,
          nameIndex: flags.nameIndex,
          background: flags.background,
          heapGrowthPercent: flags.heapGrowth,
          newSpaceGrowth: flags.newSpaceGrowth,
          newSpaceMb: flags.newSpaceMb,
          maxActive: flags.maxActive,
          maxActivePerKey: flags.maxActivePerKey,
          maxQueued: flags.maxQueued,
          maxQueuedPerKey: flags.maxQueuedPerKey,
          maxWaitMs: flags.maxWait,
          dbConnectionWaitMs: flags.dbConnectionWait,
          bodyTimeoutMs: flags.bodyTimeout,
        });
      } catch (error) {
        throw new CommandError((error as Error).message);
      }
      if (config.background === 'only' && workers > 1)
        throw new UsageError('--background only runs the background work in one process with no API: drop --workers (the API processes take --background no)');
      if (config.background === 'only' && flags.demo === true)
        throw new UsageError(
          '--demo prints a key and a portal sign-in for the API, which --background only does not serve: start the demo without --background',
        );
      const { keyRing, generated } = keyRingOf(flags.demo === true);
      // Before the server's code loads: loading it alone would take the new space to 32 MB for good.
      holdNewSpace(config.newSpaceMb);
      // Fastify, the app and the database drivers load only now: a usage error answers without them.
      const { runServe } = await import('../../serve/serve.ts');
      await runServe(
        {
          config,
          transport,
          host: flags.host,
          port,
          workers,
          demo: flags.demo === true,
          logLevel: flags.logLevel,
          metrics: metricsPort === null ? null : { host: flags.metricsHost, port: metricsPort },
          drainDelayMs,
          keyRing,
          keyRingGenerated: generated,
        },
        createOutput(json),
      );
    });
}
