/** The audit record of every search request (D21). Never the key, never its digest. */
import type { Clock } from '../lib/clock.ts';
import type { KeyHolderRow } from '../keys/keys.repository.ts';
import { redactSecrets } from '../lib/redact.ts';
import type { AuditEntry } from './audit.repository.ts';
import type { AuditWriter } from './audit-writer.ts';

export interface SearchAuditDeps {
  audit: AuditWriter;
  clock: Clock;
  auditQueryChars: number;
}

/**
 * What a search's record reads of its request: the HTTP layer's request carries these
 * (http/request-context.ts), so the audit needs no web framework's types.
 */
export interface SearchRequestFacts {
  readonly query: unknown;
  readonly keyHolder: Pick<KeyHolderRow, 'keyId' | 'memberId'> | null;
  readonly clientAddress: string | null;
  /** Undefined once the client's socket is gone. */
  readonly ip: string | undefined;
  readonly shed: boolean;
  readonly resultCount: number | null;
  readonly foundCompanyIds: readonly number[] | null;
}

/** How the request was answered. */
export interface SearchReplyFacts {
  readonly statusCode: number;
  readonly elapsedTime: number;
}

/**
 * As asked, secrets redacted, cut to `max`; a NUL becomes U+FFFD: PostgreSQL's text cannot hold
 * one, and the failed INSERT would take the other records of its batch along (a 400 for control
 * characters is still recorded with what it asked).
 */
export function auditText(value: unknown, max: number): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return redactSecrets(value.replaceAll('\0', '\uFFFD')).slice(0, max);
}

/** The record of an API search request as it was asked and answered. */
export function searchRecord(
  deps: Pick<SearchAuditDeps, 'clock' | 'auditQueryChars'>,
  request: SearchRequestFacts,
  answer: { status: number; resultCount: number | null; responseMs: number },
): AuditEntry {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return {
    at: deps.clock.now(),
    key_id: request.keyHolder?.keyId ?? null,
    member_id: request.keyHolder?.memberId ?? null,
    q: auditText(query.q, deps.auditQueryChars),
    type: auditText(query.type, 20),
    country: auditText(query.country, 10),
    status: answer.status,
    result_count: answer.resultCount,
    response_ms: Math.round(answer.responseMs),
    // As the request arrived: a client that closed its connection before the answer has no
    // `ip` left, and a NOT NULL failure would take the writer's whole batch along. One gone
    // before its address was read at all is recorded as 'unknown'.
    client_address: request.clientAddress ?? request.ip ?? 'unknown',
  };
}

/**
 * Hands the request's record to the audit writer; resolves once it is committed, or once the
 * writer has reported that it could not be (the answer, an error that took nothing, still goes:
 * the writer logs the loss). An answered search (200) was recorded with its unit instead
 * (charge-batch.ts, search.routes.ts), where a failure fails the answer.
 */
export async function recordSearch(deps: SearchAuditDeps, request: SearchRequestFacts, reply: SearchReplyFacts): Promise<void> {
  // Shed before authentication (D26): not a search request that reached it (D21).
  if (request.shed) return;
  await deps.audit
    .write(
      searchRecord(deps, request, { status: reply.statusCode, resultCount: request.resultCount, responseMs: reply.elapsedTime }),
      request.foundCompanyIds ?? undefined,
    )
    .catch(() => undefined);
}
