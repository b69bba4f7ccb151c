/**
 * The service's settings, parsed once at start from flags and the environment. Every bad value
 * is reported together; the result is frozen.
 */
import { ALL_COUNTRY_CODES } from './countries/catalogue.ts';
import { DEFAULT_DATABASE_URL } from './db/connect.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD } from './search/near-match-score.ts';

export interface Config {
  readonly databaseUrl: string;
  /** D10: companies per response, 1 to 50. */
  readonly maxResults: number;
  /** D16: daily limit of a newly issued key. */
  readonly defaultDailyLimit: number;
  /** D20: daily requests per client address without a known key. */
  readonly anonDailyLimit: number;
  /** D22: served countries, or 'all'. */
  readonly countries: readonly string[] | 'all';
  /** PostgreSQL connections per server process. */
  readonly dbPoolSize: number;
  /** PostgreSQL statement timeout of the server, milliseconds. */
  readonly dbStatementTimeoutMs: number;
  /** Audit records older than this many days are purged by the server; 0 keeps them forever. */
  readonly auditRetentionDays: number;
  /** Search answers kept per server process until the data changes (search-cache.ts); 0 = none. */
  readonly searchCacheEntries: number;
  /** D25: near matches scoring below this (0–1) are not shown. */
  readonly nearMatchThreshold: number;
  /** Characters of `q` kept in the audit log. */
  readonly auditQueryChars: number;
}

export interface ConfigInput {
  databaseUrl?: string;
  maxResults?: string | number;
  defaultDailyLimit?: string | number;
  anonDailyLimit?: string | number;
  countries?: string;
  dbPoolSize?: string | number;
  dbStatementTimeoutMs?: string | number;
  auditRetentionDays?: string | number;
  searchCacheEntries?: string | number;
  nearMatchThreshold?: string | number;
}

function integer(name: string, raw: string | number | undefined, fallback: number, min: number, max: number, problems: string[]) {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
    return fallback;
  }
  return n;
}

function fraction(name: string, raw: string | number | undefined, fallback: number, problems: string[]) {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : /^(0|1)?(\.[0-9]+)?$/.test(raw.trim()) && raw.trim() !== '.' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    problems.push(`${name} must be a number from 0 to 1 such as 0.75, got '${raw}'`);
    return fallback;
  }
  return n;
}

/** Flags win over the environment (RISKLOOKUP_* and DATABASE_URL). */
export function parseConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const countriesRaw = input.countries ?? env.RISKLOOKUP_COUNTRIES ?? 'all';
  let countries: readonly string[] | 'all' = 'all';
  if (countriesRaw.trim().toLowerCase() !== 'all') {
    countries = countriesRaw.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
    const unknown = countries.filter((c) => !ALL_COUNTRY_CODES.includes(c));
    if (unknown.length > 0 || countries.length === 0) {
      problems.push(`countries must be 'all' or a comma-separated list of supported codes; unknown: ${unknown.join(', ') || '(empty)'}`);
    }
  }
  const config: Config = {
    databaseUrl: input.databaseUrl ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    maxResults: integer('max results (RISKLOOKUP_MAX_RESULTS)', input.maxResults ?? env.RISKLOOKUP_MAX_RESULTS, 10, 1, 50, problems),
    defaultDailyLimit: integer('default daily limit (RISKLOOKUP_DAILY_LIMIT)', input.defaultDailyLimit ?? env.RISKLOOKUP_DAILY_LIMIT, 100, 1, 10_000_000, problems),
    anonDailyLimit: integer('anonymous daily limit (RISKLOOKUP_ANON_DAILY_LIMIT)', input.anonDailyLimit ?? env.RISKLOOKUP_ANON_DAILY_LIMIT, 1000, 1, 10_000_000, problems),
    countries,
    dbPoolSize: integer('database pool size (RISKLOOKUP_DB_POOL_SIZE)', input.dbPoolSize ?? env.RISKLOOKUP_DB_POOL_SIZE, 10, 1, 1000, problems),
    dbStatementTimeoutMs: integer('statement timeout in ms (RISKLOOKUP_DB_STATEMENT_TIMEOUT_MS)', input.dbStatementTimeoutMs ?? env.RISKLOOKUP_DB_STATEMENT_TIMEOUT_MS, 5000, 100, 600_000, problems),
    auditRetentionDays: integer('audit retention in days (RISKLOOKUP_AUDIT_RETENTION_DAYS)', input.auditRetentionDays ?? env.RISKLOOKUP_AUDIT_RETENTION_DAYS, 365, 0, 36_500, problems),
    searchCacheEntries: integer('search cache entries (RISKLOOKUP_SEARCH_CACHE_ENTRIES)', input.searchCacheEntries ?? env.RISKLOOKUP_SEARCH_CACHE_ENTRIES, 1000, 0, 1_000_000, problems),
    nearMatchThreshold: fraction('near-match threshold (RISKLOOKUP_NEAR_MATCH_THRESHOLD)', input.nearMatchThreshold ?? env.RISKLOOKUP_NEAR_MATCH_THRESHOLD, DEFAULT_NEAR_MATCH_THRESHOLD, problems),
    auditQueryChars: 200,
  };
  if (problems.length > 0) throw new Error(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return Object.freeze(config);
}
