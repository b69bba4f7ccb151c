import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { readWholeNumber } from '../../lib/whole-number.ts';
import { Command } from 'commander';
import { UsageError } from '../command-errors.ts';
import { cliActor } from '../../actors/actor.ts';
import { generateCompanyLines, generatedMemberRefs } from '../../generate/generate.ts';
import { cliUser, commandServices, withContext } from '../context.ts';

function count(name: string, raw: string, max: number): number {
  const read = readWholeNumber(name, raw, 1, max);
  if ('problem' in read) throw new UsageError(read.problem);
  return read.value;
}

export function generateCommand(): Command {
  return new Command('generate')
    .description('write realistic synthetic companies in the import format (D24); adds the members they name to --db')
    .requiredOption('--companies <n>', 'how many companies')
    .requiredOption('--out <file>', 'JSON Lines file to write')
    .option('--members <n>', 'members that file claims', '500')
    .option('--seed <n>', 'the same seed gives the same file', '1')
    .action(async (opts: { companies: string; out: string; members: string; seed: string }, cmd: Command) => {
      const companies = count('--companies', opts.companies, 100_000_000);
      const members = count('--members', opts.members, 100_000);
      const seed = count('--seed', opts.seed, 1_000_000);
      return withContext(cmd, async ({ engine, clock, out }) => {
        const memberInputs = generatedMemberRefs(members).map((ref) => ({ ref, name: `Generated member ${ref}`, agreementSigned: true }));
        await commandServices({ engine, clock }).memberAdmin.addMissingMembers(cliActor(cliUser()), memberInputs);
        const started = Date.now();
        const file = createWriteStream(opts.out);
        let written = 0;
        for (const line of generateCompanyLines({ companies, members, seed })) {
          if (!file.write(`${line}\n`)) await once(file, 'drain');
          if (++written % 100_000 === 0 && process.stderr.isTTY) process.stderr.write(`\rgenerated ${written.toLocaleString('en')} companies`);
        }
        file.end();
        await once(file, 'finish');
        if (process.stderr.isTTY && written >= 100_000) process.stderr.write('\n');
        out.result(
          { out: opts.out, companies, members, seed, seconds: (Date.now() - started) / 1000 },
          `wrote ${companies} companies to ${opts.out} in ${((Date.now() - started) / 1000).toFixed(1)} s; members GM-00001…GM-${String(members).padStart(5, '0')} are in ${engine.description}`,
        );
      });
    });
}
