/**
 * The member's watchlist in the portal (D31): GET /portal/watchlist (paged), POST /portal/watchlist
 * (add: from the form or a search result's Watch button) and POST /portal/watchlist/remove.
 * Both roles of an active member may view, add and remove: the list is the member's, as the API
 * key's is, and a member_user is the one who checks a customer before credit and wants to hear of
 * it; an entry shows no risk data, so neither role learns more from it than from its own search.
 * The service (src/watchlist) checks the tax ID as a search does, keeps the cap exact and never
 * tells whether a company has records; the signed-in user's member is the only one read or changed.
 * CSRF and Origin are checked for every POST by the session hook.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../http/app-type.ts';
import { AppError } from '../../lib/errors.ts';
import type { WatchlistPage } from '../../watchlist/watchlist.service.ts';
import { actorOf, memberOf, portalOf, requireUser } from '../guards.ts';
import { renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { appErrorText } from '../problem-text.ts';
import { memberText } from './text.ts';
import { watchlistBody, type WatchlistFlash } from './watchlist.page.ts';
import { paths } from '../paths.ts';

/** Companies a page shows. */
export const WATCHLIST_PER_PAGE = 50;

const MEMBERS = { preValidation: requireUser('member_admin', 'member_user') };
/** The form fields a page reads (`_csrf` is the session hook's); a repeated field is a 400. */
const WatchBody = Type.Object({ country: Type.Optional(Type.String({ maxLength: 20 })), tax_id: Type.Optional(Type.String({ maxLength: 60 })) });
const ListQuery = Type.Object({ after: Type.Optional(Type.String({ maxLength: 200 })) });

interface Shown {
  after: string | null;
  flash: WatchlistFlash;
  form?: { country: string; taxId: string };
}

export function registerWatchlistRoutes(app: App, deps: PortalDeps) {
  const countries = deps.countryCodes.map((code) => ({ code, name: deps.searchUseCase.countries.get(code)?.name ?? code }));
  const { watchlist } = deps.services;

  /** Only an active member watches (D31 with D17's member rule); others see why, with a 403. */
  const inactive = (request: FastifyRequest, reply: FastifyReply) => {
    if (memberOf(request).status === 'active') return null;
    return show(request, reply, { after: null, flash: { kind: 'error', message: memberText(portalOf(request).locale)('watchlist.inactive') } }, 403, false);
  };

  async function show(request: FastifyRequest, reply: FastifyReply, view: Shown, status = 200, list = true) {
    const ctx = portalOf(request);
    const actor = actorOf(request);
    let page: WatchlistPage = { entries: [], watchCount: 0, cap: 0, nextCursor: null };
    let { after, flash } = view;
    if (list) {
      try {
        page = await watchlist.list(actor, { after, limit: WATCHLIST_PER_PAGE });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // A cursor that is not one of this list: the first page, and why.
        after = null;
        flash = { kind: 'error', message: appErrorText(ctx.locale, error) };
        status = 400;
        page = await watchlist.list(actor, { after: null, limit: WATCHLIST_PER_PAGE });
      }
    }
    reply.header('cache-control', 'no-store');
    const body = watchlistBody(ctx, { ...page, after, flash, form: view.form ?? { country: '', taxId: '' }, countries });
    return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('watchlist.title'), body, active: 'watchlist' }), status);
  }

  app.get(paths.watchlist.route, { ...MEMBERS, schema: { querystring: ListQuery } }, async (request, reply) => {
    return inactive(request, reply) ?? show(request, reply, { after: request.query.after ?? null, flash: null });
  });

  /** Runs an add or a remove; a refusal (a mistyped tax ID, an unknown country, the cap) is worded with the form kept. */
  const act = async (which: 'add' | 'remove', request: FastifyRequest, reply: FastifyReply, body: { country?: string; tax_id?: string }) => {
    const refused = inactive(request, reply);
    if (refused) return refused;
    const form = { country: (body.country ?? '').slice(0, 20), taxId: (body.tax_id ?? '').slice(0, 60) };
    const actor = actorOf(request);
    try {
      if (which === 'add') {
        const { added, entry } = await watchlist.add(actor, form);
        return show(request, reply, { after: null, flash: { kind: added ? 'added' : 'already', country: entry.country, taxId: entry.tax_id } });
      }
      const { removed, target } = await watchlist.remove(actor, form);
      return show(request, reply, { after: null, flash: { kind: removed ? 'removed' : 'not_on', country: target.country, taxId: target.taxIdNorm } });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const status = error.statusCode;
      return show(request, reply, { after: null, flash: { kind: 'error', message: appErrorText(portalOf(request).locale, error) }, form }, status);
    }
  };
  app.post(paths.watchlist.route, { ...MEMBERS, schema: { body: WatchBody } }, async (request, reply) => act('add', request, reply, request.body));
  app.post(paths.watchlistRemove.route, { ...MEMBERS, schema: { body: WatchBody } }, async (request, reply) => act('remove', request, reply, request.body));
}
