/**
 * The operator console's records (D30): the search audit by member and Turkey day, and the
 * operator log, newest first. Read only; operators only.
 */
import type { App } from '../http/app-type.ts';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import { listOperatorLog } from '../operator/operator-log.ts';
import { summariseSearchAudit } from '../reports/report-queries.service.ts';
import { portalOf, requireUser } from './guards.ts';
import { html, type Html } from './html.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import type { PortalContext } from './portal-context.ts';
import type { PortalDeps } from './portal-deps.ts';

export function registerOperatorRecordRoutes(scope: App, deps: Pick<PortalDeps, 'db' | 'clock'>) {
  const guard = { preHandler: requireUser('operator') };
  scope.get('/operator/audit', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const rows = (await summariseSearchAudit(deps.db, deps.clock.now(), 30)).map(
      (s) =>
        html`<tr>
          <td>${s.day}</td>
          <td>${s.memberRef ?? '—'}</td>
          <td>${s.memberName ?? ''}</td>
          <td>${s.channel}</td>
          <td>${s.searches}</td>
          <td>${s.answered}</td>
          <td>${s.results}</td>
        </tr>`,
    );
    const body = html`<table>
      <thead>
        <tr>
          <th>${tr('console.day')}</th>
          <th>${tr('console.ref')}</th>
          <th>${tr('console.member')}</th>
          <th>${tr('console.channel')}</th>
          <th>${tr('console.searches')}</th>
          <th>${tr('console.answered')}</th>
          <th>${tr('console.results')}</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
    return sendPage(reply, renderPage(ctx, { title: tr('console.audit.title'), body, active: 'operator' }));
  });

  scope.get('/operator/log', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const before = Number((request.query as Record<string, string | undefined>).before ?? NaN);
    const entries = await listOperatorLog(deps.db, { limit: 100, ...(Number.isSafeInteger(before) ? { beforeId: before } : {}) });
    const rows = entries.map(
      (e) =>
        html`<tr>
          <td>${formatTurkeyDateTime(e.at)}</td>
          <td>${e.actor}</td>
          <td>${e.action}</td>
          <td>${e.target}</td>
          <td><code>${e.before === null ? '' : JSON.stringify(e.before)}</code></td>
          <td><code>${e.after === null ? '' : JSON.stringify(e.after)}</code></td>
        </tr>`,
    );
    const last = entries.at(-1);
    const body = html`<table>
        <thead>
          <tr>
            <th>${tr('console.at')}</th>
            <th>${tr('console.who')}</th>
            <th>${tr('console.action')}</th>
            <th>${tr('console.target')}</th>
            <th>${tr('console.before')}</th>
            <th>${tr('console.after')}</th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
      ${entries.length === 100 && last ? html`<p><a href="/portal/operator/log?before=${last.id}">→</a></p>` : ''}`;
    return sendPage(reply, renderPage(ctx, { title: tr('console.log.title'), body, active: 'operator' }));
  });
}

/** Links to the administration pages, for the console's front page. */
export function operatorAdminLinks(ctx: PortalContext): Html {
  const tr = translator(ctx.locale);
  return html`<ul>
    ${[
      ['/portal/operator/members', tr('console.members.title')],
      ['/portal/operator/users', tr('console.users.title')],
      ['/portal/operator/audit', tr('console.audit.title')],
      ['/portal/operator/log', tr('console.log.title')],
      ['/portal/operator/disclosure', tr('disclosure.form.title')],
    ].map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}
  </ul>`;
}
