/**
 * A query string's values as the parser gives them (http/query-string.ts, D7): a value that is not
 * valid percent-encoded UTF-8 is an `InvalidEncoding` marker, a repeated parameter an array, so
 * that the rules reading them (search/search-params.ts, the portal's search) can name the problem.
 */
export class InvalidEncoding {
  constructor(readonly raw: string) {}
}

export type QueryValue = string | InvalidEncoding | Array<string | InvalidEncoding>;
export type ParsedQuery = Record<string, QueryValue>;
