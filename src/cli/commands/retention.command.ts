/**
 * `risklookup retention run [--dry-run]` (D34): the daily retention job by hand, with the server's
 * settings. `--dry-run` prints what a run now would expire and delete (counts and ids) and writes
 * nothing. Safe beside a running server's job: a report is expired or deleted once, by whichever
 * run gets to it first, and each run logs its own work (operator log, actor `cli:<user>`).
 */
import { Command } from 'commander';
import { formatTurkeyDateTime } from '../../lib/turkey-time.ts';
import type { RetentionOutcome } from '../../retention/retention.service.ts';
import { cliActor } from '../../actors/actor.ts';
import { CommandError, SettingsError } from '../command-errors.ts';
import { cliUser, commandServices, withContext } from '../context.ts';

/** Ids shown per line in the text output; --json lists them all. */
const SHOWN_IDS = 50;

function idList(ids: readonly number[]): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, SHOWN_IDS).join(', ');
  return ids.length > SHOWN_IDS ? `: ${shown} … and ${ids.length - SHOWN_IDS} more (--json lists all)` : `: ${shown}`;
}

export function describeRetention(outcome: RetentionOutcome, dryRun: boolean): string[] {
  const verb = (done: string, would: string) => (dryRun ? would : done);
  const lines = [`${dryRun ? 'dry run, nothing written' : 'retention run'} at ${formatTurkeyDateTime(outcome.at)} (Turkey time)`];
  lines.push(`${verb('expired', 'would expire')} ${outcome.expired.count} report(s)`);
  for (const [type, ids] of Object.entries(outcome.expired.byType)) lines.push(`  ${type}: ${ids.length}${idList(ids)}`);
  lines.push(`${verb('deleted', 'would delete')} ${outcome.deleted.count} expired report(s) with their history${idList(outcome.deleted.ids)}`);
  lines.push(`${verb('deleted', 'would delete')} ${outcome.audit.deleted} search audit record(s) from before ${formatTurkeyDateTime(outcome.audit.before)}`);
  lines.push(`${verb('deleted', 'would delete')} ${outcome.lookupMonths.deleted} lookup count(s) of months before ${outcome.lookupMonths.before}`);
  if (outcome.changedMeanwhile.length > 0) {
    lines.push(`left for the next run, changed by someone meanwhile: ${outcome.changedMeanwhile.length}${idList(outcome.changedMeanwhile)}`);
  }
  return lines;
}

export function retentionCommand(): Command {
  const retention = new Command('retention').description('expire and delete reports past their retention, purge old audit records (D34); --dry-run shows what');
  retention
    .command('run')
    .description('expire reports past their retention end, delete expired ones past their keeping, purge old audit records; as the daily job does')
    .option('--dry-run', 'print what would be expired and deleted (counts and ids), change nothing')
    .action(async (opts: { dryRun?: boolean }, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        // The server's settings: RISKLOOKUP_RETENTION_MONTHS_<TYPE>, RISKLOOKUP_EXPIRED_KEPT_MONTHS, RISKLOOKUP_AUDIT_RETENTION_DAYS.
        let service;
        try {
          service = commandServices({ engine, clock }).retention;
        } catch (error) {
          if (error instanceof SettingsError) throw new CommandError(`${error.problem}\nnothing was expired or deleted: fix the settings and run again`);
          throw error;
        }
        const dryRun = opts.dryRun === true;
        const outcome = dryRun ? await service.plan() : await service.run(cliActor(cliUser()));
        out.result(
          {
            dry_run: dryRun,
            ...outcome,
            at: new Date(outcome.at).toISOString(),
            audit: { ...outcome.audit, before: new Date(outcome.audit.before).toISOString() },
          },
          describeRetention(outcome, dryRun),
        );
      }),
    );
  return retention;
}
