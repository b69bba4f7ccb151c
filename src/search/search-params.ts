/**
 * D7's parameter rules, the one owner for the API, the portal's search page and `risklookup
 * search`: secrets in the URL, repeated or badly encoded parameters, trimming, control
 * characters (`normaliseSearchQuery`), then the length of `q`, the type and the country
 * (`checkSearchInput`). Pure; refusals are AppErrors with the API's reasons and messages, which
 * the portal words from their problems and the CLI prints as usage errors. The API's schema
 * documents the same limits (Q_MIN_CHARS, Q_MAX_CHARS).
 */
import { AppError } from '../lib/errors.ts';
import { InvalidEncoding, type ParsedQuery, type QueryValue } from '../lib/query-values.ts';
import { isWellFormedApiKey } from '../keys/api-key.ts';
import { findKeySpans } from '../lib/redact.ts';
import type { SearchInput } from './search.service.ts';

/** D7: `q` after trimming, in characters (code points). */
export const Q_MIN_CHARS = 3;
export const Q_MAX_CHARS = 100;
/** D1: where the supported countries are listed (a refusal names it). */
const COUNTRIES_PATH = '/api/v1/countries.php';

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

/** D7's length, type and country rules on a normalised query: the search's input, or the refusal (400). */
export function checkSearchInput(query: NormalisedSearchQuery, isSupportedCountry: (code: string) => boolean): SearchInput {
  const lengthProblem = { code: 'search.q_length', params: { min: Q_MIN_CHARS, max: Q_MAX_CHARS } } as const;
  const q = query.q;
  if (q === undefined) {
    const message = `q is required: the company name or tax ID to look up (${Q_MIN_CHARS} to ${Q_MAX_CHARS} characters)`;
    throw new AppError('invalid_parameter', message, {}, lengthProblem);
  }
  const length = [...q].length;
  if (length < Q_MIN_CHARS) throw new AppError('invalid_parameter', `q must be at least ${Q_MIN_CHARS} characters after trimming spaces`, {}, lengthProblem);
  if (length > Q_MAX_CHARS) {
    throw new AppError('invalid_parameter', `q must be at most ${Q_MAX_CHARS} characters: search for one company at a time`, {}, lengthProblem);
  }
  const type = query.type ?? 'name';
  if (type !== 'name' && type !== 'tax_id') {
    throw new AppError('invalid_parameter', "type must be 'name' or 'tax_id' (or left out for 'name')", {}, { code: 'search.type_invalid' });
  }
  const country = query.country ?? null;
  if (country !== null && !isSupportedCountry(country)) {
    const message = `country must be the 2-letter code of a supported country; GET ${COUNTRIES_PATH} lists them`;
    throw new AppError('unsupported_country', message, {}, { code: 'search.country_unsupported', params: { country } });
  }
  return { q, type, country };
}
