import { Command } from 'commander';
import { buildApp } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { buildCountryCatalogue } from '../../countries/catalogue.ts';
import { openEngine } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { prepareDemo, type DemoOutcome } from '../../demo/demo.service.ts';
import { CommandError } from '../../lib/errors.ts';
import { systemClock } from '../../lib/clock.ts';
import { createLogger } from '../../lib/logger.ts';
import { isLoopback, startServer, waitForShutdownSignal } from '../../server.ts';
import { globalOptions } from '../context.ts';
import { createOutput } from '../output.ts';

interface ServeOptions {
  host: string;
  port: string;
  demo?: boolean;
  maxResults?: string;
  anonDailyLimit?: string;
  countries?: string;
  logLevel: string;
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
    `  curl -s '${url}/api/v1/countries.php'`,
    `API reference: ${url}/api/v1/openapi.json`,
  ];
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('migrate the database, then serve the HTTP API')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--demo', 'fill an empty database with demo data and print a demo key')
    .option('--max-results <n>', 'companies per response, 1 to 50 (D10)')
    .option('--anon-daily-limit <n>', 'daily requests per address without a known key (D20)')
    .option('--countries <list>', "served countries: 'all' or codes such as TR,DE,IT (D22)")
    .option('--log-level <level>', 'fatal, error, warn, info, debug', process.env.LOG_LEVEL ?? 'info')
    .action(async (opts: ServeOptions, cmd: Command) => {
      const { db, json } = globalOptions(cmd);
      const out = createOutput(json);
      if (!/^[0-9]{1,5}$/.test(opts.port) || Number(opts.port) > 65535) {
        throw new CommandError(`--port must be a number from 0 to 65535, got '${opts.port}'`);
      }
      if (!isLoopback(opts.host)) {
        throw new CommandError(
          `refusing to serve plain HTTP on ${opts.host}: the API carries keys and must be reached over HTTPS (D6). ` +
            'Listen on 127.0.0.1 behind a TLS-terminating proxy',
        );
      }
      let config;
      try {
        config = parseConfig({ databaseUrl: db, maxResults: opts.maxResults, anonDailyLimit: opts.anonDailyLimit, countries: opts.countries });
      } catch (error) {
        throw new CommandError((error as Error).message);
      }
      const engine = openEngine(config.databaseUrl);
      let server;
      let demo: DemoOutcome = { kind: 'untouched' };
      try {
        await migrateToLatest(engine);
        if (opts.demo) {
          demo = await prepareDemo(engine.db, systemClock, buildCountryCatalogue(config.countries), config.defaultDailyLimit);
        }
        const app = await buildApp({ config, engine, logger: createLogger({ level: opts.logLevel, destination: process.stderr }) });
        server = await startServer(app, engine, opts.host, Number(opts.port));
      } catch (error) {
        await engine.close();
        throw error;
      }
      out.result(
        { listening: server.url, database: engine.description, ...(demo.kind === 'untouched' ? {} : { demo_key: demo.key }) },
        [`listening on ${server.url} (${engine.description})`, ...demoLines(demo, server.url)],
      );
      const signal = await waitForShutdownSignal();
      out.info(`${signal}: draining in-flight requests, then stopping`);
      await server.stop();
      out.info('stopped');
    });
}
