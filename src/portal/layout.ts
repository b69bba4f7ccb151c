/**
 * The page frame every portal page is rendered in (D27): navigation by role, the language
 * switch and sign-out (POST forms with the CSRF field), our own stylesheet and script only.
 *
 *   return sendPage(reply, renderPage(request, { title: tr('home.title'), body: html`…`, active: 'home' }));
 *
 * Every form a page writes carries `${csrfField(ctx)}` (or `csrfField(request)`; components.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRole } from '../db/schema.ts';
import { csrfField } from './components.ts';
import { html, type Html } from './html.ts';
import { t, type MessageKey } from './messages/index.ts';
import type { Locale, PortalContext } from './portal-context.ts';
import { paths } from './paths.ts';

export { PORTAL_PREFIX } from './paths.ts';

export type NavKey = 'home' | 'agreement' | 'api' | 'usage' | 'search' | 'users' | 'reports' | 'disputes' | 'operator' | 'webhooks' | 'watchlist';

/** The menu: each entry and the roles that see it (D28: member_user sees no keys and no users). */
export const NAV_ITEMS: ReadonlyArray<{ key: NavKey; href: string; label: MessageKey; roles: readonly UserRole[] }> = [
  { key: 'home', href: paths.home.href, label: 'layout.nav.home', roles: ['member_admin', 'member_user'] },
  { key: 'agreement', href: paths.agreement.href, label: 'layout.nav.agreement', roles: ['member_admin', 'member_user'] },
  { key: 'api', href: paths.api.href, label: 'layout.nav.api', roles: ['member_admin'] },
  { key: 'usage', href: paths.usage.href, label: 'layout.nav.usage', roles: ['member_admin', 'member_user'] },
  { key: 'search', href: paths.search.href, label: 'layout.nav.search', roles: ['member_admin', 'member_user'] },
  { key: 'users', href: paths.users.href, label: 'layout.nav.users', roles: ['member_admin'] },
  { key: 'reports', href: paths.reports.href, label: 'reports.nav', roles: ['member_admin', 'member_user'] },
  { key: 'watchlist', href: paths.watchlist.href, label: 'watchlist.nav', roles: ['member_admin', 'member_user'] },
  { key: 'webhooks', href: paths.webhooks.href, label: 'webhooks.nav', roles: ['member_admin'] },
  { key: 'disputes', href: paths.disputes.href, label: 'disputes.nav', roles: ['member_admin', 'member_user'] },
  { key: 'operator', href: paths.operator.href, label: 'layout.nav.operator', roles: ['operator'] },
];

/** A signed-in page's context, or the request itself (anonymous pages: sign-in, accept). */
export type PageSource = FastifyRequest | PortalContext;

function isContext(source: PageSource): source is PortalContext {
  return 'user' in source && 'csrfToken' in source && !('raw' in source);
}

interface PageView {
  locale: Locale;
  csrfToken: string;
  portal: PortalContext | null;
  /** Where the language switch returns to. */
  path: string;
}

function viewOf(source: PageSource): PageView {
  if (isContext(source)) return { locale: source.locale, csrfToken: source.csrfToken, portal: source, path: paths.home.href };
  const path = source.method === 'GET' ? source.url : paths.home.href;
  return { locale: source.portalState.locale, csrfToken: source.portalState.csrfToken, portal: source.portal, path };
}

export interface PageOptions {
  title: string;
  body: Html;
  active?: NavKey;
}

function renderNav(view: PageView, active: NavKey | undefined): Html {
  const portal = view.portal;
  if (!portal) return html``;
  const items = NAV_ITEMS.filter((item) => item.roles.includes(portal.user.role));
  return html`<nav class="nav" aria-label="${t(view.locale, 'layout.nav')}">
    <ul>
      ${items.map((item) => html`<li><a href="${item.href}" ${item.key === active ? html` aria-current="page"` : ''}>${t(view.locale, item.label)}</a></li>`)}
    </ul>
  </nav>`;
}

function renderAccount(view: PageView): Html {
  if (!view.portal) return html``;
  return html`<div class="account">
    <span>${t(view.locale, 'layout.signedInAs', { name: view.portal.user.name || view.portal.user.email })}</span>
    <form method="post" action="${paths.signOut.href}" class="inline">
      ${csrfField(view)}<button type="submit">${t(view.locale, 'layout.signOut')}</button>
    </form>
  </div>`;
}

function renderLanguageSwitch(view: PageView): Html {
  const other: Locale = view.locale === 'tr' ? 'en' : 'tr';
  return html`<form method="post" action="${paths.locale.href}" class="inline lang">
    ${csrfField(view)}<input type="hidden" name="return_to" value="${view.path}" /><span>${t(view.locale, 'layout.language')}:</span>
    <button type="submit" name="locale" value="${other}" lang="${other}">
      ${t(view.locale, other === 'tr' ? 'layout.language.tr' : 'layout.language.en')}
    </button>
  </form>`;
}

/** A whole HTML page in the portal frame. */
export function renderPage(source: PageSource, options: PageOptions): Html {
  const view = viewOf(source);
  const product = t(view.locale, 'layout.product');
  return html`<!doctype html>
    <html lang="${view.locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · ${product}</title>
        <!-- No icon: browsers would otherwise ask for /favicon.ico on every page and log a 404. -->
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${paths.assets.href('portal.css')}" />
        <script src="${paths.assets.href('portal.js')}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">${t(view.locale, 'layout.skip')}</a>
        <header class="top">
          <a class="brand" href="${paths.home.href}">${product}</a>
          ${renderNav(view, options.active)}
          <div class="tools">${renderAccount(view)}${renderLanguageSwitch(view)}</div>
        </header>
        <main id="main" tabindex="-1"${options.active === 'operator' ? html` class="console"` : ''}>
          <h1>${options.title}</h1>
          ${options.body}
        </main>
        <footer class="foot"><a href="/api/v1/docs">${t(view.locale, 'layout.apiDocs')}</a></footer>
      </body>
    </html> `;
}

/** Sends a rendered page as HTML (UTF-8). */
export function sendPage(reply: FastifyReply, page: Html, statusCode = 200) {
  return reply.code(statusCode).type('text/html; charset=utf-8').send(page.text);
}

/** A POST's answer that sends the browser on to a page (303: the next request is a GET). */
export function redirectTo(reply: FastifyReply, path: string) {
  return reply.redirect(path, 303);
}
