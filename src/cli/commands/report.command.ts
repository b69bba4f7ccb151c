import { Command } from 'commander';
import { UsageError } from '../command-errors.ts';
import { cliUser, commandServices, withContext } from '../context.ts';
import { cliActor } from '../../actors/actor.ts';

/** D29: a rejection or a deactivation says why; the member sees the reason. */
const NEEDS_REASON = new Set(['rejected', 'deactivated']);

export function reportCommand(): Command {
  const report = new Command('report').description('move reports through their lifecycle (D11)');
  report
    .command('status')
    .description('one lifecycle step: pending → approved|rejected, approved → withdrawn|deactivated; kept in the history and the operator log')
    .argument('<id-or-ref>', 'report id or external ref')
    .argument('<status>', 'new status')
    .option('--reason <text>', 'why (required to reject or deactivate; a filing member sees it)')
    .action(async (idOrRef: string, status: string, opts: { reason?: string }, cmd: Command) => {
      if (NEEDS_REASON.has(status) && (opts.reason ?? '').trim() === '') {
        throw new UsageError(`--reason TEXT is required to make a report ${status}: say why (the filing member sees it)`);
      }
      return withContext(cmd, async ({ engine, clock, out }) => {
        const change = await commandServices({ engine, clock }).moderation.setReportStatus(cliActor(cliUser()), {
          idOrRef,
          to: status,
          reason: opts.reason,
        });
        out.result(
          { report_id: change.reportId, ref: change.ref, from: change.from, to: change.to, reason: change.reason },
          `report ${change.reportId}${change.ref ? ` (${change.ref})` : ''}: ${change.from} → ${change.to}${change.reason ? ` (${change.reason})` : ''}`,
        );
      });
    });
  return report;
}
