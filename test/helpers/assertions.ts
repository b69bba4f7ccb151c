import assert from 'node:assert/strict';
import { ERROR_REASONS } from '../../src/lib/errors.ts';
import type { ErrorBody } from './bodies.ts';

/** Asserts the D2 body and headers of an error response; returns the body. */
export function assertErrorBody(res: { statusCode: number; headers: Record<string, unknown>; json<T>(): T }, status: number, reason: string): ErrorBody {
  const body = res.json<ErrorBody>();
  assert.equal(res.statusCode, status, JSON.stringify(body));
  assert.deepEqual(Object.keys(body), ['success', 'error', 'code', 'reason', 'docs']);
  assert.equal(body.success, false);
  assert.equal(body.code, status);
  assert.equal(body.reason, reason);
  assert.ok(body.reason in ERROR_REASONS);
  assert.ok(body.error.length > 10);
  assert.equal(body.docs, `/api/v1/docs/errors#reason-${reason}`);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.ok(res.headers['x-request-id']);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used']) {
    assert.ok(res.headers[h] !== undefined, `${h} missing on ${status}`);
  }
  assertStandardRateLimit(res.headers);
  return body;
}

/**
 * The IETF draft fields beside X-RateLimit-*: the same figures, `RateLimit-Policy:
 * "daily";q=<limit>;w=86400` and `RateLimit: "daily";r=<remaining>;t=<seconds to the reset>`.
 */
export function assertStandardRateLimit(headers: Record<string, unknown>) {
  const limit = Number(headers['x-ratelimit-limit']);
  assert.equal(headers['ratelimit-policy'], `"daily";q=${limit};w=86400`);
  const m = /^"daily";r=(\d+);t=(\d+)$/.exec(String(headers.ratelimit));
  assert.ok(m, `RateLimit: ${String(headers.ratelimit)}`);
  assert.equal(Number(m[1]), Number(headers['x-ratelimit-remaining']));
  const t = Number(m[2]);
  assert.ok(t >= 0 && t <= 86_400, `t=${t}`);
  // Seconds to the reset at X-RateLimit-Reset, measured from the request's own clock.
  if (headers['retry-after'] !== undefined) assert.equal(Math.max(1, t), Number(headers['retry-after']));
}

/**
 * Retries an assertion until it holds or 2 s pass. For effects that happen after the response
 * has been sent (the audit record is written in onResponse).
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 2000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
