import { Command } from 'commander';
import { openEngine } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createOutput } from '../output.ts';
import { globalOptions } from '../context.ts';

export function migrateCommand(): Command {
  return new Command('migrate').description('bring the database schema up to date').action(async (_opts: unknown, cmd: Command) => {
    const { db, json } = globalOptions(cmd);
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
