import { Command } from 'commander';
import { createOutput } from '../output.ts';
import { globalOptions } from '../context.ts';

export function copyCommand(): Command {
  return new Command('copy')
    .description('copy a whole installation to another, empty database (e.g. SQLite to PostgreSQL)')
    .requiredOption('--from <url>', 'source database URL')
    .requiredOption('--to <url>', 'target database URL (created tables must be empty)')
    .action(async (opts: { from: string; to: string }, cmd: Command) => {
      const out = createOutput(globalOptions(cmd).json);
      // Loaded here, not at start: help and usage errors answer without the database drivers.
      const [{ openEngine }, { copyDatabase }, { migrateToLatest }] = await Promise.all([
        import('../../db/connect.ts'),
        import('../../db/copy.ts'),
        import('../../db/migrate.ts'),
      ]);
      const from = openEngine(opts.from);
      const to = openEngine(opts.to);
      try {
        await migrateToLatest(from);
        await migrateToLatest(to);
        let lastReport = 0;
        const counts = await copyDatabase(from, to, (table, rows) => {
          if (process.stderr.isTTY && Date.now() - lastReport > 250) {
            lastReport = Date.now();
            process.stderr.write(`\rcopying ${table}: ${rows.toLocaleString('en')} rows   `);
          }
        });
        if (process.stderr.isTTY && lastReport > 0) process.stderr.write('\n');
        out.result({ from: from.description, to: to.description, counts }, [
          `copied ${from.description} → ${to.description}; verified row counts:`,
          ...Object.entries(counts).map(([t, n]) => `  ${t.padEnd(22)} ${n}`),
        ]);
      } finally {
        await from.close();
        await to.close();
      }
    });
}
