/**
 * What happens after an attempt (D32, Standard Webhooks 1.0 "Deliverability and reliability"):
 * a 2xx is success; anything else is a failure, retried after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h and 24 h (ten attempts in all, about three days), with up to 10 % random
 * jitter so that retries after an outage do not arrive together; `410 Gone` disables the endpoint
 * at once; 429 and 503 wait at least their `Retry-After`; a redirect is not followed; after the
 * last retry the endpoint is disabled with the reason kept. Pure: the caller gives the time.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The waits before the 2nd … 10th attempt. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A `Retry-After` beyond this is read as this: a receiver cannot park a delivery for weeks. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
/** Up to this share of a delay is added at random. */
export const JITTER = 0.1;

/** What one attempt came to. */
export type AttemptResult =
  | { readonly kind: 'answered'; readonly status: number; readonly retryAfter: string | null }
  /** No answer: refused address, connection or TLS failure, timeout; in words. */
  | { readonly kind: 'no_answer'; readonly error: string };

export type AttemptDecision =
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'retry'; readonly at: number; readonly error: string }
  /** No more attempts; `disableEndpoint` is the reason the endpoint is disabled with. */
  | { readonly kind: 'failed'; readonly error: string; readonly disableEndpoint: string };

/**
 * Milliseconds to wait from a `Retry-After` value (delta-seconds or an HTTP date), bounded by
 * MAX_RETRY_AFTER_MS; null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * SECOND;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at) || !/[a-z]/i.test(text)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/** The failure in words, for the delivery's `last_error` and the portal. */
export function describeFailure(result: AttemptResult): string {
  if (result.kind === 'no_answer') return result.error;
  const { status } = result;
  if (status >= 300 && status < 400) return `answered ${status}, a redirect: redirects are not followed, so give the endpoint its final URL`;
  if (status === 410) return 'answered 410 Gone: the receiver asked for no more deliveries';
  return `answered ${status}, not a 2xx`;
}

/**
 * After attempt number `attempts` (1 for the first) ended in `result` at `now`: done, try again
 * at a time, or give up. `jitter` is a number in [0, 1) (Math.random; tests fix it).
 */
export function decideAfterAttempt(result: AttemptResult, attempts: number, now: number, jitter: number): AttemptDecision {
  if (result.kind === 'answered' && result.status >= 200 && result.status < 300) return { kind: 'succeeded' };
  const error = describeFailure(result);
  if (result.kind === 'answered' && result.status === 410) {
    return { kind: 'failed', error, disableEndpoint: 'The endpoint answered 410 Gone, which asks for no more deliveries.' };
  }
  if (attempts >= MAX_ATTEMPTS) {
    return {
      kind: 'failed',
      error,
      disableEndpoint: `A message could not be delivered in ${MAX_ATTEMPTS} attempts over 3 days; the last attempt: ${error}.`,
    };
  }
  const scheduled = RETRY_DELAYS_MS[attempts - 1]! * (1 + JITTER * jitter);
  const asked = result.kind === 'answered' && (result.status === 429 || result.status === 503) ? retryAfterMs(result.retryAfter, now) : null;
  return { kind: 'retry', at: now + Math.round(Math.max(scheduled, asked ?? 0)), error };
}
