import type { Problem, StatedProblem } from './problems.ts';

/**
 * The one error type of the service (D2). Each `reason` is a stable snake_case identifier a
 * program can branch on; this table is the only place that maps reasons to HTTP statuses, and
 * the API docs list it from here.
 */
export const ERROR_REASONS = {
  invalid_parameter: 400,
  duplicate_parameter: 400,
  query_too_generic: 400,
  invalid_tax_id: 400,
  unsupported_country: 400,
  invalid_cursor: 400,
  key_in_url: 400,
  malformed_request: 400,
  body_not_allowed: 400,
  api_key_missing: 401,
  api_key_invalid: 401,
  key_revoked: 403,
  member_suspended: 403,
  member_terminated: 403,
  member_not_full: 403,
  agreement_unsigned: 403,
  https_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  watchlist_full: 409,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  header_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  overloaded: 503,
} as const;

export type ErrorReason = keyof typeof ERROR_REASONS;

/** The page that explains every reason (lib/error-docs.ts); a stable path, see docs/api.md. */
export const ERROR_DOCS_PATH = '/api/v1/docs/errors';

/** The link an error body carries: a path on this server, to resolve against the URL called. */
export function reasonDocsLink(reason: ErrorReason): string {
  return `${ERROR_DOCS_PATH}#reason-${reason}`;
}

export class AppError extends Error {
  readonly reason: ErrorReason;
  readonly statusCode: number;
  /** Extra response headers, e.g. `Allow` on 405 or `Retry-After` on 429. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * What was wrong, for a page that words it in its reader's language (problems.ts); null where
   * the reason says enough. The API's body keeps `message`.
   */
  readonly problem: Problem | null;

  constructor(reason: ErrorReason, message: string, headers: Record<string, string> = {}, problem: Problem | null = null) {
    super(message);
    this.name = 'AppError';
    this.reason = reason;
    this.statusCode = ERROR_REASONS[reason];
    this.headers = headers;
    this.problem = problem;
  }
}

export interface ErrorBody {
  success: false;
  error: string;
  code: number;
  reason: ErrorReason;
  /** Where the reason is explained (what it means, what to do). */
  docs: string;
}

export function errorBody(reason: ErrorReason, message: string): ErrorBody {
  return { success: false, error: message, code: ERROR_REASONS[reason], reason, docs: reasonDocsLink(reason) };
}

/**
 * A refused operation, in words for whoever asked (an operator at the CLI, a portal user): what
 * was wrong and how to fix it. The message is English (the CLI prints it); `problems` say the
 * same as codes with their values (problems.ts), which the portal words in its reader's
 * language. Services throw this (or AppError), never the CLI's own errors; each entry point maps
 * it in one place: HTTP with `statusOf` below (the portal's pages and forms), the CLI with
 * `exitStatusOf` (src/cli/cli.ts: exit status 1).
 */
export class DomainError extends Error {
  /** One problem, this message's; or each problem of a form checked at once, `message` their `; `-joined words. */
  readonly problems: readonly StatedProblem[];

  constructor(
    /**
     * invalid: bad input; not_found: nothing by that name (or nothing this caller may know of);
     * conflict: the data's state refuses it; forbidden: this caller's role may not take the step;
     * rate_limited: a daily allowance of the step is used up (the message says when it resets).
     */
    readonly kind: 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'rate_limited',
    message: string,
    problems: Problem | readonly StatedProblem[],
  ) {
    super(message);
    this.name = 'DomainError';
    this.problems = 'code' in problems ? [{ ...problems, message }] : problems;
  }
}

/** The HTTP status of each kind of refusal: the one map every HTTP entry point answers with. */
export const DOMAIN_ERROR_STATUS = {
  invalid: 400,
  /** Also what another member's record is to a caller (D13, D27): its existence is not told. */
  not_found: 404,
  conflict: 409,
  /** The caller's role may not take the step: the HTTP meaning of 403. */
  forbidden: 403,
  rate_limited: 429,
} as const satisfies Record<DomainError['kind'], number>;

export function statusOf(error: DomainError): (typeof DOMAIN_ERROR_STATUS)[DomainError['kind']] {
  return DOMAIN_ERROR_STATUS[error.kind];
}
