import { Command, Option } from 'commander';
import { UsageError } from '../command-errors.ts';
import { MEMBER_STATUSES, TIERS, type MemberView } from '../../members/members.service.ts';
import type { MemberState } from '../../operator/member-admin.service.ts';
import { readWholeNumber } from '../../lib/whole-number.ts';
import { cliActor } from '../../actors/actor.ts';
import { readWatchlistCap } from '../../watchlist/watchlist.service.ts';
import { cliUser, commandServices, withContext } from '../context.ts';

const describe = (m: MemberView) =>
  `${m.ref}  ${m.name}  tier=${m.tier}  status=${m.status}  agreement=${m.agreement_signed_on ?? 'unsigned'}` +
  `  daily_limit=${m.daily_limit ?? 'default'}  portal_daily_limit=${m.portal_daily_limit ?? 'default'}`;

/** The member as the CLI prints it (`member add`, `set`, `list`), from the state the use cases return. */
const viewOf = (m: MemberState): MemberView => ({
  ref: m.ref,
  name: m.name,
  tier: m.tier,
  status: m.status,
  agreement_signed_on: m.agreement_signed_on,
  daily_limit: m.key_daily_limit,
  portal_daily_limit: m.portal_daily_limit,
});

function limitOf(option: string, raw: string): number {
  const read = readWholeNumber(option, raw, 1, 1_000_000);
  if ('problem' in read) throw new UsageError(read.problem);
  return read.value;
}

export function memberCommand(): Command {
  const member = new Command('member').description('add, change and list members (D15)');
  member
    .command('add')
    .description('add an active member')
    .argument('<ref>', 'membership number')
    .requiredOption('--name <name>', 'member name')
    .addOption(new Option('--tier <tier>', 'membership tier').choices(TIERS).default('full'))
    .option('--agreement-signed', 'the data agreement is signed (today)')
    .action(async (ref: string, opts: { name: string; tier: 'full' | 'associate'; agreementSigned?: boolean }, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const { result: view } = await commandServices({ engine, clock }).memberAdmin.addMember(cliActor(cliUser()), {
          ref,
          name: opts.name,
          tier: opts.tier,
          agreementSigned: opts.agreementSigned === true,
        });
        out.result(view, `added ${describe(view)}`);
      }),
    );
  member
    .command('set')
    .description('change a member')
    .argument('<ref>', 'membership number')
    .addOption(new Option('--status <status>', 'membership status').choices(MEMBER_STATUSES))
    .addOption(new Option('--tier <tier>', 'membership tier').choices(TIERS))
    .addOption(new Option('--agreement-signed', 'the data agreement is signed').conflicts('agreementUnsigned'))
    .option('--agreement-unsigned', 'the data agreement is not (or no longer) signed')
    .option('--daily-limit <n>', "API searches a day, all the member's keys together; applies at once to today (D18)")
    .option('--portal-daily-limit <n>', "portal searches a day, all the member's users together; applies at once to today (D28)")
    .option('--watchlist-cap <n>', "companies the member may watch (D31), or 'default' for the server's (500 unless RISKLOOKUP_WATCHLIST_CAP)")
    .action(
      async (
        ref: string,
        opts: {
          status?: 'active' | 'suspended' | 'terminated';
          tier?: 'full' | 'associate';
          agreementSigned?: boolean;
          agreementUnsigned?: boolean;
          dailyLimit?: string;
          portalDailyLimit?: string;
          watchlistCap?: string;
        },
        cmd: Command,
      ) => {
        const changesMember = Boolean(opts.status || opts.tier || opts.agreementSigned || opts.agreementUnsigned);
        if (!changesMember && opts.dailyLimit === undefined && opts.portalDailyLimit === undefined && opts.watchlistCap === undefined) {
          throw new UsageError(
            'nothing to change: give --status, --tier, --agreement-signed, --agreement-unsigned, --daily-limit, --portal-daily-limit or --watchlist-cap',
          );
        }
        const readCap = opts.watchlistCap === undefined ? undefined : readWatchlistCap('--watchlist-cap', opts.watchlistCap);
        if (readCap !== undefined && 'problem' in readCap) throw new UsageError(readCap.problem);
        const cap = readCap?.value;
        const dailyLimit = opts.dailyLimit === undefined ? undefined : limitOf('--daily-limit', opts.dailyLimit);
        const portalDailyLimit = opts.portalDailyLimit === undefined ? undefined : limitOf('--portal-daily-limit', opts.portalDailyLimit);
        return withContext(cmd, async ({ engine, clock, out }) => {
          const { memberAdmin: admin, watchlist } = commandServices({ engine, clock });
          const actor = cliActor(cliUser());
          let state: MemberState | undefined;
          if (dailyLimit !== undefined) state = (await admin.setKeyDailyLimit(actor, { ref, dailyLimit })).state;
          if (portalDailyLimit !== undefined) state = (await admin.setPortalDailyLimit(actor, { ref, dailyLimit: portalDailyLimit })).state;
          if (cap !== undefined) {
            const set = await watchlist.setCap(actor, { ref, cap });
            if (!changesMember && dailyLimit === undefined && portalDailyLimit === undefined) {
              out.result(set, `${ref}: watchlist cap ${cap === null ? 'the server default' : String(cap)}`);
              return;
            }
          }
          const agreementSigned = opts.agreementSigned ? true : opts.agreementUnsigned ? false : undefined;
          const changes = { status: opts.status, tier: opts.tier, agreementSigned };
          // Without a change of the member itself, a limit was set (a cap alone answered above): its state after.
          const view = changesMember ? (await admin.setMember(actor, { ref, changes })).result : viewOf(state!);
          out.result(view, `changed ${describe(view)}`);
        });
      },
    );
  member
    .command('list')
    .description('list members')
    .action(async (_opts: unknown, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const members = (await commandServices({ engine, clock }).memberAdmin.listMembers(cliActor(cliUser()))).map(viewOf);
        out.result({ members }, members.length === 0 ? 'no members yet' : members.map(describe));
      }),
    );
  return member;
}
