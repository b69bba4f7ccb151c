/**
 * The member portal under /portal/ (D27, D28), one encapsulated Fastify scope: its cookies,
 * form parsing, session hook, CSRF and Origin checks, CSP, and HTML error and not-found pages
 * apply to its routes only; the API keeps its own.
 *
 * A feature adds itself with one line below: `registerXRoutes(scope, deps)`, its paths relative
 * to /portal (`scope.get(paths.usage.route, { preHandler: requireUser() }, …)` serves /portal/usage; the
 * route table: paths.ts).
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { App } from '../http/app-type.ts';
import { registerAssetRoutes } from './assets.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { portalCookiesFor } from './cookies.ts';
import { registerPortalErrorPages } from './error-pages.ts';
import { registerHomeRoutes } from './home.routes.ts';
import { registerMemberPages } from './member/member.routes.ts';
import { registerOperatorRoutes } from './operator.routes.ts';
import { registerOperatorAdminRoutes } from './operator-admin.routes.ts';
import { registerOperatorRecordRoutes } from './operator-records.routes.ts';
import { registerOperatorDisclosureRoutes } from './operator-disclosure.routes.ts';
import { registerOperatorReportRoutes } from './operator-reports.routes.ts';
import { registerOperatorDisputeRoutes } from './operator-disputes.routes.ts';
import { registerMemberDisputeRoutes } from './member/disputes.routes.ts';
import { registerReportRoutes } from './reports.routes.ts';
import type { PortalDeps } from './portal-deps.ts';
import { registerSessionHook, type SessionHookDeps } from './sessions.hooks.ts';
import { registerPortalQuery } from './portal-query.ts';

export type { PortalDeps } from './portal-deps.ts';

/**
 * D27: our own script and style only, no framing, forms post only to us. `connect-src 'self'`:
 * the filing form's script asks this server to check a tax ID as it is typed (D29).
 */
export const PORTAL_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Largest form body a portal route takes unless it says otherwise (the API's is 1 KiB). */
export const PORTAL_BODY_LIMIT = 16 * 1024;

export function registerPortal(app: App, deps: PortalDeps) {
  app.register(
    async (instance) => {
      const scope = instance as unknown as App;
      // Pages, not API operations: kept out of the OpenAPI document.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await scope.register(cookie);
      await scope.register(formbody, { bodyLimit: PORTAL_BODY_LIMIT });
      const session: SessionHookDeps = { sessions: deps.services.sessions, cookies: portalCookiesFor(deps.transport), publicUrl: deps.publicUrl };
      registerSessionHook(scope, session);
      // Every query string once, before any page reads it (issue 27, finding 9).
      registerPortalQuery(scope);
      scope.addHook('onSend', async (_request, reply) => {
        reply.header('content-security-policy', PORTAL_CONTENT_SECURITY_POLICY);
        // Not no-referrer (app.ts's default): with it a browser sends `Origin: null` on a form
        // POST, and the Origin check (sessions.hooks.ts) would refuse every form.
        reply.header('referrer-policy', 'same-origin');
        reply.header('x-frame-options', 'DENY');
      });
      registerPortalErrorPages(scope);

      registerAssetRoutes(scope);
      registerAuthRoutes(scope, deps, { ...session });
      registerHomeRoutes(scope, deps);
      registerOperatorRoutes(scope);
      registerMemberPages(scope, deps);
      registerReportRoutes(scope, deps);
      registerOperatorReportRoutes(scope, deps);
      registerOperatorAdminRoutes(scope, deps);
      registerOperatorRecordRoutes(scope, deps);
      registerOperatorDisclosureRoutes(scope, deps);
      registerOperatorDisputeRoutes(scope, deps);
      registerMemberDisputeRoutes(scope, deps);
      // Features of the portal register here, one line each.
    },
    { prefix: '/portal' },
  );
}
