/**
 * The portal's one reading of a query string (issue 27, finding 9). The server's parser
 * (http/query-string.ts) keeps a repeated parameter as an array and a bad percent-encoding as a
 * marker, so that the API can name them in its 400 (D7); a portal page that read such a value as
 * a string failed with a 500 (`?tax_id=1&tax_id=2`). Here every portal request is checked once,
 * before any page reads it: a parameter given twice or not valid UTF-8 is a 400 page naming it,
 * and what the pages read is one string per name.
 */
import type { FastifyRequest } from 'fastify';
import { InvalidEncoding } from '../http/query-string.ts';
import type { App } from '../http/app-type.ts';
import { PortalError } from './portal-errors.ts';

export type PortalQuery = Readonly<Record<string, string>>;

export type QueryProblem = { kind: 'repeated' | 'encoding'; name: string };

/** Longest parameter name repeated in a refusal (the name is the client's text). */
const NAME_SHOWN_MAX = 40;

/** One string per name, or the first problem. Pure. */
export function readPortalQuery(parsed: unknown): { query: PortalQuery } | { problem: QueryProblem } {
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries((parsed ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) return { problem: { kind: 'repeated', name } };
    if (value instanceof InvalidEncoding || typeof value !== 'string') return { problem: { kind: 'encoding', name } };
    query[name] = value;
  }
  return { query };
}

/** The checked query of a portal request (registerPortalQuery has run for every one). */
export function portalQueryOf(request: FastifyRequest): PortalQuery {
  return request.query as PortalQuery;
}

/** Checks the query string of every request of the portal's scope, after its session hook (the page's language). */
export function registerPortalQuery(scope: App) {
  // eslint-disable-next-line @typescript-eslint/require-await -- a throw from an async hook is Fastify's refusal
  scope.addHook('onRequest', async (request) => {
    const read = readPortalQuery(request.query);
    if ('problem' in read) {
      const name = [...read.problem.name].slice(0, NAME_SHOWN_MAX).join('');
      throw new PortalError(400, 'error.badRequest.title', read.problem.kind === 'repeated' ? 'error.query.repeated' : 'error.query.encoding', { name });
    }
    request.query = read.query;
  });
}
