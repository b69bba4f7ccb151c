import { readWholeNumber } from '../../lib/whole-number.ts';
import { Command } from 'commander';
import { UsageError } from '../command-errors.ts';
import { cliUser, commandServices, withContext } from '../context.ts';
import { cliActor } from '../../actors/actor.ts';

function parseLimit(raw: string): number {
  const read = readWholeNumber('--daily-limit', raw, 1, 10_000_000);
  if ('problem' in read) throw new UsageError(read.problem);
  return read.value;
}

export function keyCommand(defaultDailyLimit: number): Command {
  const key = new Command('key').description('issue and revoke API keys (D16)');
  key
    .command('issue')
    .description("issue a key (shown once); the member's previous key is revoked")
    .argument('<ref>', 'membership number')
    .option(
      '--daily-limit <n>',
      `the member's API queries per day, all its keys together (default: the member's current limit, else ${defaultDailyLimit}); the new key continues today's count`,
    )
    .action(async (ref: string, opts: { dailyLimit?: string }, cmd: Command) => {
      const limit = opts.dailyLimit === undefined ? undefined : parseLimit(opts.dailyLimit);
      return withContext(cmd, async ({ engine, clock, out }) => {
        const { result: issued } = await commandServices({ engine, clock }).memberAdmin.issueKey(cliActor(cliUser()), {
          ref,
          ...(limit === undefined ? {} : { dailyLimit: limit }),
          defaultDailyLimit,
        });
        out.result({ member: issued.member, key: issued.key, prefix: issued.prefix, daily_limit: issued.daily_limit }, [issued.key]);
        out.info(
          `issued key ${issued.prefix}… for ${issued.member} (${issued.daily_limit} queries/day)` +
            `${issued.revoked ? '; the previous key is revoked' : ''}. It is shown only now: store it in a secret store.`,
        );
      });
    });
  key
    .command('revoke')
    .description("revoke the member's active key")
    .argument('<ref>', 'membership number')
    .action(async (ref: string, _opts: unknown, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const { result } = await commandServices({ engine, clock }).memberAdmin.revokeKey(cliActor(cliUser()), { ref });
        out.result(result, `revoked the active key of ${result.member}`);
      }),
    );
  return key;
}
