import { Command } from 'commander';
import { cliActor } from '../../actors/actor.ts';
import { cliUser, commandServices, withContext } from '../context.ts';

export function usageCommand(): Command {
  return new Command('usage')
    .description("a member's answered queries per day (Turkey time), newest first")
    .argument('<ref>', 'membership number')
    .action(async (ref: string, _opts: unknown, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const usage = await commandServices({ engine, clock }).memberUsage.apiByDay(cliActor(cliUser()), { ref });
        out.result(
          usage,
          usage.days.length === 0 ? `${usage.member}: no queries yet` : [`${usage.member}:`, ...usage.days.map((d) => `  ${d.day}  ${d.used}`)],
        );
      }),
    );
}
