/** The headers every API response carries (D2, D3), as documented in the OpenAPI document. */

const integer = (description: string) => ({ type: 'integer', description });
const text = (description: string, example: string) => ({ type: 'string', description, example });

export const RESPONSE_HEADERS = {
  'X-RateLimit-Limit': integer(
    "Requests allowed per quota day: the daily quota of the key's member (all its keys together), or the address's allowance without a valid key (D3, D20)",
  ),
  'X-RateLimit-Remaining': integer('Requests left today'),
  'X-RateLimit-Reset': integer('Unix time (seconds) of the next reset: midnight Turkey time (D19)'),
  'X-RateLimit-Used': integer('Requests counted today'),
  'RateLimit-Policy': text('The same quota as the IETF httpapi draft field: policy "daily", q = quota, w = window in seconds', '"daily";q=100;w=86400'),
  RateLimit: text('The IETF httpapi draft field: r = requests left, t = seconds until the reset', '"daily";r=57;t=3600'),
  'X-Request-Id': text('Identifier of this request; quote it when you report a problem', '0b5e7c1c-3f52-4f7a-9d4e-2f0f6c1d2a9b'),
};

export const RETRY_AFTER_HEADER = {
  'Retry-After': integer('Seconds to wait before retrying'),
};
