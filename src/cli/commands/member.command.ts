import { Command, Option } from 'commander';
import { UsageError } from '../command-errors.ts';
import { listMemberViews, MEMBER_STATUSES, TIERS, type MemberView } from '../../members/members.service.ts';
import { addMemberFromCli, setMemberFromCli } from '../../operator/member-admin.service.ts';
import { cliUser, withContext } from '../context.ts';
import { setWatchlistCap } from '../../watchlist/watchlist.service.ts';

const describe = (m: MemberView) => `${m.ref}  ${m.name}  tier=${m.tier}  status=${m.status}  agreement=${m.agreement_signed_on ?? 'unsigned'}`;

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
        const view = await addMemberFromCli({ db: engine.db, clock }, cliUser(), {
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
    .option('--watchlist-cap <n>', "companies the member may watch (D31), or 'default' for the server's (500 unless RISKLOOKUP_WATCHLIST_CAP)")
    .action(
      async (
        ref: string,
        opts: {
          status?: 'active' | 'suspended' | 'terminated';
          tier?: 'full' | 'associate';
          agreementSigned?: boolean;
          agreementUnsigned?: boolean;
          watchlistCap?: string;
        },
        cmd: Command,
      ) => {
        if (!opts.status && !opts.tier && !opts.agreementSigned && !opts.agreementUnsigned && opts.watchlistCap === undefined) {
          throw new UsageError('nothing to change: give --status, --tier, --agreement-signed, --agreement-unsigned or --watchlist-cap');
        }
        const cap = opts.watchlistCap === undefined ? undefined : opts.watchlistCap.trim().toLowerCase() === 'default' ? null : Number(opts.watchlistCap);
        if (cap !== undefined && cap !== null && (!/^[0-9]{1,7}$/.test(opts.watchlistCap!.trim()) || cap > 1_000_000)) {
          throw new UsageError(`--watchlist-cap must be a whole number from 0 to 1000000, or default; got '${opts.watchlistCap}'`);
        }
        return withContext(cmd, async ({ engine, clock, out }) => {
          if (cap !== undefined) {
            const set = await setWatchlistCap({ db: engine.db, clock }, { cli: cliUser() }, ref, cap);
            if (!opts.status && !opts.tier && !opts.agreementSigned && !opts.agreementUnsigned) {
              out.result(set, `${ref}: watchlist cap ${cap === null ? 'the server default' : String(cap)}`);
              return;
            }
          }
          const agreementSigned = opts.agreementSigned ? true : opts.agreementUnsigned ? false : undefined;
          const view = await setMemberFromCli({ db: engine.db, clock }, cliUser(), ref, { status: opts.status, tier: opts.tier, agreementSigned });
          out.result(view, `changed ${describe(view)}`);
        });
      },
    );
  member
    .command('list')
    .description('list members')
    .action(async (_opts: unknown, cmd: Command) =>
      withContext(cmd, async ({ engine, out }) => {
        const members = await listMemberViews(engine.db);
        out.result({ members }, members.length === 0 ? 'no members yet' : members.map(describe));
      }),
    );
  return member;
}
