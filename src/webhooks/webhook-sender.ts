/**
 * One attempt: a POST of the signed body (Standard Webhooks 1.0 headers) over HTTPS, through the
 * guarded `lookup` (safe-lookup.ts: the address is checked again at connection time), within a
 * time limit, no redirect followed (Node's client follows none). Never throws: every outcome is
 * an AttemptResult, a failure in words.
 */
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { AttemptResult } from './delivery-rules.ts';

/** D32: a 2xx within 10 s is success. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'risklookup-webhooks/1.0 (Standard Webhooks 1.0)';
/** Of an answer's body, at most this much is read (and thrown away) before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface SignedRequest {
  readonly url: string;
  readonly webhookId: string;
  readonly timestampSeconds: number;
  readonly signature: string;
  readonly body: string;
}

export interface SenderDeps {
  readonly agent: https.Agent;
  readonly lookup: LookupFunction;
  readonly timeoutMs: number;
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_CERT)/;

/** A connection's failure in words for the portal (never the body or a secret). */
export function failureWords(error: NodeJS.ErrnoException, host: string): string {
  const code = error.code ?? '';
  if (code === 'EADDRREFUSED') return `refused: ${error.message}`;
  if (code === 'ECONNREFUSED') return `${host} refused the connection`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `${host} closed the connection before answering`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${host} could not be resolved`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${host} could not be reached`;
  if (TLS_CODES.test(code)) return `the TLS connection to ${host} failed: ${error.message}`;
  return `${host}: ${code ? `${code} ` : ''}${error.message}`.slice(0, 300);
}

export async function sendWebhook(request: SignedRequest, deps: SenderDeps): Promise<AttemptResult> {
  const url = new URL(request.url);
  const host = url.host;
  // Node connects to an IP literal without calling `lookup`: the address rule is applied to it here, by the same lookup, before connecting
  // (an endpoint registered while private addresses were allowed is refused once they no longer are).
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(literal)) {
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => deps.lookup(literal, {}, (error) => resolve(error)));
    if (refused) return { kind: 'no_answer', error: failureWords(refused, host) };
  }
  return new Promise((resolve) => {
    let result: AttemptResult | null = null;
    const settle = (outcome: AttemptResult) => {
      if (result) return;
      result = outcome;
      resolve(outcome);
    };
    const req = https.request(
      request.url,
      {
        method: 'POST',
        agent: deps.agent,
        lookup: deps.lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': USER_AGENT,
          'webhook-id': request.webhookId,
          'webhook-timestamp': String(request.timestampSeconds),
          'webhook-signature': request.signature,
        },
      },
      (res) => {
        const retryAfter = res.headers['retry-after'];
        settle({ kind: 'answered', status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('error', () => {});
        res.on('close', () => clearTimeout(timer));
      },
    );
    // One limit for all of it (resolution, connection, TLS, the answer's head); the body after it is not waited for.
    const timer = setTimeout(() => {
      settle({ kind: 'no_answer', error: `no answer within ${deps.timeoutMs / 1000} s` });
      req.destroy();
    }, deps.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      settle({ kind: 'no_answer', error: failureWords(error, host) });
    });
    req.end(request.body);
  });
}
