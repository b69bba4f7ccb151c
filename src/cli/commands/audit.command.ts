import { Command } from 'commander';
import { parseAge, purgeAudit } from '../../audit/audit-retention.ts';
import { withContext } from '../context.ts';

export function auditCommand(): Command {
  const audit = new Command('audit').description('the audit trail of search requests (D21)');
  audit
    .command('purge')
    .description('delete audit records older than the given age')
    .requiredOption('--older-than <age>', 'e.g. 365d or 48h')
    .action(async (opts: { olderThan: string }, cmd: Command) => {
      const age = parseAge(opts.olderThan);
      return withContext(cmd, async ({ engine, clock, out }) => {
        const deleted = await purgeAudit(engine.db, clock, age);
        out.result({ deleted, older_than: opts.olderThan }, `deleted ${deleted} audit records older than ${opts.olderThan}`);
      });
    });
  return audit;
}
