/**
 * The member pages (D28) under /portal (paths relative to the portal's scope): agreement, API
 * key, usage, search, users (users.routes.ts), webhooks (webhooks.routes.ts, D32). Every route
 * is guarded by `requireUser` with its roles and reads and changes only the signed-in user's own
 * member (`memberOf(request)`); an id in a URL (a user, an endpoint, a delivery) is looked up
 * within that member. CSRF and Origin are checked for every POST by the portal's session hook.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { DomainError, statusOf } from '../../lib/errors.ts';
import { formField } from '../forms.ts';
import { publicBaseOf } from './route-helpers.ts';
import { quotaDayOf } from '../../lib/turkey-time.ts';
import { usageCsv } from '../../quota/usage-series.ts';
import { rateLimitHeaders } from '../../quota/allowance.ts';
import { bindingAllowance, memberSearchRefusal } from '../../search/portal-search.service.ts';
import { actorOf, memberOf, portalOf, requireUser } from '../guards.ts';
import { redirectTo, renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { agreementBody } from './agreement.page.ts';
import { apiBody, type ApiFlash } from './api.page.ts';
import { searchBody, refusalText } from './search.page.ts';
import { usageBody } from './usage.page.ts';
import { registerUsersRoutes } from './users.routes.ts';
import { registerWebhooksRoutes } from './webhooks.routes.ts';
import { registerWatchlistRoutes } from './watchlist.routes.ts';
import { checkWatchTarget } from '../../watchlist/watchlist.service.ts';
import { memberText } from './text.ts';
import { paths } from '../paths.ts';

const MEMBERS = ['member_admin', 'member_user'] as const;

export function registerMemberPages(scope: App, deps: PortalDeps): void {
  registerAgreementRoutes(scope, deps);
  registerApiKeyRoutes(scope, deps);
  registerUsageRoutes(scope, deps);
  registerSearchRoute(scope, deps);
  registerUsersRoutes(scope, deps);
  registerWebhooksRoutes(scope, deps);
  registerWatchlistRoutes(scope, deps);
}

function registerAgreementRoutes(app: App, deps: PortalDeps) {
  const show = async (request: FastifyRequest, reply: FastifyReply, flash: 'signed' | 'must_accept' | null, status = 200) => {
    const ctx = portalOf(request);
    const state = await deps.services.agreement.read(actorOf(request));
    // "Signed" only when it is: a link with ?signed=1 cannot say so of an unsigned agreement.
    if (flash === 'signed' && !state.signedCurrent) flash = null;
    return sendPage(
      reply,
      renderPage(ctx, { title: memberText(ctx.locale)('agreement.title'), body: agreementBody(ctx, state, flash), active: 'agreement' }),
      status,
    );
  };
  app.get(paths.agreement.route, { preHandler: requireUser(...MEMBERS) }, async (request, reply) =>
    show(request, reply, (request.query as { signed?: string }).signed === '1' ? 'signed' : null),
  );
  app.post(paths.agreementSign.route, { preHandler: requireUser('member_admin') }, async (request, reply) => {
    if (formField(request.body, 'accept') !== 'yes') return show(request, reply, 'must_accept', 400);
    await deps.services.agreement.sign(actorOf(request));
    return redirectTo(reply, `${paths.agreement.href}?signed=1`);
  });
}

function registerApiKeyRoutes(app: App, deps: PortalDeps) {
  const show = async (request: FastifyRequest, reply: FastifyReply, flash: ApiFlash, status = 200) => {
    const ctx = portalOf(request);
    const view = await deps.services.memberKeys.read(actorOf(request));
    // "Revoked" only when there is no active key: a link with ?revoked=1 cannot say so of a live one.
    if (flash?.kind === 'revoked' && view.key !== null) flash = null;
    // The new key is in this response only: never cached, never stored (D16).
    reply.header('cache-control', 'no-store');
    return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('api.title'), body: apiBody(ctx, view, flash), active: 'api' }), status);
  };
  const admin = { preHandler: requireUser('member_admin') };
  app.get(paths.api.route, admin, async (request, reply) =>
    show(request, reply, (request.query as { revoked?: string }).revoked === '1' ? { kind: 'revoked' } : null),
  );
  app.post(paths.apiKey.route, admin, async (request, reply) => {
    try {
      const issued = await deps.services.memberKeys.generate(actorOf(request));
      const newKey = { key: issued.key, searchUrl: `${publicBaseOf(deps)}/api/v1/search`, revokedOld: issued.revoked > 0 };
      return await show(request, reply, { kind: 'new_key', newKey });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return show(request, reply, { kind: 'error', message: memberText(portalOf(request).locale)('api.not_active') }, statusOf(error));
    }
  });
  app.post(paths.apiKeyRevoke.route, admin, async (request, reply) => {
    try {
      await deps.services.memberKeys.revoke(actorOf(request));
    } catch (error) {
      // Nothing to revoke (a second click): the page shows there is no key.
      if (!(error instanceof DomainError)) throw error;
    }
    return redirectTo(reply, `${paths.api.href}?revoked=1`);
  });
}

function registerUsageRoutes(app: App, deps: PortalDeps) {
  const guard = { preHandler: requireUser(...MEMBERS) };
  app.get(paths.usage.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const series = await deps.services.memberUsage.lastDays(actorOf(request));
    return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('usage.title'), body: usageBody(ctx, series), active: 'usage' }));
  });
  app.get(paths.usageCsv.route, guard, async (request, reply) => {
    const member = memberOf(request);
    const series = await deps.services.memberUsage.lastDays(actorOf(request));
    const fileName = `usage-${member.ref.replace(/[^A-Za-z0-9._-]/g, '_')}-${quotaDayOf(deps.clock.now())}.csv`;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(usageCsv(series));
  });
}

/** Whether the browser says the request came from this site, or from no site at all (typed, bookmarked). */
function sentFromHere(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function registerSearchRoute(app: App, deps: PortalDeps) {
  const countries = deps.countryCodes.map((code) => ({ code, name: deps.searchUseCase.countries.get(code)?.name ?? code }));
  const portalSearch = deps.services.portalSearch;
  const canonicalOf = (country: string, taxId: string) => {
    try {
      return checkWatchTarget(deps.searchUseCase.countries, country, taxId).taxIdNorm;
    } catch {
      return null;
    }
  };
  /** A tax-ID search's own country and tax ID (the page offers to watch it when nothing was found). */
  const typedTaxId = (response: { type: string; country: string | null; query: string }) =>
    response.type === 'tax_id' && response.country !== null ? [{ country: response.country, tax_id: response.query }] : [];
  app.get(paths.search.route, { preHandler: requireUser(...MEMBERS) }, async (request, reply) => {
    const ctx = portalOf(request);
    const member = memberOf(request);
    const t = memberText(ctx.locale);
    const query = request.query as Record<string, unknown>;
    const asked = query.q !== undefined;
    const searcher = { memberStatus: member.status, memberTier: member.tier, agreementSignedOn: member.agreementSignedOn };
    // A search is a GET that is charged, like the API's: never cached anywhere (D5).
    reply.header('cache-control', 'no-store');
    // A search is charged and audited, so only a GET sent from our own pages (or typed, or
    // bookmarked) runs one; a link followed from another site, or a HEAD, shows the filled form
    // to be submitted instead (D27: no state change by a request another site can make).
    const runs = asked && request.method === 'GET' && sentFromHere(request);
    const actor = actorOf(request);
    const outcome = runs ? await portalSearch.search(actor, { member: searcher, clientAddress: request.ip, form: query }) : null;
    const allowances = outcome?.allowances ?? (await portalSearch.allowances(actor));
    const allowance = allowances.user;
    // The figures the page shows, as the API sends them (D3): of the allowance that runs out
    // first, the user's own or its member's (D28 amended).
    reply.headers(rateLimitHeaders(bindingAllowance(allowances), deps.clock.now()));
    const refusal = memberSearchRefusal(searcher);
    const first = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '');
    const model = {
      // A key pasted into the box is refused (D7) and never written back into the page (D16).
      form: {
        q: outcome?.kind === 'refused' && outcome.reason === 'key_in_url' ? '' : first(query.q),
        type: first(query.type),
        country: first(query.country).toUpperCase(),
      },
      notRun: asked && !runs,
      countries,
      allowance,
      memberAllowance: allowances.member,
      outcome,
      blocked: refusal ? refusalText(t, refusal, allowance.limit) : null,
      canonical: canonicalOf,
      watched:
        outcome?.kind === 'answered'
          ? await deps.services.watchlist.watchedAmong(
              actor,
              [...outcome.response.results, ...(outcome.response.near_matches ?? []), ...typedTaxId(outcome.response)].map((r) => ({
                country: r.country,
                taxId: r.tax_id,
              })),
            )
          : new Set<string>(),
    };
    const status = refusal ? 403 : outcome?.kind === 'refused' ? outcome.status : 200;
    return sendPage(reply, renderPage(ctx, { title: t('search.title'), body: searchBody(ctx, model), active: 'search' }), status);
  });
}
