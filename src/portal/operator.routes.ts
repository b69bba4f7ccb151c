/** GET /portal/operator/: the operator console's front page (operator/reports.page.ts). */
import type { App } from '../http/app-type.ts';
import { portalOf, requireUser } from './guards.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { operatorConsoleBody } from './operator/reports.page.ts';
import { paths } from './paths.ts';

export function registerOperatorRoutes(scope: App) {
  scope.get(paths.operator.route, { preHandler: requireUser('operator') }, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    return sendPage(reply, renderPage(ctx, { title: tr('operator.title'), body: operatorConsoleBody(ctx), active: 'operator' }));
  });
}
