/**
 * The service's settings, parsed once at start from flags and the environment. Every bad value
 * is reported together; the result is frozen.
 */
import { ALL_COUNTRY_CODES } from './countries/country-codes.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD } from './search/near-match-score.ts';
import { DEFAULT_FILINGS_PER_MEMBER_PER_DAY } from './reports/filing-rules.ts';
import { databaseUrlOf } from './db/database-url.ts';
import { poolerOf, type Pooler } from './db/pooler.ts';
import { readWholeNumber } from './lib/whole-number.ts';
import { AUDIT_KEPT_DAYS_VARIABLE, readRetentionSettings, type RetentionSettings } from './retention/retention-settings.ts';

/**
 * Time a just-accepted connection gets for its request to be read before idle ones are closed
 * (serve/server.ts): the default of the `drainGraceMs` setting (RISKLOOKUP_DRAIN_GRACE_MS), which tests shorten.
 */
export const DRAIN_GRACE_MS = 1000;

/**
 * D26 defaults, measured (docs/benchmarks.md "Bursts"; docs/operations.md says how to size them):
 * 16 in work keeps a 10-connection pool busy with short waits for a connection; 4 per key keeps
 * one key's burst to a quarter of that, so other keys' queries do not queue behind it in the
 * database; 500 waiting per key lets a burst of 300 from one key per process be answered whole;
 * 5 s of waiting is below the timeouts clients commonly set (10-30 s).
 */
export const DEFAULT_ADMISSION = { maxActive: 16, maxActivePerKey: 4, maxQueued: 2000, maxQueuedPerKey: 500, maxWaitMs: 5000 } as const;

/**
 * D26: a form arrives in one packet; 2 s covers a slow mobile link and keeps a client that sends
 * its body a byte at a time from holding a connection for the whole 10 s request timeout.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 2000;

/**
 * Issue 28: a serving process's old space may grow 50 % past what a full collection left alive
 * before the next one (serve/heap-growth.ts), where V8 by itself lets it grow up to 300 %;
 * measured in docs/benchmarks.md ("Serving RSS: the heap's growth").
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

/**
 * Issue 28: a PostgreSQL import's old space may grow 100 % past what a full collection left alive.
 * With its COPY text streamed, a batch's rows outlive young collections, and V8's own factor (up
 * to 300 %) let an import of 10^6 companies peak at 645–649 MB; with this, 288–345 MB, no slower
 * (docs/benchmarks.md, "The import's COPY streamed"); 331–398 MB since up to three batches are
 * queued ("Batches overlapped"). SQLite's import keeps V8's factor (its
 * peak 397–412 MB; 100 % took it to 324–332 MB at no clear cost, not needed).
 */
export const IMPORT_HEAP_GROWTH_PERCENT = 100;

/**
 * A PostgreSQL import's old-space growth: RISKLOOKUP_HEAP_GROWTH_PERCENT when the operator set it
 * (as for `serve`; 0 leaves V8 its own factor, or one given as `node --heap-growing-percent=N`),
 * else IMPORT_HEAP_GROWTH_PERCENT.
 */
export function importHeapGrowthOf(env: NodeJS.ProcessEnv): { percent: number; problems: string[] } {
  const problems: string[] = [];
  const percent = integer(
    'heap growth in percent (RISKLOOKUP_HEAP_GROWTH_PERCENT)',
    env.RISKLOOKUP_HEAP_GROWTH_PERCENT,
    IMPORT_HEAP_GROWTH_PERCENT,
    0,
    1000,
    problems,
  );
  return { percent, problems };
}

/**
 * Issue 28: the largest V8's new space (both semi-spaces) may grow to in a serving process, MB
 * (serve/heap-growth.ts): the sizes V8 grows it through, from its start (2) to its own maximum
 * (32, no limit); measured in docs/benchmarks.md ("branch rss250").
 */
export const NEW_SPACE_SIZES_MB = [2, 4, 8, 16, 32] as const;
export const DEFAULT_NEW_SPACE_MB = 8;

/**
 * Search answers a process keeps (search-cache.ts). A fresh name's answer (its results and near
 * matches as objects) takes ~15–40 KB of V8's heap: 1,000 of them held 15–40 MB and kept
 * PostgreSQL's serving peak at 10^6 over 250 MB (263–265 MB; 222–245 MB with 100). 200 keeps a
 * popular company's repeated searches cached at a few MB (docs/benchmarks.md, "The search
 * cache's share of the serving peak").
 */
export const DEFAULT_SEARCH_CACHE_ENTRIES = 200;

export interface Config {
  readonly databaseUrl: string;
  /** D10: companies per response, 1 to 50. */
  readonly maxResults: number;
  /** D16: daily limit of a newly issued key. */
  readonly defaultDailyLimit: number;
  /** D20: daily requests per client address without a known key. */
  readonly anonDailyLimit: number;
  /** D28: daily portal searches per user. */
  readonly portalDailyLimit: number;
  /** D28 amended: daily portal searches per member, all its users together (a member's own setting overrides it). */
  readonly portalMemberDailyLimit: number;
  /** D28: users a member_admin may have in its member that are not disabled (the operator is not bound by it). */
  readonly maxUsersPerMember: number;
  /** D29: reports a member files per quota day (D19), all its users together. */
  readonly filingsPerMemberPerDay: number;
  /** D22: served countries, or 'all'. */
  readonly countries: readonly string[] | 'all';
  /** PostgreSQL connections per server process. */
  readonly dbPoolSize: number;
  /** PostgreSQL statement timeout of the server, milliseconds. */
  readonly dbStatementTimeoutMs: number;
  /**
   * What stands between the processes and PostgreSQL (RISKLOOKUP_DB_POOLER, db/pooler.ts): `none`
   * (default: a direct connection), `session` or `transaction` (a pooler of that mode).
   */
  readonly dbPooler: Pooler;
  /**
   * D34: months each type of report is kept, months an expired one stays for operators, days an
   * audit record is kept (RISKLOOKUP_RETENTION_MONTHS_<TYPE>, RISKLOOKUP_EXPIRED_KEPT_MONTHS,
   * RISKLOOKUP_AUDIT_RETENTION_DAYS; src/retention/retention-settings.ts).
   */
  readonly retention: RetentionSettings;
  /** Search answers kept per server process until the data changes (search-cache.ts); 0 = none. Default DEFAULT_SEARCH_CACHE_ENTRIES. */
  readonly searchCacheEntries: number;
  /** D25: near matches scoring below this (0–1) are not shown. */
  readonly nearMatchThreshold: number;
  /**
   * Issue 28: each process keeps the searchable names in memory (search/visible-names.ts) and
   * answers fresh name searches from it; off: from the database only (default on).
   */
  readonly nameIndex: boolean;
  /**
   * Issue 30: the background work of this process (webhook deliveries, retention, purges; one
   * runner, serve/background-work.ts). `yes` (default): beside the API, as every process; `no`:
   * none here (an API process: another process must run it); `only`: that work and no API (a
   * process of its own, which can be given cores of its own: docs/operations.md).
   */
  readonly background: BackgroundRole;
  /**
   * Issue 28: percent V8's old space may grow past its live size before the next full collection
   * (serve/heap-growth.ts); 0: V8's own factor.
   */
  readonly heapGrowthPercent: number;
  /**
   * Issue 28: whether V8's new space may grow from its start (two semi-spaces of 1 MB) to its
   * maximum (2 × 16 MB) in a serving process (serve/heap-growth.ts); default yes: kept small it
   * cost 1.05–1.9 × the CPU per fresh request (docs/benchmarks.md, branch rsspeak28).
   */
  readonly newSpaceGrowth: boolean;
  /**
   * Issue 28: the largest V8's new space may grow to, MB, one of NEW_SPACE_SIZES_MB (32: V8's own
   * maximum); 2 (its start size) when `newSpaceGrowth` is false.
   */
  readonly newSpaceMb: number;
  /** D26 admission (http/admission-gate.ts): requests in work at once in one process. */
  readonly maxActive: number;
  /** … of which from one key (or one address without a key). */
  readonly maxActivePerKey: number;
  /** Requests waiting for a turn, in all and per key; beyond them 503 overloaded at once. */
  readonly maxQueued: number;
  readonly maxQueuedPerKey: number;
  /** Longest wait for a turn, milliseconds. */
  readonly maxWaitMs: number;
  /** D26: a request body must arrive within this (plus its size at 256 KiB/s), else 408; no turn is held meanwhile. */
  readonly bodyTimeoutMs: number;
  /** Longest wait for a PostgreSQL connection from the pool, milliseconds (then 503). */
  readonly dbConnectionWaitMs: number;
  /** Characters of `q` kept in the audit log. */
  readonly auditQueryChars: number;
  /** On SIGTERM, how long a just-accepted connection gets for its request (serve/server.ts); tests shorten it. */
  readonly drainGraceMs: number;
  /** Where people reach this service (no trailing slash): one-time links point here, and portal forms may come from its origin. */
  readonly publicUrl: string;
  /** D32: webhooks may go to loopback and private addresses (tests and local receivers only; default off). */
  readonly webhookAllowPrivateAddresses: boolean;
  /** Webhook deliveries in flight at once per process, and of those to one endpoint (src/webhooks/delivery-worker.ts). */
  readonly webhookConcurrency: number;
  readonly webhookConcurrencyPerEndpoint: number;
  /** Deliveries started a second while requests are in work or waiting (src/webhooks/delivery-pace.ts); 0: no limit. */
  readonly webhookRateWhileServing: number;
  /** D31: companies a member may watch unless an operator set its own cap. */
  readonly watchlistCap: number;
  /** D31: watchlist calls (PUT, DELETE, GET) per member and quota day, apart from the search quota. */
  readonly watchlistDailyLimit: number;
  /** D31: event feed requests per member and quota day, apart from the search quota. */
  readonly eventsDailyLimit: number;
}

export interface ConfigInput {
  databaseUrl?: string;
  maxResults?: string | number;
  defaultDailyLimit?: string | number;
  anonDailyLimit?: string | number;
  portalDailyLimit?: string | number;
  portalMemberDailyLimit?: string | number;
  maxUsersPerMember?: string | number;
  filingsPerMemberPerDay?: string | number;
  countries?: string;
  dbPoolSize?: string | number;
  dbStatementTimeoutMs?: string | number;
  auditRetentionDays?: string | number;
  searchCacheEntries?: string | number;
  nearMatchThreshold?: string | number;
  nameIndex?: string | boolean;
  background?: string;
  heapGrowthPercent?: string | number;
  newSpaceGrowth?: string | boolean;
  newSpaceMb?: string | number;
  maxActive?: string | number;
  maxActivePerKey?: string | number;
  maxQueued?: string | number;
  maxQueuedPerKey?: string | number;
  maxWaitMs?: string | number;
  dbConnectionWaitMs?: string | number;
  bodyTimeoutMs?: string | number;
  drainGraceMs?: string | number;
  publicUrl?: string;
  webhookAllowPrivateAddresses?: string | boolean;
  webhookConcurrency?: string | number;
  webhookConcurrencyPerEndpoint?: string | number;
  webhookRateWhileServing?: string | number;
  watchlistCap?: string | number;
  watchlistDailyLimit?: string | number;
  eventsDailyLimit?: string | number;
}

function integer(name: string, raw: string | number | undefined, fallback: number, min: number, max: number, problems: string[]) {
  if (raw === undefined || raw === '') return fallback;
  const read = readWholeNumber(name, raw, min, max);
  if ('problem' in read) {
    problems.push(read.problem);
    return fallback;
  }
  return read.value;
}

/** The default public URL: `serve` on its default address and port. */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

function publicUrlOf(raw: string | undefined, problems: string[]): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PUBLIC_URL;
  try {
    const url = new URL(raw.trim());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username && !url.password) {
      return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    }
  } catch {
    // reported below
  }
  problems.push(`public URL (RISKLOOKUP_PUBLIC_URL) must be an http:// or https:// address such as https://risk.example.com, got '${raw}'`);
  return DEFAULT_PUBLIC_URL;
}

function yesNo(name: string, raw: string | boolean | undefined, problems: string[]): boolean {
  if (raw === undefined || raw === '' || typeof raw === 'boolean') return raw === true;
  const text = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  problems.push(`${name} must be 1 or 0 (true or false), got '${raw}'`);
  return false;
}

/** As yesNo, but on when not given. */
/** Where a process's background work runs (Config.background). */
export const BACKGROUND_ROLES = ['yes', 'no', 'only'] as const;
export type BackgroundRole = (typeof BACKGROUND_ROLES)[number];

function backgroundRoleOf(raw: string | undefined, problems: string[]): BackgroundRole {
  if (raw === undefined || raw.trim() === '') return 'yes';
  const role = raw.trim().toLowerCase();
  if ((BACKGROUND_ROLES as readonly string[]).includes(role)) return role as BackgroundRole;
  problems.push(
    `background work (--background, RISKLOOKUP_BACKGROUND) must be yes (beside the API), no (an API process; another process runs it) or only (that work and no API), got '${raw}'`,
  );
  return 'yes';
}

function dbPoolerOf(raw: string | undefined, problems: string[]): Pooler {
  const read = poolerOf(raw);
  if ('problem' in read) {
    problems.push(read.problem);
    return 'none';
  }
  return read.pooler;
}

function defaultYes(name: string, raw: string | boolean | undefined, problems: string[]): boolean {
  return raw === undefined || raw === '' ? true : yesNo(name, raw, problems);
}

/** `--new-space-growth no` is the least size; a size beside it is a contradiction. */
function newSpaceOf(input: ConfigInput, env: NodeJS.ProcessEnv, problems: string[]): { newSpaceGrowth: boolean; newSpaceMb: number } {
  const growthRaw = input.newSpaceGrowth ?? env.RISKLOOKUP_NEW_SPACE_GROWTH;
  const newSpaceGrowth = defaultYes("growth of V8's new space (RISKLOOKUP_NEW_SPACE_GROWTH)", growthRaw, problems);
  const raw = input.newSpaceMb ?? env.RISKLOOKUP_NEW_SPACE_MB;
  const name = "V8's new space in MB (RISKLOOKUP_NEW_SPACE_MB)";
  let newSpaceMb: number = DEFAULT_NEW_SPACE_MB;
  if (raw !== undefined && raw !== '') {
    const n = typeof raw === 'number' ? raw : /^\s*[0-9]+\s*$/.test(raw) ? Number(raw) : NaN;
    if ((NEW_SPACE_SIZES_MB as readonly number[]).includes(n)) newSpaceMb = n;
    else problems.push(`${name} must be one of ${NEW_SPACE_SIZES_MB.join(', ')} (32: V8's own maximum), got '${raw}'`);
  }
  if (!newSpaceGrowth) {
    if (raw !== undefined && raw !== '' && newSpaceMb !== NEW_SPACE_SIZES_MB[0])
      problems.push(`choose one: no growth of V8's new space (RISKLOOKUP_NEW_SPACE_GROWTH) keeps it at ${NEW_SPACE_SIZES_MB[0]} MB, ${name} gave ${raw}`);
    newSpaceMb = NEW_SPACE_SIZES_MB[0];
  }
  return { newSpaceGrowth, newSpaceMb };
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

/**
 * D34's settings. `RISKLOOKUP_AUDIT_RETENTION_DAYS=0` once meant "keep audit records forever";
 * D34 keeps them one year at most, so 0 is refused with the way out.
 */
function retentionOf(auditDays: string | number | undefined, env: NodeJS.ProcessEnv, problems: string[]): RetentionSettings {
  let raw = auditDays ?? env[AUDIT_KEPT_DAYS_VARIABLE];
  if (raw !== undefined && String(raw).trim() === '0') {
    problems.push(
      `${AUDIT_KEPT_DAYS_VARIABLE}=0 used to keep search audit records forever; D34 deletes them after a year: ` +
        `remove the setting (365 days) or give a number of days from 1 to 3650`,
    );
    raw = '';
  }
  const { settings, problems: found } = readRetentionSettings({ auditKeptDays: raw }, env);
  problems.push(...found);
  return settings;
}

/** Flags win over the environment (RISKLOOKUP_* and DATABASE_URL). */
export function parseConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const countriesRaw = input.countries ?? env.RISKLOOKUP_COUNTRIES ?? 'all';
  let countries: readonly string[] | 'all' = 'all';
  if (countriesRaw.trim().toLowerCase() !== 'all') {
    countries = countriesRaw
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean);
    const unknown = countries.filter((c) => !ALL_COUNTRY_CODES.includes(c));
    if (unknown.length > 0 || countries.length === 0) {
      problems.push(`countries must be 'all' or a comma-separated list of supported codes; unknown: ${unknown.join(', ') || '(empty)'}`);
    }
  }
  const config: Config = {
    databaseUrl: databaseUrlOf(input.databaseUrl, env),
    maxResults: integer('max results (RISKLOOKUP_MAX_RESULTS)', input.maxResults ?? env.RISKLOOKUP_MAX_RESULTS, 10, 1, 50, problems),
    defaultDailyLimit: integer(
      'default daily limit (RISKLOOKUP_DAILY_LIMIT)',
      input.defaultDailyLimit ?? env.RISKLOOKUP_DAILY_LIMIT,
      100,
      1,
      10_000_000,
      problems,
    ),
    anonDailyLimit: integer(
      'anonymous daily limit (RISKLOOKUP_ANON_DAILY_LIMIT)',
      input.anonDailyLimit ?? env.RISKLOOKUP_ANON_DAILY_LIMIT,
      1000,
      1,
      10_000_000,
      problems,
    ),
    portalDailyLimit: integer(
      'portal daily limit per user (RISKLOOKUP_PORTAL_DAILY_LIMIT)',
      input.portalDailyLimit ?? env.RISKLOOKUP_PORTAL_DAILY_LIMIT,
      100,
      1,
      10_000_000,
      problems,
    ),
    portalMemberDailyLimit: integer(
      'portal daily limit per member (RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT)',
      input.portalMemberDailyLimit ?? env.RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT,
      300,
      1,
      10_000_000,
      problems,
    ),
    maxUsersPerMember: integer(
      'users per member a member_admin may have (RISKLOOKUP_MAX_USERS_PER_MEMBER)',
      input.maxUsersPerMember ?? env.RISKLOOKUP_MAX_USERS_PER_MEMBER,
      25,
      1,
      100_000,
      problems,
    ),
    filingsPerMemberPerDay: integer(
      'filings per member per day (RISKLOOKUP_FILINGS_PER_MEMBER_PER_DAY)',
      input.filingsPerMemberPerDay ?? env.RISKLOOKUP_FILINGS_PER_MEMBER_PER_DAY,
      DEFAULT_FILINGS_PER_MEMBER_PER_DAY,
      1,
      10_000_000,
      problems,
    ),
    countries,
    dbPoolSize: integer('database pool size (RISKLOOKUP_DB_POOL_SIZE)', input.dbPoolSize ?? env.RISKLOOKUP_DB_POOL_SIZE, 10, 1, 1000, problems),
    dbStatementTimeoutMs: integer(
      'statement timeout in ms (RISKLOOKUP_DB_STATEMENT_TIMEOUT_MS)',
      input.dbStatementTimeoutMs ?? env.RISKLOOKUP_DB_STATEMENT_TIMEOUT_MS,
      5000,
      100,
      600_000,
      problems,
    ),
    dbPooler: dbPoolerOf(env.RISKLOOKUP_DB_POOLER, problems),
    retention: retentionOf(input.auditRetentionDays, env, problems),
    searchCacheEntries: integer(
      'search cache entries (RISKLOOKUP_SEARCH_CACHE_ENTRIES)',
      input.searchCacheEntries ?? env.RISKLOOKUP_SEARCH_CACHE_ENTRIES,
      DEFAULT_SEARCH_CACHE_ENTRIES,
      0,
      1_000_000,
      problems,
    ),
    nearMatchThreshold: fraction(
      'near-match threshold (RISKLOOKUP_NEAR_MATCH_THRESHOLD)',
      input.nearMatchThreshold ?? env.RISKLOOKUP_NEAR_MATCH_THRESHOLD,
      DEFAULT_NEAR_MATCH_THRESHOLD,
      problems,
    ),
    nameIndex: defaultYes('in-memory index of names (RISKLOOKUP_NAME_INDEX)', input.nameIndex ?? env.RISKLOOKUP_NAME_INDEX, problems),
    background: backgroundRoleOf(input.background ?? env.RISKLOOKUP_BACKGROUND, problems),
    heapGrowthPercent: integer(
      'heap growth in percent (RISKLOOKUP_HEAP_GROWTH_PERCENT)',
      input.heapGrowthPercent ?? env.RISKLOOKUP_HEAP_GROWTH_PERCENT,
      DEFAULT_HEAP_GROWTH_PERCENT,
      0,
      1000,
      problems,
    ),
    ...newSpaceOf(input, env, problems),
    maxActive: integer(
      'requests in work at once (RISKLOOKUP_MAX_ACTIVE)',
      input.maxActive ?? env.RISKLOOKUP_MAX_ACTIVE,
      DEFAULT_ADMISSION.maxActive,
      1,
      10_000,
      problems,
    ),
    maxActivePerKey: integer(
      'requests in work at once per key (RISKLOOKUP_MAX_ACTIVE_PER_KEY)',
      input.maxActivePerKey ?? env.RISKLOOKUP_MAX_ACTIVE_PER_KEY,
      DEFAULT_ADMISSION.maxActivePerKey,
      1,
      10_000,
      problems,
    ),
    maxQueued: integer(
      'requests waiting (RISKLOOKUP_MAX_QUEUED)',
      input.maxQueued ?? env.RISKLOOKUP_MAX_QUEUED,
      DEFAULT_ADMISSION.maxQueued,
      0,
      1_000_000,
      problems,
    ),
    maxQueuedPerKey: integer(
      'requests waiting per key (RISKLOOKUP_MAX_QUEUED_PER_KEY)',
      input.maxQueuedPerKey ?? env.RISKLOOKUP_MAX_QUEUED_PER_KEY,
      DEFAULT_ADMISSION.maxQueuedPerKey,
      0,
      1_000_000,
      problems,
    ),
    maxWaitMs: integer(
      'longest wait for a turn in ms (RISKLOOKUP_MAX_WAIT_MS)',
      input.maxWaitMs ?? env.RISKLOOKUP_MAX_WAIT_MS,
      DEFAULT_ADMISSION.maxWaitMs,
      1,
      60_000,
      problems,
    ),
    dbConnectionWaitMs: integer(
      'database connection wait in ms (RISKLOOKUP_DB_CONNECTION_WAIT_MS)',
      input.dbConnectionWaitMs ?? env.RISKLOOKUP_DB_CONNECTION_WAIT_MS,
      1000,
      10,
      60_000,
      problems,
    ),
    bodyTimeoutMs: integer(
      'body timeout in ms (RISKLOOKUP_BODY_TIMEOUT_MS)',
      input.bodyTimeoutMs ?? env.RISKLOOKUP_BODY_TIMEOUT_MS,
      DEFAULT_BODY_TIMEOUT_MS,
      100,
      60_000,
      problems,
    ),
    auditQueryChars: 200,
    drainGraceMs: integer(
      'drain grace in ms (RISKLOOKUP_DRAIN_GRACE_MS)',
      input.drainGraceMs ?? env.RISKLOOKUP_DRAIN_GRACE_MS,
      DRAIN_GRACE_MS,
      0,
      60_000,
      problems,
    ),
    publicUrl: publicUrlOf(input.publicUrl ?? env.RISKLOOKUP_PUBLIC_URL, problems),
    webhookAllowPrivateAddresses: yesNo(
      'webhooks to private addresses (RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE)',
      input.webhookAllowPrivateAddresses ?? env.RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE,
      problems,
    ),
    webhookConcurrency: integer(
      'webhook deliveries at once (RISKLOOKUP_WEBHOOK_CONCURRENCY)',
      input.webhookConcurrency ?? env.RISKLOOKUP_WEBHOOK_CONCURRENCY,
      64,
      1,
      1000,
      problems,
    ),
    webhookConcurrencyPerEndpoint: integer(
      'webhook deliveries at once per endpoint (RISKLOOKUP_WEBHOOK_CONCURRENCY_PER_ENDPOINT)',
      input.webhookConcurrencyPerEndpoint ?? env.RISKLOOKUP_WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      4,
      1,
      100,
      problems,
    ),
    webhookRateWhileServing: integer(
      'webhook deliveries started a second while requests are served (RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING)',
      input.webhookRateWhileServing ?? env.RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING,
      250,
      0,
      100_000,
      problems,
    ),
    watchlistCap: integer(
      'companies a member may watch (RISKLOOKUP_WATCHLIST_CAP)',
      input.watchlistCap ?? env.RISKLOOKUP_WATCHLIST_CAP,
      500,
      1,
      1_000_000,
      problems,
    ),
    watchlistDailyLimit: integer(
      'watchlist calls per member per day (RISKLOOKUP_WATCHLIST_DAILY_LIMIT)',
      input.watchlistDailyLimit ?? env.RISKLOOKUP_WATCHLIST_DAILY_LIMIT,
      2000,
      1,
      10_000_000,
      problems,
    ),
    eventsDailyLimit: integer(
      'event feed requests per member per day (RISKLOOKUP_EVENTS_DAILY_LIMIT)',
      input.eventsDailyLimit ?? env.RISKLOOKUP_EVENTS_DAILY_LIMIT,
      5000,
      1,
      10_000_000,
      problems,
    ),
  };
  if (config.maxActivePerKey > config.maxActive)
    problems.push(`requests in work per key (${config.maxActivePerKey}) cannot exceed requests in work (${config.maxActive})`);
  if (config.webhookConcurrencyPerEndpoint > config.webhookConcurrency)
    problems.push(
      `webhook deliveries at once per endpoint (${config.webhookConcurrencyPerEndpoint}) cannot exceed webhook deliveries at once (${config.webhookConcurrency})`,
    );
  if (config.maxQueuedPerKey > config.maxQueued)
    problems.push(`requests waiting per key (${config.maxQueuedPerKey}) cannot exceed requests waiting (${config.maxQueued})`);
  if (problems.length > 0) throw new Error(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return Object.freeze(config);
}
