import { Command } from 'commander';
import { withContext } from '../context.ts';

export function reportCommand(): Command {
  const report = new Command('report').description('move reports through their lifecycle (D11)');
  report
    .command('status')
    .description('one lifecycle step: pending → approved|rejected, approved → withdrawn|deactivated')
    .argument('<id-or-ref>', 'report id or external ref')
    .argument('<status>', 'new status')
    .action(async (idOrRef: string, status: string, _opts: unknown, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const { changeReportStatus } = await import('../../reports/reports.service.ts');
        const change = await changeReportStatus(engine.db, clock, idOrRef, status, 'cli');
        out.result(
          { report_id: change.reportId, ref: change.ref, from: change.from, to: change.to },
          `report ${change.reportId}${change.ref ? ` (${change.ref})` : ''}: ${change.from} → ${change.to}`,
        );
      }),
    );
  return report;
}
