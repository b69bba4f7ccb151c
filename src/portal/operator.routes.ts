/** GET /portal/operator/: a placeholder for the operator console (issue 13 replaces it). */
import type { App } from '../http/app-type.ts';
import { portalOf, requireUser } from './guards.ts';
import { html } from './html.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';

export function registerOperatorRoutes(scope: App) {
  scope.get('/operator/', { preHandler: requireUser('operator') }, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    return sendPage(reply, renderPage(ctx, { title: tr('operator.title'), body: html`<p>${tr('operator.placeholder')}</p>`, active: 'operator' }));
  });
}
