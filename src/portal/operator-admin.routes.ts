/**
 * The operator console's administration pages (D30): members (add, status, tier, agreement,
 * key daily limit, portal daily limit, watchlist cap, revoke key) and users (invite, reset link,
 * disable); the search audit and the operator log are in operator-records.routes.ts. Every action
 * goes through a service that writes the operator log in its own transaction. Operators only.
 * Pages: operator/admin.page.ts.
 */
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { MEMBER_STATUSES, TIERS, type MemberStatus, type Tier } from '../members/members.service.ts';
import { readWatchlistCap, watchlistCapProblem } from '../watchlist/watchlist.service.ts';
import type { Actor } from '../actors/actor.ts';
import { stepUpTarget, type StepUpAction } from '../operator/step-up.ts';
import { withStepUp, type StepUpNeed } from './step-up.ts';
import type { UserRole } from '../db/schema.ts';
import { checkInvitation, oneTimeLinkOf, USER_ROLES, type IssuedLink } from '../users/users.service.ts';
import { formField } from './forms.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { redirectTo, renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { donePath, linkBody, membersBody, usersBody } from './operator/admin.page.ts';
import { paths } from './paths.ts';
import type { PortalDeps } from './portal-deps.ts';
import { portalQueryOf } from './portal-query.ts';
import type { Services } from '../services.ts';
import { notFoundError } from './portal-errors.ts';

const pick = <T extends string>(value: string, allowed: readonly T[]): T => {
  if (!(allowed as readonly string[]).includes(value)) throw notFoundError();
  return value as T;
};

const MemberActionParams = Type.Object({ ref: Type.String(), what: Type.String() });
const UserActionParams = Type.Object({ what: Type.String() });

export function registerOperatorAdminRoutes(
  scope: App,
  deps: Pick<PortalDeps, 'transport' | 'publicUrl'> & { services: Pick<Services, 'memberAdmin' | 'userAdmin' | 'watchlist' | 'portalSearch' | 'signIn'> },
) {
  const guard = { preHandler: requireUser('operator') };

  scope.get(paths.operatorMembers.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const members = await deps.services.memberAdmin.listMembers(actorOf(request));
    const watching = await deps.services.watchlist.countByMember(actorOf(request));
    // The defaults a member without its own setting gets, from the services that apply them.
    const defaults = { portalDailyLimit: deps.services.portalSearch.memberDailyLimit, watchlistCap: deps.services.watchlist.defaultCap };
    const body = membersBody(ctx, members, watching, defaults, portalQueryOf(request));
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('console.members.title'), body, active: 'operator' }));
  });

  scope.post(paths.operatorMembers.route, guard, async (request, reply) => {
    const ref = formField(request.body, 'ref', 64);
    const tier = pick<Tier>(formField(request.body, 'tier') || 'full', TIERS);
    await deps.services.memberAdmin.addMember(actorOf(request), { ref, name: formField(request.body, 'name', 200), tier });
    return redirectTo(reply, donePath(paths.operatorMembers.href, 'member.add', ref));
  });

  scope.post(paths.operatorMemberAction.route, { ...guard, schema: { params: MemberActionParams } }, async (request, reply) => {
    const { ref, what } = request.params;
    const field = (name: string) => formField(request.body, name);
    // Those that lift a member's access or its limits need the operator's confirmation (step-up.ts).
    const need = (action: StepUpAction, to: string): StepUpNeed => ({ action, target: stepUpTarget.member(ref), shown: `${ref} → ${to}` });
    const admin = deps.services.memberAdmin;
    const act = (stepUpNeed: StepUpNeed | null, change: (op: Actor) => Promise<unknown>) =>
      withStepUp(request, reply, deps, stepUpNeed, async (stepUp) => {
        await change(actorOf(request, stepUp));
        return redirectTo(reply, donePath(paths.operatorMembers.href, `member.${what}`, ref));
      });
    switch (what) {
      case 'status': {
        const status = pick<MemberStatus>(field('status'), MEMBER_STATUSES);
        return act(need('member.status', status), (op) => admin.setMemberStatus(op, { ref, status }));
      }
      case 'tier': {
        const tier = pick<Tier>(field('tier'), TIERS);
        return act(null, (op) => admin.setMemberTier(op, { ref, tier }));
      }
      case 'agreement':
        return act(null, (op) => admin.setMemberAgreement(op, { ref, signed: field('signed') === 'yes' }));
      case 'limit': {
        const limit = /^[0-9]{1,7}$/.test(field('daily_limit')) ? Number(field('daily_limit')) : NaN;
        return act(need('member.key_daily_limit', field('daily_limit')), (op) => admin.setKeyDailyLimit(op, { ref, dailyLimit: limit }));
      }
      case 'portal-limit': {
        const limit = /^[0-9]{1,7}$/.test(field('portal_daily_limit')) ? Number(field('portal_daily_limit')) : NaN;
        return act(need('member.portal_daily_limit', field('portal_daily_limit')), (op) => admin.setPortalDailyLimit(op, { ref, dailyLimit: limit }));
      }
      case 'watchlist-cap': {
        // The CLI's rule and words (readWatchlistCap); a mistyped cap is refused before the password and a code are asked for.
        const raw = field('watchlist_cap');
        const read = readWatchlistCap('the watchlist cap', raw);
        if ('problem' in read) throw watchlistCapProblem(raw, read.problem);
        return act(need('member.watchlist_cap', raw.trim()), (op) => deps.services.watchlist.setCap(op, { ref, cap: read.value }));
      }
      case 'revoke-key':
        return act(null, (op) => admin.revokeKey(op, { ref }));
      default:
        throw notFoundError();
    }
  });

  scope.get(paths.operatorUsers.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const body = usersBody(ctx, await deps.services.userAdmin.listUsers(actorOf(request)), portalQueryOf(request));
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('console.users.title'), body, active: 'operator' }));
  });

  scope.post(paths.operatorUserAction.route, { ...guard, schema: { params: UserActionParams } }, async (request, reply) => {
    const ctx = portalOf(request);
    const { what } = request.params;
    const email = formField(request.body, 'email', 254);
    if (what === 'disable') {
      // Disabling an operator needs the operator's confirmation (step-up.ts); a member's user does not.
      const role = await deps.services.userAdmin.roleOf(actorOf(request), { email });
      const need: StepUpNeed | null = role === 'operator' ? { action: 'user.disable_operator', target: stepUpTarget.user(email), shown: email } : null;
      return withStepUp(request, reply, deps, need, async (stepUp) => {
        await deps.services.userAdmin.disableUser(actorOf(request, stepUp), { email });
        return redirectTo(reply, donePath(paths.operatorUsers.href, 'user.disable', email));
      });
    }
    const showLink = (link: IssuedLink) => {
      // The link is shown once, on this answer; nothing stores it.
      reply.header('cache-control', 'no-store');
      const body = linkBody(ctx, link.user.email, oneTimeLinkOf(deps.publicUrl, link.token));
      return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('console.users.title'), body, active: 'operator' }));
    };
    const target = stepUpTarget.user(email);
    if (what === 'invite') {
      const member = formField(request.body, 'member', 64).trim();
      const role = pick<UserRole>(formField(request.body, 'role'), USER_ROLES);
      // Every invitation needs the operator's confirmation (step-up.ts): an account made from a stolen session outlives it.
      const need: StepUpNeed = { action: role === 'operator' ? 'user.invite_operator' : 'user.invite', target, shown: email };
      // A mistyped invitation is refused before the password and a code are asked for.
      checkInvitation({ email, role, memberRef: member === '' ? null : member });
      return withStepUp(request, reply, deps, need, async (stepUp) =>
        showLink(await deps.services.userAdmin.inviteUser(actorOf(request, stepUp), { email, role, memberRef: member === '' ? null : member })),
      );
    }
    if (what === 'reset') {
      return withStepUp(request, reply, deps, { action: 'user.reset', target, shown: email }, async (stepUp) =>
        showLink(await deps.services.userAdmin.createResetLink(actorOf(request, stepUp), { email })),
      );
    }
    throw notFoundError();
  });
}
