/**
 * The search use case, one owner for every caller (spec 4.1): plan → check the allowance →
 * search → take one unit → the answer model. The API route, the portal and the CLI's `search`
 * call it; they differ only in who searches (`Searcher`) and how they show the answer.
 *
 * D18 lives here: a refused query (400) costs nothing and no I/O; a used-up allowance is a 429
 * from a read alone; the unit is taken only once the answer is ready, so a request that fails on
 * the way (database down, timeout, a thrown error) takes nothing and never makes another request
 * see the day as used up. With R units left, N parallel searches get exactly min(N, R) answers.
 */
import { performance } from 'node:perf_hooks';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Clock } from '../lib/clock.ts';
import { memberSubject, portalMemberSubject, remainingOf, userSubject, type Allowance, type Meter, type Quota } from '../quota/allowance.ts';
import type { CompanySearch } from './company-search.ts';
import type { AuditEntry } from '../audit/audit.repository.ts';
import type { ChargedRecord } from '../quota/charge-batch.ts';
import { planSearch, type CompanyResult, type NearMatch, type SearchInput, type SearchOutcome, type SearchPlan } from './search.service.ts';

/**
 * Who searches, which decides the allowances charged; support staff are not metered.
 * - A key: its member's API day (D18 amended: the member's, whichever of its keys asks).
 * - A portal user: its own day and its member's portal day together (D28 amended).
 */
export type Searcher =
  | {
      kind: 'api_key';
      memberId: number;
      memberRef: string;
      dailyLimit: number;
      usage?: { day: string; used: number };
      /** The searchable data's version, read with the key since the request arrived: the cache reads it no more. */
      dataVersion?: number;
      /** The answer's audit record (D21), stored in the transaction of its unit (charge-batch.ts). */
      record?: (answer: { resultCount: number; responseMs: number }) => AuditEntry;
    }
  | { kind: 'portal_user'; userId: number; dailyLimit: number; memberId: number; memberDailyLimit: number }
  | { kind: 'operator' };

export interface SearchMeta {
  /** Absent for an unmetered (operator) search. */
  queries_used_today?: number;
  daily_limit?: number;
  remaining_today?: number;
  response_ms: number;
  truncated: boolean;
}

/** The body of a 200 answer (spec 2.1, D25). */
export interface SearchResponse {
  success: true;
  query: string;
  type: SearchInput['type'];
  country: string | null;
  result_count: number;
  results: CompanyResult[];
  meta: SearchMeta;
  near_matches?: NearMatch[];
}

export interface SearchAnswer {
  response: SearchResponse;
  /** The searcher's allowance after this answer (a portal user's own); null when unmetered. */
  allowance: Allowance | null;
  /** Every allowance charged, in the order of meterOf (a portal user: its own, then its member's). */
  allowances: Allowance[];
  /** The companies the answer found (its results), to count as lookups (D34's disclosure). */
  foundCompanyIds: readonly number[];
}

export interface SearchUseCaseDeps {
  countries: Pick<CountryCatalogue, 'get'>;
  search: Pick<CompanySearch, 'find'>;
  quota: Quota;
  clock: Clock;
}

/** The allowances a search is charged to, the one `meta` shows first; [] = unmetered. */
export function metersOf(searcher: Searcher): Meter[] {
  switch (searcher.kind) {
    case 'api_key':
      return [
        {
          subject: memberSubject(searcher.memberId),
          limit: searcher.dailyLimit,
          whatRanOut: `The daily API quota of member ${searcher.memberRef} (shared by its keys: a new key continues the day)`,
          ...(searcher.usage ? { known: searcher.usage } : {}),
        },
      ];
    case 'portal_user':
      return [
        { subject: userSubject(searcher.userId), limit: searcher.dailyLimit, whatRanOut: 'Your daily allowance of portal searches' },
        {
          subject: portalMemberSubject(searcher.memberId),
          limit: searcher.memberDailyLimit,
          whatRanOut: "Your member's daily allowance of portal searches (all its users together)",
        },
      ];
    case 'operator':
      return [];
  }
}

function metaOf(allowance: Allowance | null, outcome: SearchOutcome, responseMs: number): SearchMeta {
  const quota = allowance ? { queries_used_today: allowance.used, daily_limit: allowance.limit, remaining_today: remainingOf(allowance) } : {};
  return { ...quota, response_ms: Math.round(responseMs), truncated: outcome.truncated };
}

function toSearchResponse(input: SearchInput, plan: SearchPlan, outcome: SearchOutcome, meta: SearchMeta): SearchResponse {
  return {
    success: true,
    query: input.q,
    type: input.type,
    country: input.country,
    result_count: outcome.results.length,
    results: outcome.results,
    meta,
    // D25: name searches only (the search leaves nearMatches null for a tax-ID plan).
    ...(plan.kind === 'name' && outcome.nearMatches ? { near_matches: outcome.nearMatches } : {}),
  };
}

/**
 * Answers one search for one searcher, or throws the AppError to answer instead (400 for a query
 * that cannot be answered truthfully, 429 with the rate-limit figures).
 * @param startedAt `performance.now()` when the request began, for `meta.response_ms`.
 */
export async function answerSearch(deps: SearchUseCaseDeps, input: SearchInput, searcher: Searcher, startedAt = performance.now()): Promise<SearchAnswer> {
  // One instant for the whole request, so that the check and the charge fall on one quota day.
  const now = deps.clock.now();
  const plan = planSearch(deps.countries, input);
  const meters = metersOf(searcher);
  if (meters.length > 0) await deps.quota.ensureLeft(meters, now);
  const outcome = await deps.search.find(plan, searcher.kind === 'api_key' ? searcher.dataVersion : undefined);
  const found = outcome.foundCompanyIds ?? [];
  const record: ChargedRecord | undefined =
    searcher.kind === 'api_key' && searcher.record
      ? { entry: searcher.record({ resultCount: outcome.results.length, responseMs: performance.now() - startedAt }), foundCompanyIds: found }
      : undefined;
  const allowances = meters.length > 0 ? await deps.quota.take(meters, now, record) : [];
  const allowance = allowances[0] ?? null;
  return {
    allowance,
    allowances,
    response: toSearchResponse(input, plan, outcome, metaOf(allowance, outcome, performance.now() - startedAt)),
    foundCompanyIds: found,
  };
}

/**
 * The search use case as the composition root builds it (src/services.ts): `deps` is what
 * answerSearch needs, kept for the callers that read the served countries from it.
 */
export function createSearch(deps: SearchUseCaseDeps) {
  return {
    ...deps,
    answer: (searcher: Searcher, input: SearchInput, startedAt = performance.now()) => answerSearch(deps, input, searcher, startedAt),
  };
}

export type SearchService = ReturnType<typeof createSearch>;
