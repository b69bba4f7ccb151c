/**
 * The operator console's records (D30): the search audit by member and Turkey day, and the
 * operator log, newest first. Read only; operators only. Pages: operator/records.page.ts.
 */
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { auditBody, LOG_PAGE_SIZE, logBody } from './operator/records.page.ts';
import { paths } from './paths.ts';
import type { PortalDeps } from './portal-deps.ts';

/** `?before=ID`: the log's entries older than that one (anything else: the newest). */
const LogQuery = Type.Object({ before: Type.Optional(Type.String()) });

export function registerOperatorRecordRoutes(scope: App, deps: Pick<PortalDeps, 'services'>) {
  const { reports } = deps.services;
  const guard = { preHandler: requireUser('operator') };

  scope.get(paths.operatorAudit.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const body = auditBody(ctx, await reports.searchAudit(actorOf(request), { days: 30 }));
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('console.audit.title'), body, active: 'operator' }));
  });

  scope.get(paths.operatorLog.route, { ...guard, schema: { querystring: LogQuery } }, async (request, reply) => {
    const ctx = portalOf(request);
    const before = Number(request.query.before ?? NaN);
    const entries = await reports.operatorLog(actorOf(request), { limit: LOG_PAGE_SIZE, ...(Number.isSafeInteger(before) ? { beforeId: before } : {}) });
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('console.log.title'), body: logBody(ctx, entries), active: 'operator' }));
  });
}
