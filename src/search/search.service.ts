/** The search itself (spec 4.1, D8–D10, D12–D13): rows in, the response model out. */
import type { Kysely } from 'kysely';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import { toReportView, type ReportView } from '../reports/report-view.ts';
import { listActiveReports, type ReportRow } from '../reports/reports.repository.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import type { ReportType } from '../reports/report-types.ts';
import { threatLevelOf, visibleReports, type ThreatLevel } from '../reports/visibility.ts';
import { findCompaniesByName, findCompaniesByTaxId, NAME_SEARCH_TUNING, type CompanyRow } from './companies.repository.ts';
import type { NameSample } from './name-sample.ts';
import { parseNameQuery } from './name-key.ts';
import { checkTaxId, taxIdCandidates } from './tax-id.ts';

export interface SearchInput {
  q: string;
  type: 'name' | 'tax_id';
  country: string | null;
}

export interface CompanyResult {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  threat_level: ThreatLevel;
  report_count: number;
  last_updated: string;
  reports: ReportView[];
}

/** A company close to a name that matched nothing (D25): no reports, confirm by tax ID. */
export interface NearMatch {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  threat_level: ThreatLevel;
  report_count: number;
  similarity: number;
}

export interface SearchOutcome {
  results: CompanyResult[];
  truncated: boolean;
  /** Name searches only (D25); absent until near matches are computed. */
  nearMatches?: NearMatch[] | null;
}

export interface SearchDeps {
  db: Kysely<Database>;
  seam: DialectSeam;
  maxResults: number;
  /** Estimates that plan a name search (SQLite; see name-sample.ts); null = plan without. */
  names: NameSample | null;
}

/** A search checked and ready to run: everything that can make it a 400 has been decided. */
export type SearchPlan =
  | { kind: 'tax_id'; candidates: Array<{ taxId: string; country: string | null }> }
  | { kind: 'name'; indexedWords: string[]; otherWords: string[]; core: string; country: string | null };

/**
 * Decides how to search, or throws the 400 for a query that cannot be answered truthfully
 * (D8 too generic, D9 mistyped ID). Pure, so a refused query costs no quota and no I/O.
 */
export function planSearch(countries: Pick<CountryCatalogue, 'get'>, input: SearchInput): SearchPlan {
  if (input.type === 'tax_id') {
    if (input.country) {
      const check = checkTaxId(input.q, countries.get(input.country)!);
      if (!check.valid) throw new AppError('invalid_tax_id', check.message);
      return { kind: 'tax_id', candidates: [{ taxId: check.canonical, country: input.country }] };
    }
    return { kind: 'tax_id', candidates: taxIdCandidates(input.q, countries.get) };
  }
  const query = parseNameQuery(input.q);
  if (!query.ok) throw new AppError('query_too_generic', query.message);
  return {
    kind: 'name',
    indexedWords: query.words.filter((w) => w.length >= 3),
    otherWords: query.words.filter((w) => w.length < 3),
    core: query.core,
    country: input.country,
  };
}

async function findCandidates(deps: SearchDeps, plan: SearchPlan, limit: number): Promise<CompanyRow[]> {
  if (plan.kind === 'tax_id') return findCompaniesByTaxId(deps.db, plan.candidates, limit);
  if (!deps.names) return findCompaniesByName(deps.db, deps.seam, { ...plan, limit });
  await deps.names.refresh(deps.db);
  const { rarest, estimatedMatches, estimatedPrefixMatches } = deps.names;
  return findCompaniesByName(deps.db, deps.seam, { ...plan, limit }, { ...NAME_SEARCH_TUNING, indexTerm: rarest, estimatedMatches, estimatedPrefixMatches });
}

function toCompanyResult(company: CompanyRow, activeReports: ReportRow[]): CompanyResult | null {
  const visible = visibleReports(
    activeReports.map((r) => ({
      row: r,
      type: r.type as ReportType,
      status: r.status as ReportStatus,
      reportedBy: r.reported_by === null ? null : Number(r.reported_by),
    })),
  ).map((v) => v.row);
  const threat = threatLevelOf(visible.length);
  if (threat === null) return null;
  const lastChange = Math.max(Number(company.updated_at), ...visible.map((r) => Number(r.updated_at)));
  return {
    company_name: company.company_name,
    tax_id: company.tax_id,
    country: company.country,
    city: company.city,
    threat_level: threat,
    report_count: visible.length,
    last_updated: formatTurkeyDateTime(lastChange),
    reports: visible.map(toReportView),
  };
}

/** Finds the companies of a planned search and their visible reports (D10, D12, D13). */
export async function runSearch(deps: SearchDeps, plan: SearchPlan): Promise<SearchOutcome> {
  const companies = await findCandidates(deps, plan, deps.maxResults + 1);
  const shown = companies.slice(0, deps.maxResults);
  const reports = await listActiveReports(deps.db, shown.map((c) => Number(c.id)));
  const byCompany = new Map<number, ReportRow[]>();
  for (const r of reports) {
    const list = byCompany.get(Number(r.company_id)) ?? [];
    list.push(r);
    byCompany.set(Number(r.company_id), list);
  }
  const results = shown
    .map((c) => toCompanyResult(c, byCompany.get(Number(c.id)) ?? []))
    .filter((r): r is CompanyResult => r !== null);
  return { results, truncated: companies.length > deps.maxResults };
}
