/** GET/HEAD /api/v1/countries(.php) (spec 4.2, D5, D22). */
import type { App } from '../http/app-type.ts';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { errorResponses, okResponse } from '../http/schemas.ts';
import type { CountryCatalogue } from './catalogue.ts';

export function registerCountriesRoutes(app: App, catalogue: CountryCatalogue, paths: readonly string[]) {
  // The body never changes while the process runs: build it and its ETag once.
  const countries = catalogue.list().map((c) => ({
    code: c.code,
    name: c.name,
    id_types: c.idTypes.map((t) => ({ type: t.type, name: t.name, pattern: t.pattern, example: t.example, checksum: t.checksum })),
  }));
  const body = { success: true as const, country_count: countries.length, countries };
  // Serialised once: the same 13 KB for every request.
  const payload = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;

  for (const url of paths) {
    app.get(url, {
      schema: {
        // One operation id for the documented path; the alias without `.php` is the same operation.
        ...(url === paths[0] ? { operationId: 'listCountries' } : {}),
        summary: 'Supported countries and their tax-ID formats',
        description: 'No authentication. Cacheable for an hour; honours If-None-Match.',
        tags: ['countries'],
        response: { 200: okResponse('CountriesResponse', 'The supported countries'), ...errorResponses([429, 500, 503]) },
      },
      onSend: async (_request, reply) => {
        reply.header('access-control-allow-origin', '*');
      },
      handler: async (request, reply) => {
        reply.header('cache-control', 'public, max-age=3600').header('etag', etag);
        const match = request.headers['if-none-match'];
        if (match && match.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
          return (reply as FastifyReply).code(304).send();
        }
        return (reply as FastifyReply).type('application/json; charset=utf-8').send(payload);
      },
    });
  }
}
