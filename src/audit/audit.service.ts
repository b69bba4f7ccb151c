/** The audit record of every search request (D21). Never the key, never its digest. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { redactSecrets } from '../lib/redact.ts';
import { insertAuditEntry } from './audit.repository.ts';

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return redactSecrets(value).slice(0, max);
}

export async function recordSearch(
  deps: { db: Kysely<Database>; clock: Clock; config: Config },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  try {
    await insertAuditEntry(deps.db, {
      at: deps.clock.now(),
      key_id: request.keyHolder?.keyId ?? null,
      member_id: request.keyHolder?.memberId ?? null,
      q: text(query.q, deps.config.auditQueryChars),
      type: text(query.type, 20),
      country: text(query.country, 10),
      status: reply.statusCode,
      result_count: request.resultCount,
      response_ms: Math.round(reply.elapsedTime),
      client_address: request.ip,
    });
  } catch (error) {
    request.log.error({ err: error }, 'could not write the audit record');
  }
}
