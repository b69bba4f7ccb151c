/** `risklookup`: the one program (D23). Exit 0 success, 1 failure, 2 usage error. */
import { Command, CommanderError } from 'commander';
import { CommandError, UsageError } from '../lib/errors.ts';
import { ImportFailed } from '../import/import.service.ts';
import { auditCommand } from './commands/audit.command.ts';
import { copyCommand } from './commands/copy.command.ts';
import { generateCommand } from './commands/generate.command.ts';
import { importCommand } from './commands/import.command.ts';
import { keyCommand } from './commands/key.command.ts';
import { memberCommand } from './commands/member.command.ts';
import { migrateCommand } from './commands/migrate.command.ts';
import { reportCommand } from './commands/report.command.ts';
import { searchCommand } from './commands/search.command.ts';
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
  for (const command of [serveCommand(), migrateCommand(), memberCommand(), keyCommand(defaultDailyLimit), importCommand(), reportCommand(), usageCommand(), searchCommand(), auditCommand(), copyCommand(), generateCommand()]) {
    program.addCommand(command);
  }
  const exitOverrideAll = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(exitOverrideAll);
  };
  exitOverrideAll(program);
  return program;
}

export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildCli().parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are exit 0; every other parse problem is a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CommandError || error instanceof ImportFailed) {
      process.stderr.write(`risklookup: ${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    process.stderr.write(`risklookup: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
