import { Command } from 'commander';
import { cliActor } from '../../actors/actor.ts';
import { DAY_MS } from '../../audit/audit-retention.ts';
import { UsageError } from '../command-errors.ts';
import { cliUser, commandServices, withContext } from '../context.ts';

/** `365d`, `12h` → milliseconds. */
export function parseAge(text: string): number {
  const m = /^([0-9]{1,6})([dh])$/.exec(text.trim());
  if (!m || Number(m[1]) === 0) throw new UsageError(`--older-than must look like 365d or 48h, got '${text}'`);
  return Number(m[1]) * (m[2] === 'd' ? DAY_MS : DAY_MS / 24);
}

export function auditCommand(): Command {
  const audit = new Command('audit').description('the audit trail of search requests (D21)');
  audit
    .command('purge')
    .description('delete audit records older than the given age')
    .requiredOption('--older-than <age>', 'e.g. 365d or 48h')
    .action(async (opts: { olderThan: string }, cmd: Command) => {
      const age = parseAge(opts.olderThan);
      return withContext(cmd, async ({ engine, clock, out }) => {
        const deleted = await commandServices({ engine, clock }).auditRetention.purge(cliActor(cliUser()), { olderThanMs: age });
        out.result({ deleted, older_than: opts.olderThan }, `deleted ${deleted} audit records older than ${opts.olderThan}`);
      });
    });
  return audit;
}
