import { Command, Option } from 'commander';
import { UsageError } from '../command-errors.ts';
import { listMemberViews, MEMBER_STATUSES, TIERS, type MemberView } from '../../members/members.service.ts';
import { cliActor } from '../../actors/actor.ts';
import { createServices } from '../../services.ts';
import { cliUser, withContext } from '../context.ts';

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
        const { result: view } = await createServices({ db: engine.db, clock }).memberAdmin.addMember(cliActor(cliUser()), {
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
    .action(
      async (
        ref: string,
        opts: { status?: 'active' | 'suspended' | 'terminated'; tier?: 'full' | 'associate'; agreementSigned?: boolean; agreementUnsigned?: boolean },
        cmd: Command,
      ) => {
        if (!opts.status && !opts.tier && !opts.agreementSigned && !opts.agreementUnsigned) {
          throw new UsageError('nothing to change: give --status, --tier, --agreement-signed or --agreement-unsigned');
        }
        return withContext(cmd, async ({ engine, clock, out }) => {
          const agreementSigned = opts.agreementSigned ? true : opts.agreementUnsigned ? false : undefined;
          const changes = { status: opts.status, tier: opts.tier, agreementSigned };
          const { result: view } = await createServices({ db: engine.db, clock }).memberAdmin.setMember(cliActor(cliUser()), { ref, changes });
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
