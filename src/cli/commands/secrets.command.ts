/**
 * `risklookup secrets` (D35): make a key for the ring, re-seal every stored secret under the
 * ring's newest key, and count what each key holds. No key or secret is ever printed but the one
 * `generate-key` makes.
 */
import { Command } from 'commander';
import { generateKeyEntry, KeyRingError, type KeyRing } from '../../secrets/key-ring.ts';
import { requireKeyRing } from '../../secrets/key-ring-source.ts';
import type { UnreadableSecret } from '../../secrets/secrets.service.ts';
import { CommandError, UsageError } from '../command-errors.ts';
import { cliUser, commandServices, globalOptions, withContext } from '../context.ts';
import { createOutput } from '../output.ts';

function ringFor(command: string): KeyRing {
  try {
    return requireKeyRing(`'risklookup secrets ${command}'`);
  } catch (error) {
    throw error instanceof KeyRingError ? new CommandError(error.message) : error;
  }
}

const where = (u: UnreadableSecret) => `${u.table}.${u.column} row ${u.id}${u.keyId ? ` (key '${u.keyId}')` : ''}: ${u.reason}`;

export function secretsCommand(): Command {
  const secrets = new Command('secrets').description('make a key for the secret key ring, re-seal stored secrets under its newest key, count them (D35)');
  secrets
    .command('generate-key')
    .description('print a new key entry, ID:rlsk1_…, to add at the end of RISKLOOKUP_SECRET_KEYS (it is printed once, here only)')
    .option('--id <id>', "the key's id, 1 to 32 letters, digits, '-' or '_' (default: k<today>-<random>)")
    .action((opts: { id?: string }, cmd: Command) => {
      let entry: string;
      try {
        entry = generateKeyEntry(opts.id);
      } catch (error) {
        throw error instanceof KeyRingError ? new UsageError(error.message) : error;
      }
      createOutput(globalOptions(cmd).json).result({ key: entry, id: entry.split(':')[0] }, entry);
    });
  secrets
    .command('rotate')
    .description("re-seal every stored secret under the ring's newest (last) key; lists any the ring cannot open")
    .action(async (_opts: unknown, cmd: Command) => {
      const ring = ringFor('rotate');
      return withContext(cmd, async ({ engine, clock, out }) => {
        const report = await commandServices({ engine, clock }, { keyRing: ring }).secrets.rotate({ kind: 'cli', user: cliUser() });
        const data = {
          newest_key: ring.newestId,
          resealed: report.resealed,
          sealed_from_clear: report.sealedFromClear,
          current: report.current,
          unreadable: report.unreadable,
        };
        if (report.unreadable.length > 0) {
          out.result(data, [
            `re-sealed ${report.resealed} under '${ring.newestId}'; ${report.unreadable.length} could not be opened:`,
            ...report.unreadable.map(where),
          ]);
          const remedies = [...new Set(report.unreadable.map((u) => `${u.table}.${u.column}: ${u.ifKeyLost}`))];
          throw new CommandError(
            `${report.unreadable.length} stored secret(s) could not be opened by this ring: put the key they name back in the ring and run 'secrets rotate' again; ` +
              `if that key is lost: ${remedies.join('; ')}`,
          );
        }
        out.result(data, [
          `re-sealed ${report.resealed} secret(s) under key '${ring.newestId}'${report.sealedFromClear > 0 ? `, sealed ${report.sealedFromClear} stored in clear` : ''}; ${report.current} already were`,
          `every stored secret is now under '${ring.newestId}': keys before it can be removed from the ring once every process runs with this ring`,
        ]);
      });
    });
  secrets
    .command('status')
    .description('count the stored secrets under each key, and any the ring cannot open')
    .action(async (_opts: unknown, cmd: Command) => {
      const ring = ringFor('status');
      return withContext(cmd, async ({ engine, clock, out }) => {
        const counts = await commandServices({ engine, clock }, { keyRing: ring }).secrets.count({ kind: 'cli', user: cliUser() });
        const lines = counts.map(
          (c) =>
            `${c.table}.${c.column} (${c.what}): ${c.count} under ${c.key === 'clear' ? 'no key (in clear: start serve or run secrets rotate)' : `'${c.key}'${c.inRing ? (c.key === ring.newestId ? ' (newest)' : '') : ' — NOT IN THE RING'}`}`,
        );
        out.result({ newest_key: ring.newestId, ring: ring.ids(), counts }, [
          `ring: ${ring.ids().join(', ')} (newest: ${ring.newestId})`,
          ...(lines.length > 0 ? lines : ['no stored secrets']),
        ]);
      });
    });
  return secrets;
}
