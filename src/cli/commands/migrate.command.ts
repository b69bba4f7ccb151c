import { Command } from 'commander';
import { createOutput } from '../output.ts';
import { globalOptions } from '../context.ts';

export function migrateCommand(): Command {
  return new Command('migrate').description('bring the database schema up to date').action(async (_opts: unknown, cmd: Command) => {
    const { db, json } = globalOptions(cmd);
    // Loaded here, not at start: help and usage errors answer without the database drivers.
    const [{ openEngine }, { migrateToLatest }] = await Promise.all([import('../../db/connect.ts'), import('../../db/migrate.ts')]);
    const engine = openEngine(db);
    try {
      const applied = await migrateToLatest(engine);
      createOutput(json).result(
        { database: engine.description, applied },
        applied.length ? `applied ${applied.join(', ')} on ${engine.description}` : `${engine.description} is up to date`,
      );
    } finally {
      await engine.close();
    }
  });
}
