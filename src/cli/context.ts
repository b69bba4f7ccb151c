/**
 * What every command shares: the database from --db, the clock, the output. The database
 * drivers load only when a command runs (help and usage errors answer without them).
 */
import type { Command } from 'commander';
import type { Engine } from '../db/connect.ts';
import { databaseUrlOf } from '../db/database-url.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { createOutput, type Output } from './output.ts';
import { parseConfig, type Config } from '../config.ts';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import { createServices, type ServicesDeps } from '../services.ts';
import { SettingsError } from './command-errors.ts';

export interface CommandContext {
  engine: Engine;
  clock: Clock;
  out: Output;
  databaseUrl: string;
}

export function globalOptions(command: Command): { db: string; json: boolean } {
  const opts = command.optsWithGlobals<{ db?: string; json?: boolean }>();
  return { db: databaseUrlOf(opts.db, process.env), json: opts.json === true };
}

/** Opens and migrates the database, runs the command, and always closes the database. */
export async function withContext<T>(command: Command, run: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const { db, json } = globalOptions(command);
  const [{ openEngine }, { migrateToLatest }] = await Promise.all([import('../db/connect.ts'), import('../db/migrate.ts')]);
  const engine = openEngine(db);
  try {
    await migrateToLatest(engine);
    return await run({ engine, clock: systemClock, out: createOutput(json), databaseUrl: db });
  } finally {
    await engine.close();
  }
}

/** Who runs the command, for the operator log (D30): the shell's user, else `cli`. */
export function cliUser(): string {
  return process.env.USER || process.env.LOGNAME || 'cli';
}

/**
 * The use cases for one command's run, from the composition root with the server's settings
 * (the environment's RISKLOOKUP_*). `extra`: what the command needs beyond them, which a command
 * that needs none does not load: the key ring, and the country catalogue's builder (the served
 * countries are the settings', D22; the builder loads the tax-ID validators).
 */
export function commandServices(
  ctx: Pick<CommandContext, 'engine' | 'clock'>,
  extra: Pick<ServicesDeps, 'keyRing'> & { countries?: (served: Config['countries']) => CountryCatalogue } = {},
) {
  let config;
  try {
    config = parseConfig({}, process.env);
  } catch (error) {
    throw new SettingsError((error as Error).message);
  }
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: (details: object, message: string) => process.stderr.write(`warning: ${message} ${JSON.stringify(details)}\n`),
  };
  const { countries, ...rest } = extra;
  return createServices({
    db: ctx.engine.db,
    seam: ctx.engine.seam,
    clock: ctx.clock,
    config,
    log,
    ...rest,
    ...(countries ? { countries: countries(config.countries) } : {}),
  });
}
