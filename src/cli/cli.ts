/** `risklookup`: the one program (D23). Exit 0 success, 1 failure, 2 usage error. */
import { Command, CommanderError, Help } from 'commander';
import { UsageError } from './command-errors.ts';

/**
 * Every command, with the line the program's help shows for it. Only the command that runs is
 * loaded (its module may load Fastify, the database drivers or stdnum); the others stay stand-ins
 * that know their name and help line, so `--help` and usage errors answer at once.
 * test/cli-commands.test.ts checks each line against the loaded command.
 */
export const COMMANDS: ReadonlyArray<{ name: string; term: string; description: string; load: () => Promise<Command> }> = [
  {
    name: 'serve',
    term: 'serve [options]',
    description: 'migrate the database, then serve the HTTP API',
    load: async () => (await import('./commands/serve.command.ts')).serveCommand(),
  },
  {
    name: 'migrate',
    term: 'migrate',
    description: 'bring the database schema up to date',
    load: async () => (await import('./commands/migrate.command.ts')).migrateCommand(),
  },
  {
    name: 'member',
    term: 'member',
    description: 'add, change and list members (D15)',
    load: async () => (await import('./commands/member.command.ts')).memberCommand(),
  },
  {
    name: 'user',
    term: 'user',
    description: 'invite, reset, disable and list portal users (D27)',
    load: async () => (await import('./commands/user.command.ts')).userCommand(),
  },
  {
    name: 'secrets',
    term: 'secrets',
    description: 'make a key for the secret key ring, re-seal stored secrets under its newest key, count them (D35)',
    load: async () => (await import('./commands/secrets.command.ts')).secretsCommand(),
  },
  {
    name: 'key',
    term: 'key',
    description: 'issue and revoke API keys (D16)',
    load: async () => (await import('./commands/key.command.ts')).keyCommand(await defaultDailyLimit()),
  },
  {
    name: 'import',
    term: 'import <file>',
    description: 'import companies and reports from a JSON Lines file (D24); all or nothing',
    load: async () => (await import('./commands/import.command.ts')).importCommand(),
  },
  {
    name: 'report',
    term: 'report',
    description: 'move reports through their lifecycle (D11)',
    load: async () => (await import('./commands/report.command.ts')).reportCommand(),
  },
  {
    name: 'usage',
    term: 'usage <ref>',
    description: "a member's answered queries per day (Turkey time), newest first",
    load: async () => (await import('./commands/usage.command.ts')).usageCommand(),
  },
  {
    name: 'search',
    term: 'search [options] <q>',
    description: 'look a company up as the API answers it, for support staff: no quota; audited as the operator (D21)',
    load: async () => (await import('./commands/search.command.ts')).searchCommand(),
  },
  {
    name: 'audit',
    term: 'audit',
    description: 'the audit trail of search requests (D21)',
    load: async () => (await import('./commands/audit.command.ts')).auditCommand(),
  },
  {
    name: 'retention',
    term: 'retention',
    description: 'expire and delete reports past their retention, purge old audit records (D34); --dry-run shows what',
    load: async () => (await import('./commands/retention.command.ts')).retentionCommand(),
  },
  {
    name: 'copy',
    term: 'copy [options]',
    description: 'copy a whole installation to another, empty database (e.g. SQLite to PostgreSQL)',
    load: async () => (await import('./commands/copy.command.ts')).copyCommand(),
  },
  {
    name: 'generate',
    term: 'generate [options]',
    description: 'write realistic synthetic companies in the import format (D24); adds the members they name to --db',
    load: async () => (await import('./commands/generate.command.ts')).generateCommand(),
  },
];

/** D16's default for a new key, from the one settings schema: a bad value is reported, never replaced. */
async function defaultDailyLimit(): Promise<number> {
  const { parseConfig } = await import('../config.ts');
  return parseConfig({}, process.env).defaultDailyLimit;
}

/** The command the arguments name (`risklookup [--db URL] [--json] NAME …`, or `help NAME`), if any. */
export function requestedCommand(args: readonly string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i]!;
    if (arg === '--db') i++;
    else if (!arg.startsWith('-')) words.push(arg);
  }
  return words[0] === 'help' ? words[1] : words[0];
}

/** The program, with the command `argv` names loaded whole and the others as stand-ins. */
export async function buildCli(argv: readonly string[] = process.argv): Promise<Command> {
  const wanted = requestedCommand(argv.slice(2));
  const terms = new Map(COMMANDS.map((c) => [c.name, c.term]));
  const program = new Command('risklookup')
    .description('Company Risk Lookup Service: serve the API and administer its data')
    .option('--db <url>', 'database: sqlite:PATH or postgres://... (default: $DATABASE_URL, else sqlite:./data/risklookup.db)')
    .option('--json', 'print one JSON object on stdout')
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? new Help().subcommandTerm(cmd) })
    .exitOverride();
  for (const entry of COMMANDS) {
    program.addCommand(entry.name === wanted ? await entry.load() : new Command(entry.name).description(entry.description));
  }
  const exitOverrideAll = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(exitOverrideAll);
  };
  exitOverrideAll(program);
  return program;
}

/**
 * The one place an error becomes an exit status (D23): 0 for help and version, 2 for a usage
 * error (commander's own, or UsageError), 1 for everything else. Returns the line for stderr.
 */
export function exitStatusOf(error: unknown): { status: 0 | 1 | 2; message: string | null } {
  // commander has printed its own message (and help after an error).
  if (error instanceof CommanderError) return { status: error.exitCode === 0 ? 0 : 2, message: null };
  if (error instanceof UsageError) return { status: 2, message: error.message };
  // CommandError, a service's DomainError or AppError, ImportFailed, and anything unforeseen.
  return { status: 1, message: (error as Error | null)?.message ?? String(error) };
}

export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await (await buildCli(argv)).parseAsync([...argv]);
    return 0;
  } catch (error) {
    const { status, message } = exitStatusOf(error);
    if (message !== null) process.stderr.write(`risklookup: ${message}\n`);
    return status;
  }
}
