/** The audit record of every search request (D21). Never the key, never its digest. Resolves once it is committed. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import { redactSecrets } from '../lib/redact.ts';
import type { AuditWriter } from './audit-writer.ts';

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return redactSecrets(value).slice(0, max);
}

export function recordSearch(deps: { audit: AuditWriter; clock: Clock; auditQueryChars: number }, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // Shed before authentication (D26): not a search request that reached it (D21).
  if (request.shed) return Promise.resolve();
  const query = (request.query ?? {}) as Record<string, unknown>;
  return deps.audit.write(
    {
      at: deps.clock.now(),
      key_id: request.keyHolder?.keyId ?? null,
      member_id: request.keyHolder?.memberId ?? null,
      q: text(query.q, deps.auditQueryChars),
      type: text(query.type, 20),
      country: text(query.country, 10),
      status: reply.statusCode,
      result_count: request.resultCount,
      response_ms: Math.round(reply.elapsedTime),
      // As the request arrived: a client that closed its connection before the answer has no
      // `ip` left, and a NOT NULL failure would take the writer's whole batch along. One gone
      // before its address was read at all is recorded as 'unknown'.
      client_address: request.clientAddress ?? request.ip ?? 'unknown',
    },
    request.foundCompanyIds ?? undefined,
  );
}
