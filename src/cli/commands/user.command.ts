import { Command, Option } from 'commander';
import { parseConfig } from '../../config.ts';
import type { UserRole } from '../../db/schema.ts';
import { cliActor } from '../../actors/actor.ts';
import { oneTimeLinkOf, USER_ROLES, type IssuedLink, type UserView } from '../../users/users.service.ts';
import { CommandError, UsageError } from '../command-errors.ts';
import { cliUser, commandServices, withContext } from '../context.ts';
import { requireKeyRing } from '../../secrets/key-ring-source.ts';
import { KeyRingError, type KeyRing } from '../../secrets/key-ring.ts';

const describe = (u: UserView) => `${u.email}  ${u.name || '-'}  role=${u.role}  member=${u.member ?? '-'}  status=${u.status}`;

/** The public URL from --public-url or RISKLOOKUP_PUBLIC_URL, through the one settings schema. */
function publicUrlOf(flag: string | undefined): string {
  try {
    return parseConfig({ publicUrl: flag }, process.env).publicUrl;
  } catch (error) {
    throw new CommandError((error as Error).message);
  }
}

/**
 * The key ring (D35): an operator's link carries a new TOTP seed sealed under it, and a reset may
 * be an operator's, so both commands need it before they open the database.
 */
function keyRingFor(command: string): KeyRing {
  try {
    return requireKeyRing(`'risklookup user ${command}'`);
  } catch (error) {
    throw error instanceof KeyRingError ? new CommandError(error.message) : error;
  }
}

/** The link is printed for the operator to hand over; it is never logged anywhere. */
function linkResult(issued: IssuedLink, publicUrl: string) {
  const link = oneTimeLinkOf(publicUrl, issued.token);
  const expires = new Date(issued.expiresAt).toISOString();
  return {
    data: { user: issued.user, purpose: issued.purpose, link, expires_at: expires },
    text: [
      `${issued.purpose === 'invite' ? 'invited' : 'reset link for'} ${describe(issued.user)}`,
      `one-time link (valid 72 h, until ${expires}; give it to the person only):`,
      `  ${link}`,
    ],
  };
}

export function userCommand(): Command {
  const user = new Command('user').description('invite, reset, disable and list portal users (D27)');
  user
    .command('invite')
    .description('invite a person to the portal and print their one-time link')
    .argument('<email>', 'their email address')
    .addOption(new Option('--role <role>', 'member_admin or member_user (with --member), or operator').choices(USER_ROLES).makeOptionMandatory())
    .option('--member <ref>', "the member's ref (not for operators)")
    .option('--public-url <url>', 'where people reach the portal (default: $RISKLOOKUP_PUBLIC_URL, else http://127.0.0.1:8080)')
    .option('--by <name>', 'who invites, kept with the link (the operator log names the shell user)', cliUser())
    .action(async (email: string, opts: { role: UserRole; member?: string; publicUrl?: string; by: string }, cmd: Command) => {
      if (opts.role === 'operator' && opts.member) throw new UsageError('an operator belongs to no member: leave out --member');
      if (opts.role !== 'operator' && !opts.member) throw new UsageError(`--member REF is required for --role ${opts.role}`);
      const publicUrl = publicUrlOf(opts.publicUrl);
      const keyRing = keyRingFor('invite');
      return withContext(cmd, async ({ engine, clock, out }) => {
        const { userAdmin } = commandServices({ engine, clock }, { keyRing });
        const issued = await userAdmin.inviteUser(cliActor(cliUser(), opts.by), { email, role: opts.role, memberRef: opts.member ?? null });
        const { data, text } = linkResult(issued, publicUrl);
        out.result(data, text);
      });
    });
  user
    .command('reset')
    .description('print a new one-time link: a password reset (or a new invitation if never accepted)')
    .argument('<email>', 'the user')
    .option('--public-url <url>', 'where people reach the portal (default: $RISKLOOKUP_PUBLIC_URL, else http://127.0.0.1:8080)')
    .option('--by <name>', 'who asks, kept with the link (the operator log names the shell user)', cliUser())
    .action(async (email: string, opts: { publicUrl?: string; by: string }, cmd: Command) => {
      const publicUrl = publicUrlOf(opts.publicUrl);
      const keyRing = keyRingFor('reset');
      return withContext(cmd, async ({ engine, clock, out }) => {
        const { userAdmin } = commandServices({ engine, clock }, { keyRing });
        const { data, text } = linkResult(await userAdmin.createResetLink(cliActor(cliUser(), opts.by), { email }), publicUrl);
        out.result(data, text);
      });
    });
  user
    .command('disable')
    .description('disable a user: their sessions end at once and their links stop working')
    .argument('<email>', 'the user')
    .action(async (email: string, _opts: unknown, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const view = await commandServices({ engine, clock }).userAdmin.disableUser(cliActor(cliUser()), { email });
        out.result(view, `disabled ${describe(view)}`);
      }),
    );
  user
    .command('list')
    .description('list portal users')
    .option('--member <ref>', "only this member's users")
    .action(async (opts: { member?: string }, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        const users = await commandServices({ engine, clock }).userAdmin.listUsers(cliActor(cliUser()), opts.member ? { memberRef: opts.member } : {});
        out.result({ users }, users.length === 0 ? 'no users yet' : users.map(describe));
      }),
    );
  return user;
}
