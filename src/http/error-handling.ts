/**
 * D2 from every failure path: one error handler, one not-found handler, 405s with `Allow`, and
 * the HTTP parser's own errors. Every body is spec 2.7 plus `reason`.
 */
import type { App } from './app-type.ts';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError, errorBody, type ErrorReason } from '../lib/errors.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;

/**
 * A schema's refusal of a request. The search's parameters never get here: D7's rules refuse
 * them first, with their own messages (search/search-params.ts, the one owner for the API, the
 * portal and the CLI).
 */
function validationMessage(error: FastifyError): { reason: ErrorReason; message: string } {
  const first = error.validation?.[0];
  const missing = first?.params?.missingProperty;
  const field = (first?.instancePath ?? '').replace(/^\//, '') || (typeof missing === 'string' ? missing : '');
  return { reason: 'invalid_parameter', message: `${field || 'request'} ${first?.message ?? 'is invalid'}` };
}

export function sendError(reply: FastifyReply, reason: ErrorReason, message: string, headers: Record<string, string> = {}) {
  const body = errorBody(reason, message);
  return reply.code(body.code).headers(headers).type('application/json; charset=utf-8').send(body);
}

function handleError(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    request.log.debug({ reason: error.reason, status: error.statusCode }, 'request refused');
    return sendError(reply, error.reason, error.message, { ...error.headers });
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const { reason, message } = validationMessage(fe);
    return sendError(reply, reason, message);
  }
  if (fe.statusCode === 413 || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return sendError(reply, 'payload_too_large', 'request body too large: these endpoints take no body');
  }
  if (fe.statusCode === 415 || fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendError(reply, 'unsupported_media_type', 'these endpoints take no request body');
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return sendError(reply, 'malformed_request', 'malformed request: check the URL, its encoding and the headers');
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendError(reply, 'service_unavailable', 'the service cannot reach its database right now; try again shortly', {
      'retry-after': '5',
    });
  }
  // Anything else is our bug: log it whole, show nothing of it (D2).
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, 'internal_error', `internal error; quote request id ${request.id} when you report it`);
}

/** Registers the handlers and the 405 routes for the given paths and their allowed methods. */
export function registerErrorHandling(app: App, allowedByPath: Record<string, readonly string[]>) {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    !(METHODS as readonly string[]).includes(request.method)
      ? sendError(reply, 'not_implemented', `the method ${request.method} is not supported; this API answers GET`)
      : sendError(
          reply,
          'not_found',
          `no such endpoint: ${request.method} ${request.url.split('?')[0]}. ` +
            'The API has GET /api/v1/search.php and GET /api/v1/countries.php; its reference is at /api/v1/docs',
        ),
  );
  for (const [url, allowed] of Object.entries(allowedByPath)) {
    const others = METHODS.filter((m) => !allowed.includes(m));
    app.route({
      method: others,
      url,
      exposeHeadRoute: false,
      // Not operations of the API: kept out of the OpenAPI document.
      schema: { hide: true },
      handler: (request) => {
        throw new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}`, {
          allow: allowed.join(', '),
        });
      },
    });
  }
}

/** Answers the parser's own errors (bad request line, oversized headers...) in the D2 body. */
export function handleClientError(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'header_too_large', 'request headers too large'] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'request_timeout', 'request not received in time'] as const)
        : ([400, 'malformed_request', 'malformed HTTP request'] as const);
  const body = JSON.stringify(errorBody(reason, message));
  const text = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
