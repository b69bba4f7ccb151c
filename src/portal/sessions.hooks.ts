/**
 * Every /portal/ request: the session (the sessions service, src/sessions/sessions.service.ts) fills `request.portal`, the page
 * state (language, the token forms carry) fills `request.portalState`; every state-changing
 * request is checked for a same-origin Origin (or Referer) and a CSRF token (D27).
 *
 * Signed in, the token is the session's csrf_token; anonymous forms (sign-in, accepting a link,
 * the language switch) use a double-submit cookie. Both compared in constant time.
 */
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { generateSecretToken, isSecretToken, secretsEqual } from '../users/one-time-token.ts';
import { cookieOptions, type PortalCookies } from './cookies.ts';
import { isLocale, localeFromAcceptLanguage } from '../lib/locale.ts';
import type { Locale } from './portal-context.ts';
import { csrfError } from './portal-errors.ts';
import type { Sessions } from '../sessions/sessions.service.ts';

export interface PortalRequestState {
  locale: Locale;
  /** The token every form of this page carries in `_csrf` (csrfField in layout.ts). */
  csrfToken: string;
  /** The session row's id when signed in (never the cookie's secret). */
  sessionId: number | null;
  /** A session came with the request but has just ended (idle, too old, access withdrawn). */
  sessionEnded: boolean;
}

/** Per-route settings: `config: { portal: { ... } }`. */
export interface PortalRouteConfig {
  /** false: no session lookup at all (static assets). */
  session?: boolean;
  /** false: a POST without a session needs no token (only the Origin check): sign-out. */
  csrfWhenAnonymous?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    portalState: PortalRequestState;
  }
  interface FastifyContextConfig {
    portal?: PortalRouteConfig;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function routeConfigOf(request: FastifyRequest): PortalRouteConfig {
  return (request.routeOptions.config as { portal?: PortalRouteConfig } | undefined)?.portal ?? {};
}

function originOf(text: string | undefined): string | null {
  if (!text || text === 'null') return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The origins a form of ours is posted from: this request's own, and the configured public URL's. */
function allowedOrigins(request: FastifyRequest, publicUrl: string): string[] {
  return [originOf(`${request.protocol}://${request.host}`), originOf(publicUrl)].filter((o): o is string => o !== null);
}

/** Origin, or Referer when a browser sent no Origin; neither, or another site's, is refused. */
export function isSameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  const claimed = origin !== undefined ? originOf(origin) : originOf(request.headers.referer);
  return claimed !== null && allowedOrigins(request, publicUrl).includes(claimed);
}

/** The `_csrf` field of a form body (urlencoded, or multipart with fields on the body). */
function submittedToken(body: unknown): string | null {
  const field = (body as Record<string, unknown> | null | undefined)?._csrf;
  if (typeof field === 'string') return field;
  const value = (field as { value?: unknown } | undefined)?.value;
  return typeof value === 'string' ? value : null;
}

export interface SessionHookDeps {
  /** The sessions' use cases (src/services.ts): the hook keeps only the cookies. */
  sessions: Sessions;
  cookies: PortalCookies;
  publicUrl: string;
}

function localeOf(request: FastifyRequest, cookies: PortalCookies, sessionLocale: Locale | null): Locale {
  if (sessionLocale) return sessionLocale;
  const chosen = request.cookies[cookies.locale];
  return isLocale(chosen) ? chosen : localeFromAcceptLanguage(request.headers['accept-language']);
}

/** The anonymous double-submit token: the cookie's, or a new one set now. */
function anonymousToken(request: FastifyRequest, reply: FastifyReply, cookies: PortalCookies): string {
  const existing = request.cookies[cookies.csrf];
  if (existing !== undefined && isSecretToken(existing)) return existing;
  const token = generateSecretToken();
  reply.setCookie(cookies.csrf, token, cookieOptions(cookies));
  return token;
}

export function registerSessionHook(scope: App, deps: SessionHookDeps) {
  scope.decorateRequest('portal', null);
  scope.decorateRequest('portalState', null as unknown as PortalRequestState);

  scope.addHook('onRequest', async (request, reply) => {
    request.portalState = { locale: localeFromAcceptLanguage(request.headers['accept-language']), csrfToken: '', sessionId: null, sessionEnded: false };
    if (routeConfigOf(request).session === false) return;
    const outcome = await deps.sessions.resolve(request.cookies[deps.cookies.session]);
    if (outcome.kind === 'live') {
      const locale = localeOf(request, deps.cookies, outcome.locale);
      request.portal = { ...outcome.context, locale };
      request.portalState = { locale, csrfToken: outcome.context.csrfToken, sessionId: outcome.sessionId, sessionEnded: false };
      return;
    }
    if (outcome.kind === 'ended') reply.clearCookie(deps.cookies.session, cookieOptions(deps.cookies));
    request.portalState = {
      locale: localeOf(request, deps.cookies, null),
      csrfToken: anonymousToken(request, reply, deps.cookies),
      sessionId: null,
      sessionEnded: outcome.kind === 'ended',
    };
  });

  scope.addHook('preHandler', (request, _reply, done) => {
    try {
      checkStateChange(request, deps);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

/** A state change must come from this origin and carry the right `_csrf` (throws the 403 otherwise). */
function checkStateChange(request: FastifyRequest, deps: SessionHookDeps): void {
  if (!STATE_CHANGING.has(request.method)) return;
  if (!isSameOrigin(request, deps.publicUrl)) {
    request.log.info({ origin: request.headers.origin ?? null }, 'portal: state change refused: not from this origin');
    throw csrfError();
  }
  if (request.portal === null && routeConfigOf(request).csrfWhenAnonymous === false) return;
  const expected = request.portalState.csrfToken;
  const submitted = submittedToken(request.body);
  // Anonymous: the token must also be the cookie's (a token just set now matches nothing sent).
  const anonymousMismatch = request.portal === null && request.cookies[deps.cookies.csrf] !== expected;
  if (expected === '' || submitted === null || !secretsEqual(submitted, expected) || anonymousMismatch) {
    request.log.info('portal: state change refused: missing or wrong CSRF token');
    throw csrfError();
  }
}

/**
 * Signs a user in: ends the session the browser had (if any) and starts a new one with a new id
 * (D27: no fixation), setting the cookie.
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, deps: SessionHookDeps, userId: number): Promise<void> {
  const chosen = request.cookies[deps.cookies.locale];
  const session = await deps.sessions.start({ userId, locale: isLocale(chosen) ? chosen : null, replacing: request.portalState.sessionId });
  reply.setCookie(deps.cookies.session, session.id, cookieOptions(deps.cookies));
}

/** Ends the request's session and clears its cookie. */
export async function finishSession(request: FastifyRequest, reply: FastifyReply, deps: SessionHookDeps): Promise<void> {
  if (request.portalState.sessionId !== null) await deps.sessions.end(request.portalState.sessionId);
  reply.clearCookie(deps.cookies.session, cookieOptions(deps.cookies));
}
