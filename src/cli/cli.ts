/** `risklookup`: the one program (D23). Exit 0 success, 1 failure, 2 usage error. */
import { Command, CommanderError } from 'commander';
import { UsageError } from './command-errors.ts';
import { auditCommand } from './commands/audit.command.ts';
import { copyCommand } from './commands/copy.command.ts';
import { generateCommand } from './commands/generate.command.ts';
import { importCommand } from './commands/import.command.ts';
import { keyCommand } from './commands/key.command.ts';
import { memberCommand } from './commands/member.command.ts';
import { migrateCommand } from './commands/migrate.command.ts';
import { reportCommand } from './commands/report.command.ts';
import { serveCommand } from './commands/serve.command.ts';
import { usageCommand } from './commands/usage.command.ts';

export function buildCli(): Command {
  const program = new Command('risklookup')
    .description('Company Risk Lookup Service: serve the API and administer its data')
    .option('--db <url>', 'database: sqlite:PATH or postgres://... (default: $DATABASE_URL, else sqlite:./data/risklookup.db)')
    .option('--json', 'print one JSON object on stdout')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  const defaultDailyLimit = Number(process.env.RISKLOOKUP_DAILY_LIMIT ?? 100) || 100;
  for (const command of [serveCommand(), migrateCommand(), memberCommand(), keyCommand(defaultDailyLimit), importCommand(), reportCommand(), usageCommand(), auditCommand(), copyCommand(), generateCommand()]) {
    program.addCommand(command);
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
    await buildCli().parseAsync([...argv]);
    return 0;
  } catch (error) {
    const { status, message } = exitStatusOf(error);
    if (message !== null) process.stderr.write(`risklookup: ${message}\n`);
    return status;
  }
}
