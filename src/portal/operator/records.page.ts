/**
 * The operator console's records (D30), pure page bodies: the search audit by member and Turkey
 * day, the operator log newest first, and the links to the administration pages. Routes:
 * ../operator-records.routes.ts.
 */
import { dataTable } from '../components.ts';
import { html, type Html } from '../html.ts';
import { translator } from '../messages/index.ts';
import type { PortalContext } from '../portal-context.ts';
import { paths, withQuery } from '../paths.ts';
import { formatTurkeyDateTime } from '../../lib/turkey-time.ts';
import type { OperatorLogRecord } from '../../operator/operator-log.ts';
import type { summariseSearchAudit } from '../../reports/report-queries.service.ts';

export type AuditDay = Awaited<ReturnType<typeof summariseSearchAudit>>[number];

/** How many log entries a page shows; a full page links to the older ones. */
export const LOG_PAGE_SIZE = 100;

export function auditBody(ctx: PortalContext, days: readonly AuditDay[]): Html {
  const tr = translator(ctx.locale);
  const rows = days.map(
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
  return dataTable({
    columns: [
      tr('console.day'),
      tr('console.ref'),
      tr('console.member'),
      tr('console.channel'),
      tr('console.searches'),
      tr('console.answered'),
      tr('console.results'),
    ],
    rows,
  });
}

export function logBody(ctx: PortalContext, entries: readonly OperatorLogRecord[]): Html {
  const tr = translator(ctx.locale);
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
  return html`${dataTable({
    columns: [tr('console.at'), tr('console.who'), tr('console.action'), tr('console.target'), tr('console.before'), tr('console.after')],
    rows,
    className: 'log',
  })}
    ${entries.length === LOG_PAGE_SIZE && last ? html`<p><a href="${withQuery(paths.operatorLog.href, { before: last.id })}">→</a></p>` : ''}`;
}

/** Links to the administration pages, for the console's front page. */
export function operatorAdminLinks(ctx: PortalContext): Html {
  const tr = translator(ctx.locale);
  return html`<ul>
    ${[
      [paths.operatorMembers.href, tr('console.members.title')],
      [paths.operatorUsers.href, tr('console.users.title')],
      [paths.operatorAudit.href, tr('console.audit.title')],
      [paths.operatorLog.href, tr('console.log.title')],
      [paths.operatorDisclosure.href, tr('disclosure.form.title')],
    ].map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}
  </ul>`;
}
