/**
 * GET/POST /portal/sign-in, GET/POST /portal/accept (invitation or reset link), POST
 * /portal/sign-out, POST /portal/locale (D27). The checks and the records are the services'
 * (`services.signIn`, `services.sessions`: src/sessions/); these pages keep the forms, the
 * cookies and the words.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { DomainError } from '../lib/errors.ts';
import { PASSWORD_MAX_LENGTH } from '../users/password-rules.ts';
import { totpUri } from '../users/totp.ts';
import { NAME_MAX_LENGTH, type LinkInfo } from '../users/users.service.ts';
import { acceptPage, linkInvalidPage, signInPage, type TotpEnrolment } from './auth.page.ts';
import { cookieOptions, type PortalCookies } from './cookies.ts';
import { formField, portalPathOr } from './forms.ts';
import { landingPageOr } from './sign-in-next.ts';
import { redirectTo, sendPage } from './layout.ts';
import { isLocale } from '../lib/locale.ts';
import { t, type MessageKey } from './messages/index.ts';
import { domainErrorTexts } from './problem-text.ts';
import { finishSession, startSession, type SessionHookDeps } from './sessions.hooks.ts';
import type { Services } from '../services.ts';
import { deviceTokensOf, setDeviceCookie } from './device-cookie.ts';
import { paths } from './paths.ts';

/** Form bodies of these pages are small; the API's 1 KiB limit is too small for them. */
const FORM_BODY_LIMIT = 16 * 1024;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

function homeOf(role: string): string {
  return role === 'operator' ? paths.operator.href : paths.home.href;
}

function queryField(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

export function registerAuthRoutes(scope: App, deps: { services: Pick<Services, 'signIn'> }, session: SessionHookDeps & { cookies: PortalCookies }) {
  const { signIn } = deps.services;

  scope.get(paths.signIn.route, async (request, reply) => {
    if (request.portal) return redirectTo(reply, homeOf(request.portal.user.role));
    const info: MessageKey | undefined =
      queryField(request, 'signed_out') === '1'
        ? 'auth.signedOut'
        : request.portalState.sessionEnded || queryField(request, 'expired') === '1'
          ? 'auth.signIn.expired'
          : undefined;
    return sendPage(reply, signInPage(request, { next: landingPageOr(queryField(request, 'next'), ''), ...(info ? { info } : {}) }));
  });

  scope.post(paths.signIn.route, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const email = formField(request.body, 'email', 320);
    const next = landingPageOr(formField(request.body, 'next'), '');
    const outcome = await signIn.attempt({
      email,
      password: formField(request.body, 'password', 4 * PASSWORD_MAX_LENGTH),
      code: formField(request.body, 'code', 20),
      address: request.ip,
      deviceTokens: deviceTokensOf(request, session.cookies),
    });
    if (outcome.kind === 'throttled') {
      request.log.info({ outcome: outcome.kind, waitMs: outcome.waitMs }, 'portal: sign-in slowed');
      const seconds = Math.ceil(outcome.waitMs / 1000);
      reply.header('retry-after', String(seconds));
      return sendPage(reply, signInPage(request, { email, next, error: 'auth.signIn.throttled', wait: seconds }), 429);
    }
    if (outcome.kind !== 'signed_in') {
      if (outcome.unreadableSeed)
        request.log.error("portal: an operator's TOTP seed does not open under this key ring (D35): the ring lacks its key; see 'risklookup secrets status'");
      request.log.info({ outcome: outcome.kind }, 'portal: sign-in refused');
      return sendPage(reply, signInPage(request, { email, next, error: 'auth.signIn.failed' }), 401);
    }
    await startSession(request, reply, session, outcome.userId);
    const token = await signIn.trustBrowser(outcome.userId, outcome.knownBrowser);
    setDeviceCookie(request, reply, session.cookies, token, outcome.knownBrowser);
    request.log.info({ userId: outcome.userId, knownBrowser: outcome.knownBrowser !== null }, 'portal: signed in');
    return redirectTo(reply, next || paths.home.href);
  });

  scope.post(paths.signOut.route, { config: { portal: { csrfWhenAnonymous: false } } }, async (request, reply) => {
    if (request.portal) request.log.info({ userId: request.portal.user.id }, 'portal: signed out');
    await finishSession(request, reply, session);
    return redirectTo(reply, `${paths.signIn.href}?signed_out=1`);
  });

  scope.post(paths.locale.route, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const locale = formField(request.body, 'locale');
    if (isLocale(locale)) {
      if (request.portalState.sessionId !== null) await session.sessions.setLocale(request.portalState.sessionId, locale);
      reply.setCookie(session.cookies.locale, locale, cookieOptions(session.cookies, ONE_YEAR_SECONDS));
    }
    return redirectTo(reply, portalPathOr(formField(request.body, 'return_to'), paths.home.href));
  });

  /** An operator's link: the seed stored with it (D35), never one computed from the token. */
  const enrolmentFor = async (link: LinkInfo, token: string): Promise<TotpEnrolment | null> => {
    if (link.role !== 'operator') return null;
    const secret = await signIn.enrolmentSeedOf(token);
    return secret === null ? null : { secret, uri: totpUri(secret, link.email) };
  };

  scope.get(paths.accept.route, async (request, reply) => {
    const token = queryField(request, 'token');
    const link = await signIn.describeLink(token);
    if (!link) return sendPage(reply, linkInvalidPage(request), 404);
    return sendPage(reply, acceptPage(request, { token, link, name: link.name, totp: await enrolmentFor(link, token) }));
  });

  scope.post(paths.accept.route, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => acceptPost(request, reply));

  async function acceptPost(request: FastifyRequest, reply: FastifyReply) {
    const token = formField(request.body, 'token', 100);
    const link = await signIn.describeLink(token);
    if (!link) return sendPage(reply, linkInvalidPage(request), 404);
    const name = formField(request.body, 'name', 4 * NAME_MAX_LENGTH);
    const password = formField(request.body, 'password', 4 * PASSWORD_MAX_LENGTH);
    const totp = await enrolmentFor(link, token);
    const totpCode = formField(request.body, 'totp_code', 20);
    const again = (error: string) => sendPage(reply, acceptPage(request, { token, link, name, totp, error }), 400);
    // The two fields agreeing is the form's own business; what a name and a password must be is
    // the users service's (one rule, worded here from its problem codes).
    if (password !== formField(request.body, 'password2', 4 * PASSWORD_MAX_LENGTH)) return again(t(request.portalState.locale, 'auth.accept.mismatch'));
    let accepted;
    try {
      accepted = await signIn.acceptLink({ token, name, password, ...(totp ? { totpCode } : {}) });
    } catch (e) {
      if (e instanceof DomainError && e.kind === 'not_found') return sendPage(reply, linkInvalidPage(request), 404);
      if (e instanceof DomainError && e.kind === 'invalid') return again(domainErrorTexts(request.portalState.locale, e).join(' '));
      throw e;
    }
    await startSession(request, reply, session, accepted.userId);
    // Accepting a link is signing in: this browser is known to the account from now on.
    setDeviceCookie(request, reply, session.cookies, await signIn.trustBrowser(accepted.userId, null), null);
    request.log.info({ userId: accepted.userId, purpose: link.purpose }, 'portal: link accepted');
    return redirectTo(reply, homeOf(accepted.role));
  }
}
