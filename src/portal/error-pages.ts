/**
 * The portal's own error handler and not-found handler: HTML pages in the reader's language,
 * never the API's JSON bodies (those stay for /api/). Statuses follow the same rules.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError, DomainError, statusOf } from '../lib/errors.ts';
import { notice } from './components.ts';
import { html } from './html.ts';
import { renderPage, sendPage } from './layout.ts';
import { localeFromAcceptLanguage } from '../lib/locale.ts';
import { t, type MessageKey } from './messages/index.ts';
import { PortalError } from './portal-errors.ts';
import { appErrorText, domainErrorTexts, reasonText } from './problem-text.ts';
import { paths } from './paths.ts';

function ensureState(request: FastifyRequest) {
  // A request refused before the portal's own hook ran (admission, transport) has no state yet.
  request.portalState ??= { locale: localeFromAcceptLanguage(request.headers['accept-language']), csrfToken: '', sessionId: null, sessionEnded: false };
}

export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, statusCode: number, title: string, text: string) {
  ensureState(request);
  const body = html`${notice('error', text)}
    <p><a href="${paths.home.href}">${t(request.portalState.locale, 'error.backHome')}</a></p>`;
  return sendPage(reply, renderPage(request, { title, body }), statusCode);
}

function pageOf(request: FastifyRequest, titleKey: MessageKey, textKey: MessageKey, values: Record<string, string> = {}) {
  ensureState(request);
  const locale = request.portalState.locale;
  return { title: t(locale, titleKey), text: t(locale, textKey, values) };
}

/** @fastify/multipart's and Fastify's codes for a multipart body over its limits. */
const UPLOAD_LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_ERR_CTP_BODY_TOO_LARGE']);
/** The one route that takes files (reports.routes.ts). */
const FILING_ROUTE = paths.reports.href;

function handlePortalError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PortalError) {
    const { title, text } = pageOf(request, error.titleKey, error.textKey, error.values);
    return sendErrorPage(request, reply, error.statusCode, title, text);
  }
  if (error instanceof AppError) {
    request.log.debug({ reason: error.reason, status: error.statusCode }, 'request refused');
    reply.headers({ ...error.headers });
    const busy = error.reason === 'overloaded' || error.reason === 'service_unavailable';
    const { title, text } = pageOf(request, 'error.title', 'error.busy.text');
    return sendErrorPage(request, reply, error.statusCode, title, busy ? text : appErrorText(request.portalState.locale, error));
  }
  if (error instanceof DomainError) {
    const status = statusOf(error);
    const { title } = pageOf(request, 'error.title', 'error.title');
    return sendErrorPage(request, reply, status, title, domainErrorTexts(request.portalState.locale, error).join(' '));
  }
  const fe = error as FastifyError;
  // The filing form's files beyond its limits (count, or the whole body): what the limits are,
  // in the page's language, rather than the parser's own words.
  if (UPLOAD_LIMIT_CODES.has(fe.code) && request.routeOptions.url === FILING_ROUTE) {
    const { title, text } = pageOf(request, 'error.badRequest.title', 'error.uploadTooLarge.text');
    return sendErrorPage(request, reply, 413, title, text);
  }
  if (fe.validation || (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)) {
    const { title } = pageOf(request, 'error.badRequest.title', 'error.badRequest.title');
    const status = fe.validation ? 400 : fe.statusCode!;
    // Fastify's own words are English and about the parser: the reason the API would give, in the page's language.
    const reason = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'malformed_request';
    return sendErrorPage(request, reply, status, title, fe.validation ? title : reasonText(request.portalState.locale, reason));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', '5');
    const { title, text } = pageOf(request, 'error.title', 'error.busy.text');
    return sendErrorPage(request, reply, 503, title, text);
  }
  request.log.error({ err: error }, 'unhandled error');
  const { title, text } = pageOf(request, 'error.title', 'error.internal.text', { id: String(request.id) });
  return sendErrorPage(request, reply, 500, title, text);
}

export function registerPortalErrorPages(scope: App) {
  scope.setErrorHandler(handlePortalError);
  scope.setNotFoundHandler((request, reply) => {
    const { title, text } = pageOf(request, 'error.notFound.title', 'error.notFound.text');
    return sendErrorPage(request, reply, 404, title, text);
  });
}
