/** GET /portal/: the member home (member status, agreement, today's quota); operators go to their console. */
import type { App } from '../http/app-type.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { html } from './html.ts';
import { redirectTo, renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import type { PortalDeps } from './portal-deps.ts';
import { paths } from './paths.ts';

export function registerHomeRoutes(scope: App, deps: Pick<PortalDeps, 'services'>) {
  scope.get(paths.home.route, { preHandler: requireUser() }, async (request, reply) => {
    const ctx = portalOf(request);
    if (ctx.user.role === 'operator' || ctx.member === null) return redirectTo(reply, paths.operator.href);
    const tr = translator(ctx.locale);
    const member = ctx.member;
    const key = await deps.services.memberKeys.usageToday(actorOf(request));
    const body = html`<p>${tr('home.welcome', { name: ctx.user.name })}</p>
      <dl class="facts">
        <dt>${tr('home.member')}</dt>
        <dd>${member.name} (${member.ref})</dd>
        <dt>${tr('home.status')}</dt>
        <dd>${tr(`home.status.${member.status}`)}</dd>
        <dt>${tr('home.tier')}</dt>
        <dd>${tr(`home.tier.${member.tier}`)}</dd>
        <dt>${tr('home.agreement')}</dt>
        <dd>${member.agreementSignedOn ? tr('home.agreement.signed', { date: member.agreementSignedOn }) : tr('home.agreement.unsigned')}</dd>
        <dt>${tr('home.quota')}</dt>
        <dd>
          ${key ? tr('home.quota.value', { used: Math.min(key.used, key.dailyLimit), limit: key.dailyLimit, prefix: key.prefix }) : tr('home.quota.noKey')}
        </dd>
        <dt>${tr('home.role')}</dt>
        <dd>${tr(`home.role.${ctx.user.role}`)}</dd>
      </dl>`;
    return sendPage(reply, renderPage(ctx, { title: tr('home.title'), body, active: 'home' }));
  });
}
