/** GET /portal/operator/: the operator console's front page (the report console: operator-reports.routes.ts). */
import type { App } from '../http/app-type.ts';
import { portalOf, requireUser } from './guards.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { operatorConsoleBody } from './operator-reports.routes.ts';

export function registerOperatorRoutes(scope: App) {
  scope.get('/operator/', { preHandler: requireUser('operator') }, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    return sendPage(reply, renderPage(ctx, { title: tr('operator.title'), body: operatorConsoleBody(ctx), active: 'operator' }));
  });
}
