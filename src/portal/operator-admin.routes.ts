/**
 * The operator console's administration pages (D30): members (add, status, tier, agreement,
 * key daily limit, portal daily limit, watchlist cap, revoke key) and users (invite, reset link, disable); the search audit and the
 * operator log are in operator-records.routes.ts. Every action goes through a service that writes the operator
 * log in its own transaction. Operators only.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { MEMBER_STATUSES, TIERS, type MemberStatus, type Tier } from '../members/members.service.ts';
import { listMemberStates } from '../operator/member-admin.service.ts';
import { countWatchesByMember, readWatchlistCap, setWatchlistCap, watchlistCapProblem } from '../watchlist/watchlist.service.ts';
import type { Actor } from '../actors/actor.ts';
import { stepUpTarget, type StepUpAction } from '../operator/step-up.ts';
import { withStepUp, type StepUpNeed } from './step-up.ts';
import type { UserRole } from '../db/schema.ts';
import { checkInvitation, listUserViews, normaliseEmail, oneTimeLinkOf, USER_ROLES, type IssuedLink } from '../users/users.service.ts';
import { findUserByEmailNorm } from '../users/users.repository.ts';
import { formField } from './forms.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { html, type Html } from './html.ts';
import { csrfField, redirectTo, renderPage, sendPage } from './layout.ts';
import { translator, type MessageKey } from './messages/index.ts';
import type { PortalContext } from './portal-context.ts';
import type { PortalDeps } from './portal-deps.ts';
import type { Services } from '../services.ts';
import { notFoundError } from './portal-errors.ts';

const pick = <T extends string>(value: string, allowed: readonly T[]): T => {
  if (!(allowed as readonly string[]).includes(value)) throw notFoundError();
  return value as T;
};

function form(ctx: PortalContext, action: string, inner: Html, button: string): Html {
  return html`<form method="post" action="${action}" class="inline">${csrfField(ctx)}${inner}<button type="submit">${button}</button></form>`;
}

function select(name: string, options: readonly string[], current: string): Html {
  return html`<select name="${name}" aria-label="${name}">
    ${options.map((o) => html`<option${o === current ? html` selected` : ''}>${o}</option>`)}
  </select>`;
}

/** The console's actions that redirect with a notice (`?done=ACTION&target=…`). */
const MEMBER_ACTIONS = [
  'member.add',
  'member.status',
  'member.tier',
  'member.agreement',
  'member.limit',
  'member.portal-limit',
  'member.watchlist-cap',
  'member.revoke-key',
] as const;
const USER_ACTIONS = ['user.disable'] as const;

/**
 * "Done: ACTION on TARGET" only for an action of this page's closed list and a target the page
 * lists (a member's ref, a user's email): a link cannot put other words in a trusted notice.
 */
function doneNotice(ctx: PortalContext, request: FastifyRequest, actions: readonly string[], targets: readonly string[]): Html {
  const q = request.query as Record<string, string | undefined>;
  if (q.done === undefined || q.target === undefined || !actions.includes(q.done) || !targets.includes(q.target)) return html``;
  const t = translator(ctx.locale);
  return html`<p class="notice ok" role="status">${t('console.done', { action: t(`console.action.${q.done}` as MessageKey), target: q.target })}</p>`;
}

function linkPage(ctx: PortalContext, deps: Pick<PortalDeps, 'config'>, link: IssuedLink): Html {
  const url = oneTimeLinkOf(deps.config.publicUrl, link.token);
  return html`<p class="notice ok">${translator(ctx.locale)('console.link', { email: link.user.email })}</p>
    <p><code id="link">${url}</code> <button type="button" data-copy-target="link">⧉</button></p>
    <p><a href="/portal/operator/users">${translator(ctx.locale)('console.users.title')}</a></p>`;
}

export function registerOperatorAdminRoutes(
  scope: App,
  deps: Pick<PortalDeps, 'db' | 'clock' | 'config' | 'keyRing' | 'transport'> & { services: Pick<Services, 'memberAdmin' | 'userAdmin'> },
) {
  const guard = { preHandler: requireUser('operator') };
  const done = (action: string, target: string, path: string) => `${path}?done=${encodeURIComponent(action)}&target=${encodeURIComponent(target)}`;

  scope.get('/operator/members', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const members = await listMemberStates(deps.db);
    const watching = await countWatchesByMember(deps.db);
    const rows = members.map((m) => {
      const base = `/portal/operator/members/${encodeURIComponent(m.ref)}`;
      return html`<tr>
        <td>${m.ref}</td>
        <td>${m.name}</td>
        <td>${form(ctx, `${base}/status`, select('status', MEMBER_STATUSES, m.status), tr('console.save'))}</td>
        <td>${form(ctx, `${base}/tier`, select('tier', TIERS, m.tier), tr('console.save'))}</td>
        <td>
          ${m.agreement_signed_on ?? '—'}
          ${form(ctx, `${base}/agreement`, html`<input type="hidden" name="signed" value="${m.agreement_signed_on ? 'no' : 'yes'}" />`, tr(m.agreement_signed_on ? 'console.unsign' : 'console.sign'))}
        </td>
        <td>
          ${form(ctx, `${base}/limit`, html`<input name="daily_limit" inputmode="numeric" size="6" value="${m.key_daily_limit ?? m.active_key?.daily_limit ?? ''}" aria-label="daily_limit" />`, tr('console.save'))}
        </td>
        <td>
          ${form(ctx, `${base}/portal-limit`, html`<input name="portal_daily_limit" inputmode="numeric" size="6" value="${m.portal_daily_limit ?? deps.config.portalMemberDailyLimit}" aria-label="portal_daily_limit" />`, tr('console.save'))}
        </td>
        <td>
          ${form(ctx, `${base}/watchlist-cap`, html`<input name="watchlist_cap" size="7" value="${m.watchlist_cap ?? 'default'}" aria-label="watchlist_cap" />`, tr('console.save'))}
          <span class="muted small"
            >${m.watchlist_cap === null ? `${tr('console.default_is', { value: deps.config.watchlistCap })} · ` : ''}${tr('console.watching', { count: watching.get(m.ref) ?? 0 })}</span
          >
        </td>
        <td>${m.active_key ? html`${m.active_key.prefix}… ${form(ctx, `${base}/revoke-key`, html``, tr('console.revoke'))}` : '—'}</td>
      </tr>`;
    });
    const add = form(
      ctx,
      '/portal/operator/members',
      html`<input name="ref" required aria-label="ref" placeholder="${tr('console.ref')}" />
        <input name="name" required aria-label="name" placeholder="${tr('console.name')}" /> ${select('tier', TIERS, 'full')}`,
      tr('console.add'),
    );
    const body = html`${doneNotice(
      ctx,
      request,
      MEMBER_ACTIONS,
      members.map((m) => m.ref),
    )}
      <p>${add}</p>
      <table class="console-members">
        <thead>
          <tr>
            <th>${tr('console.ref')}</th>
            <th>${tr('console.name')}</th>
            <th>${tr('console.status')}</th>
            <th>${tr('console.tier')}</th>
            <th>${tr('console.agreement')}</th>
            <th>${tr('console.limit')}</th>
            <th>${tr('console.portal_limit')}</th>
            <th>${tr('console.watchlist_cap')}</th>
            <th>${tr('console.key')}</th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>`;
    return sendPage(reply, renderPage(ctx, { title: tr('console.members.title'), body, active: 'operator' }));
  });

  scope.post('/operator/members', guard, async (request, reply) => {
    const ref = formField(request.body, 'ref', 64);
    const tier = pick<Tier>(formField(request.body, 'tier') || 'full', TIERS);
    await deps.services.memberAdmin.addMember(actorOf(request), { ref, name: formField(request.body, 'name', 200), tier });
    return redirectTo(reply, done('member.add', ref, '/portal/operator/members'));
  });

  scope.post('/operator/members/:ref/:what', guard, async (request, reply) => {
    const { ref = '', what = '' } = request.params as { ref?: string; what?: string };
    const field = (name: string) => formField(request.body, name);
    // Those that lift a member's access or its limits need the operator's confirmation (step-up.ts).
    const need = (action: StepUpAction, to: string): StepUpNeed => ({ action, target: stepUpTarget.member(ref), shown: `${ref} → ${to}` });
    const admin = deps.services.memberAdmin;
    const act = (stepUpNeed: StepUpNeed | null, change: (op: Actor) => Promise<unknown>) =>
      withStepUp(request, reply, deps, stepUpNeed, async (stepUp) => {
        await change(actorOf(request, stepUp));
        return redirectTo(reply, done(`member.${what}`, ref, '/portal/operator/members'));
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
        return act(need('member.watchlist_cap', raw.trim()), (op) => setWatchlistCap(deps, op, ref, read.value));
      }
      case 'revoke-key':
        return act(null, (op) => admin.revokeKey(op, { ref }));
      default:
        throw notFoundError();
    }
  });

  scope.get('/operator/users', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const users = await listUserViews(deps.db);
    const rows = users.map(
      (u) =>
        html`<tr>
          <td>${u.email}</td>
          <td>${u.name}</td>
          <td>${u.role}</td>
          <td>${u.member ?? '—'}</td>
          <td>${u.status}</td>
          <td>
            ${u.status === 'disabled' ? '' : html`${form(ctx, '/portal/operator/users/reset', html`<input type="hidden" name="email" value="${u.email}" />`, tr('console.reset'))} ${form(ctx, '/portal/operator/users/disable', html`<input type="hidden" name="email" value="${u.email}" />`, tr('console.disable'))}`}
          </td>
        </tr>`,
    );
    const invite = form(
      ctx,
      '/portal/operator/users/invite',
      html`<input name="email" type="email" required aria-label="email" placeholder="${tr('console.email')}" /> ${select('role', USER_ROLES, 'member_user')}
        <input name="member" aria-label="member" placeholder="${tr('console.member')}" />`,
      tr('console.invite'),
    );
    const body = html`${doneNotice(
      ctx,
      request,
      USER_ACTIONS,
      users.map((u) => u.email),
    )}
      <p>${invite}</p>
      <table>
        <thead>
          <tr>
            <th>${tr('console.email')}</th>
            <th>${tr('console.name')}</th>
            <th>${tr('console.role')}</th>
            <th>${tr('console.member')}</th>
            <th>${tr('console.status')}</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>`;
    return sendPage(reply, renderPage(ctx, { title: tr('console.users.title'), body, active: 'operator' }));
  });

  scope.post('/operator/users/:what', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const what = (request.params as { what?: string }).what;
    const email = formField(request.body, 'email', 254);
    if (what === 'disable') {
      // Disabling an operator needs the operator's confirmation (step-up.ts); a member's user does not.
      const role = (await findUserByEmailNorm(deps.db, normaliseEmail(email)))?.role;
      const need: StepUpNeed | null = role === 'operator' ? { action: 'user.disable_operator', target: stepUpTarget.user(email), shown: email } : null;
      return withStepUp(request, reply, deps, need, async (stepUp) => {
        await deps.services.userAdmin.disableUser(actorOf(request, stepUp), { email });
        return redirectTo(reply, done('user.disable', email, '/portal/operator/users'));
      });
    }
    const showLink = (link: IssuedLink) => {
      // The link is shown once, on this answer; nothing stores it.
      reply.header('cache-control', 'no-store');
      return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('console.users.title'), body: linkPage(ctx, deps, link), active: 'operator' }));
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
