/**
 * D36: one log line per request, at `info`, when its answer is done, and the request's figures
 * for the metrics. Fastify's own two lines (incoming, completed) are off (app.ts).
 *
 * The line has the method, the route pattern (`/portal/operator/companies/:id`: never the URL,
 * whose query may hold a search, a one-time link's token or a pasted key), the status, the time
 * and the request id (`reqId`, from the logger). No header, cookie or body is ever logged. A
 * request no route answered (404) logs its path, with anything that looks like a key redacted
 * (lib/redact.ts). The search's `q` is not logged: the audit keeps it (D21), where access and
 * retention are ruled (D34: one year); logs go wherever the operator ships them, for as long.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './app-type.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { redactSecrets } from '../lib/redact.ts';

const PATH_SHOWN_MAX = 200;

/** What the line says of a request, apart from the request id the logger adds. */
export function requestLogFields(request: FastifyRequest, reply: FastifyReply) {
  const route = request.routeOptions.url ?? null;
  return {
    method: request.method,
    route,
    ...(route === null ? { path: redactSecrets(request.url.split('?', 1)[0]!).slice(0, PATH_SHOWN_MAX) } : {}),
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
  };
}

export function registerRequestLog(app: App, metrics: Metrics) {
  app.addHook('onResponse', (request, reply, done) => {
    const fields = requestLogFields(request, reply);
    request.log.info(fields, 'request');
    const route = fields.route ?? 'unmatched';
    metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.duration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.quotaRefusals.inc({ route });
    done();
  });
}
