/**
 * D7's request rules that a JSON schema cannot express: secrets in the URL, repeated or
 * badly encoded parameters, trimming, control characters. Pure. The result then goes through
 * the route's schema (length, allowed values), so both views of the request agree.
 */
import { AppError } from '../lib/errors.ts';
import { InvalidEncoding, type ParsedQuery, type QueryValue } from '../lib/query-values.ts';
import { isWellFormedApiKey } from '../keys/api-key.ts';
import { findKeySpans } from '../lib/redact.ts';

/** Parameters that look like a key in the URL (D7). */
export const SECRET_PARAMETERS = ['api_key', 'apikey', 'key', 'token', 'access_token'] as const;

export interface NormalisedSearchQuery {
  q?: string;
  type?: string;
  country?: string;
}

/**
 * True when a value holds one of our keys, checksum included, also split by a space or a line
 * break (pasted in two halves): such a query is refused, never run, charged or echoed.
 */
function holdsApiKey(value: QueryValue): boolean {
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => typeof v === 'string' && findKeySpans(v, isWellFormedApiKey).length > 0);
}

export function rejectSecretsInUrl(query: ParsedQuery): void {
  const found = [
    ...SECRET_PARAMETERS.filter((name) => query[name] !== undefined && query[name] !== ''),
    // A key pasted into q (or anywhere else in the URL) is just as exposed, and would be echoed.
    ...Object.keys(query).filter((name) => !(SECRET_PARAMETERS as readonly string[]).includes(name) && holdsApiKey(query[name]!)),
  ];
  if (found.length > 0) {
    throw new AppError(
      'key_in_url',
      `Do not put an API key in the URL (parameter ${found.join(', ')}): URLs end up in logs and browser history. ` +
        'Send it in the X-API-Key header instead, and regenerate the key if it was exposed',
      {},
      { code: 'search.key_in_url', params: { names: found.join(', ') } },
    );
  }
}

function single(name: string, value: QueryValue | undefined): string | undefined {
  if (Array.isArray(value)) {
    throw new AppError(
      'duplicate_parameter',
      `${name} was given ${value.length} times: give it once`,
      {},
      {
        code: 'search.parameter_repeated',
        params: { name, count: value.length },
      },
    );
  }
  if (value instanceof InvalidEncoding) {
    throw new AppError(
      'malformed_request',
      `${name} is not valid percent-encoded UTF-8: encode it with encodeURIComponent`,
      {},
      {
        code: 'search.parameter_encoding',
        params: { name },
      },
    );
  }
  return value === '' ? undefined : value;
}

export function normaliseSearchQuery(query: ParsedQuery): NormalisedSearchQuery {
  const q = single('q', query.q);
  const type = single('type', query.type);
  const country = single('country', query.country);
  const out: NormalisedSearchQuery = {};
  if (q !== undefined) {
    if (/\p{Cc}/u.test(q)) {
      throw new AppError(
        'invalid_parameter',
        'q must not contain control characters (such as NUL, tab or line breaks)',
        {},
        { code: 'search.control_characters' },
      );
    }
    const trimmed = q.trim().replace(/\s+/gu, ' ');
    if (trimmed !== '') out.q = trimmed;
  }
  if (type !== undefined) out.type = type;
  if (country !== undefined) out.country = country.toUpperCase();
  return out;
}
