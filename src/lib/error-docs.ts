/**
 * What each error `reason` (D2) means and what the caller should do about it. The API docs
 * (docs/api.md, the page at /api/v1/docs/errors, the ErrorBody schema) are all written from
 * this table, and every error body links to its entry.
 */
import { ERROR_REASONS, type ErrorReason } from './errors.ts';

export interface ReasonDoc {
  means: string;
  todo: string;
}

export const REASON_DOCS: { readonly [R in ErrorReason]: ReasonDoc } = {
  invalid_parameter: {
    means: '`q` is missing, shorter than 3 or longer than 100 characters, or holds control characters; or `type` is not `name`/`tax_id`.',
    todo: 'Fix the parameter named in `error`; do not retry unchanged.',
  },
  duplicate_parameter: { means: 'A parameter appears twice in the URL.', todo: 'Send each parameter once.' },
  query_too_generic: {
    means: 'After dropping legal forms (A.Ş., Ltd. Şti., GmbH…) and punctuation, no word of 3 or more characters is left.',
    todo: 'Add a distinctive word of the company name, or search by tax ID.',
  },
  invalid_tax_id: {
    means: "The tax ID does not fit the country's formats, or its check digits are wrong (D9). A typo never reads as “no records”.",
    todo: 'Check the number against the document it came from; `GET /api/v1/countries` lists the formats.',
  },
  invalid_cursor: {
    means: '`after` is not a cursor this service gave out (the events feed, D31).',
    todo: 'Send back `next_cursor` exactly as received, or leave `after` out to start from the oldest event kept (30 days).',
  },
  watchlist_full: {
    means: "The member's watchlist holds as many companies as its cap allows (D31; 500 unless the association set another).",
    todo: 'Remove companies you no longer need (`DELETE /api/v1/watchlist/{country}/{tax_id}`), or ask the association for a higher cap.',
  },
  unsupported_country: {
    means: '`country` is not the 2-letter code of a supported country.',
    todo: 'Use a code from `GET /api/v1/countries`, or leave `country` out.',
  },
  key_in_url: {
    means: 'A key-like parameter (`api_key`, `apikey`, `key`, `token`, `access_token`) or a key pasted into a parameter was sent in the URL (D7).',
    todo: 'Send the key only in the `X-API-Key` header. Treat a key that went into a URL as leaked: have it regenerated.',
  },
  malformed_request: {
    means: 'Bad percent-encoding in the URL, or the HTTP parser could not read the request.',
    todo: 'Encode parameters with your HTTP library (UTF-8, percent-encoded), not by hand.',
  },
  body_not_allowed: { means: 'A GET or HEAD request carried a body.', todo: 'Send no body; everything goes in the query string.' },
  api_key_missing: { means: 'No `X-API-Key` header, or an empty one.', todo: 'Send your key in the `X-API-Key` header.' },
  api_key_invalid: {
    means: 'The key is not well formed (its checksum fails) or is unknown.',
    todo: 'Copy the key again, whole (64 characters). If it still fails, have your administrator issue a new one.',
  },
  key_revoked: {
    means: 'The key was revoked or replaced by a newer one (D16).',
    todo: 'Use the current key; your administrator can issue a new one.',
  },
  member_suspended: { means: 'Your membership is suspended.', todo: 'Contact the association; retrying will not help.' },
  member_terminated: { means: 'Your membership has ended.', todo: 'Contact the association; retrying will not help.' },
  member_not_full: { means: 'Associate members have no API access.', todo: 'Ask the association about full membership.' },
  agreement_unsigned: {
    means: 'Your organisation has not signed the data agreement.',
    todo: 'Have your administrator sign it; the key works from the next request on.',
  },
  https_required: {
    means: 'The request reached the service over plain HTTP (D6).',
    todo: 'Call the `https://` URL. Do not resend the key over HTTP: treat it as exposed.',
  },
  not_found: { means: 'No such endpoint.', todo: 'Check the path: `/api/v1/search.php` or `/api/v1/countries.php`.' },
  method_not_allowed: { means: 'The endpoint does not take this method.', todo: 'Use a method from the `Allow` header (GET).' },
  request_timeout: { means: 'The request did not arrive completely in time.', todo: 'Retry; check your network if it repeats.' },
  payload_too_large: { means: 'The request had a body; these endpoints take none.', todo: 'Send no body.' },
  uri_too_long: { means: 'The request URL is longer than 2048 characters.', todo: 'Shorten `q`: one company at a time, at most 100 characters.' },
  unsupported_media_type: { means: 'The request had a body with a content type.', todo: 'Send no body and no `Content-Type`.' },
  rate_limited: {
    means: "The daily quota of the key's member (all its keys together), or the address's allowance for requests without a valid key, is used up (D18, D20).",
    todo: 'Wait for `Retry-After` seconds (the reset is midnight Turkey time, `X-RateLimit-Reset`); for a higher limit contact the association.',
  },
  header_too_large: { means: 'The request headers are too large.', todo: 'Send fewer or smaller headers (cookies, for instance).' },
  internal_error: {
    means: 'A fault of ours. Nothing of it is shown.',
    todo: 'Retry later; if it repeats, report it with the request id from `error` or `X-Request-Id`.',
  },
  not_implemented: { means: 'A method this API does not know (e.g. `PROPFIND`).', todo: 'Use GET.' },
  service_unavailable: {
    means: 'The server is shutting down or cannot reach its database.',
    todo: 'Retry after `Retry-After` seconds, with backoff.',
  },
  overloaded: {
    means: 'This server is answering as many requests as it can; yours was not started and counts for nothing (D26).',
    todo: 'Retry after `Retry-After` seconds; send requests of one key one after another rather than in large parallel bursts.',
  },
};

/** Every reason with its status and doc, in the order of ERROR_REASONS. */
export function listReasonDocs(): { reason: ErrorReason; status: number; doc: ReasonDoc }[] {
  return (Object.keys(ERROR_REASONS) as ErrorReason[]).map((reason) => ({
    reason,
    status: ERROR_REASONS[reason],
    doc: REASON_DOCS[reason],
  }));
}

/** The reasons as a Markdown table (docs/api.md, the ErrorBody schema's description). */
export function renderReasonsMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = listReasonDocs().map(({ reason, status, doc }) => `| \`${reason}\` | ${status} | ${cell(doc.means)} | ${cell(doc.todo)} |`);
  return ['| reason | status | what it means | what to do |', '|---|---|---|---|', ...rows].join('\n');
}
