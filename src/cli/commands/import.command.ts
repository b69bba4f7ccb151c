import { existsSync, statSync } from 'node:fs';
import { Command } from 'commander';
import { CommandError } from '../command-errors.ts';
import { importHeapGrowthOf } from '../../config.ts';
import { readRetentionSettings } from '../../retention/retention-settings.ts';
import { applyHeapGrowth } from '../../serve/heap-growth.ts';
import { withContext } from '../context.ts';

/** A progress bar with percent, rate and ETA, redrawn in place on a terminal. */
function progressReporter(enabled: boolean, totalBytes: number) {
  const started = Date.now();
  let last = 0;
  return {
    update: (lines: number, bytes: number) => {
      const now = Date.now();
      if (!enabled || now - last < 250) return;
      last = now;
      const seconds = Math.max(0.001, (now - started) / 1000);
      const rate = Math.round(lines / seconds);
      const share = totalBytes > 0 ? Math.min(1, bytes / totalBytes) : 0;
      const bar = '#'.repeat(Math.round(share * 20)).padEnd(20, '.');
      const eta = share > 0 ? Math.round(seconds / share - seconds) : NaN;
      process.stderr.write(
        `\rimporting [${bar}] ${(share * 100).toFixed(0).padStart(3)}%  ${lines.toLocaleString('en')} lines  ` +
          `${rate.toLocaleString('en')} lines/s  ETA ${Number.isNaN(eta) ? '?' : `${eta} s`}   `,
      );
    },
    done: () => {
      if (enabled && last > 0) process.stderr.write('\n');
    },
  };
}

export function importCommand(): Command {
  return new Command('import')
    .description('import companies and reports from a JSON Lines file (D24); all or nothing')
    .argument('<file>', 'JSON Lines file, one company per line')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      if (!existsSync(file)) throw new CommandError(`no such file: ${file}`);
      // D34: the server's retention settings decide which reports arrive already past their end (written `expired`).
      const retention = readRetentionSettings({}, process.env);
      if (retention.problems.length > 0) throw new CommandError(`${retention.problems.join('\n')}\nnothing was imported: fix the settings and import again`);
      const heapGrowth = importHeapGrowthOf(process.env);
      if (heapGrowth.problems.length > 0) throw new CommandError(`${heapGrowth.problems.join('\n')}\nnothing was imported: fix the setting and import again`);
      return withContext(cmd, async ({ engine, clock, out }) => {
        // PostgreSQL: a batch's rows outlive young collections while its COPY streams; a bounded old space keeps the peak down.
        if (engine.seam.kind === 'postgres') applyHeapGrowth(heapGrowth.percent);
        const [{ buildCountryCatalogue }, { importFile, ImportFailed }] = await Promise.all([
          import('../../countries/catalogue.ts'),
          import('../../import/import.service.ts'),
        ]);
        const progress = progressReporter(process.stderr.isTTY === true && !out.json, statSync(file).size);
        const started = Date.now();
        try {
          const summary = await importFile(engine, file, {
            countries: buildCountryCatalogue(),
            clock,
            retention: retention.settings,
            onProgress: progress.update,
            onNotice: (message) => process.stderr.write(`${message}\n`),
          });
          progress.done();
          const seconds = (Date.now() - started) / 1000;
          out.result({ ok: true, ...summary, seconds }, [
            `imported ${file}: ${summary.lines} lines in ${seconds.toFixed(1)} s`,
            `  companies: ${summary.companiesAdded} added, ${summary.companiesUpdated} updated`,
            `  reports:   ${summary.reportsAdded} added, ${summary.reportsUpdated} updated`,
            ...(summary.reportsExpired > 0
              ? [`  ${summary.reportsExpired} of them already past their retention end (D34): kept as expired, for operators only`]
              : []),
          ]);
        } catch (error) {
          progress.done();
          if (!(error instanceof ImportFailed)) throw error;
          if (out.json) {
            out.result({ ok: false, lines: error.lines, errors: error.problems }, '');
          } else {
            process.stderr.write(`${error.problems.join('\n')}\n`);
          }
          throw new CommandError(`${error.message} (${error.lines} lines read). Fix the lines above and import again`);
        }
      });
    });
}
