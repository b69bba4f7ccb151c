/**
 * Visibility, consensus and counting (D12, D13, spec 3.2). Pure functions over one company's
 * reports: the search service, the denormalised visible count and the tests all use these.
 */
import { isActive, type ReportStatus } from './lifecycle.ts';
import { CLAIM_TYPE, isOfficialType, type ReportType } from './report-types.ts';

export const CONSENSUS_THRESHOLD = 2.5;
const OFFICIAL_FILE_WEIGHT = 2.5;
export const HIGH_THREAT_FROM = 6;

export interface ReportFacts {
  type: ReportType;
  status: ReportStatus;
  /** The reporting member; null for official files entered by the operator. */
  reportedBy: number | null;
}

/** Distinct members with an active claim, plus 2.5 for any active official file (D12). */
export function consensusScore(reports: readonly ReportFacts[]): number {
  const claimants = new Set<number | null>();
  let official = false;
  for (const r of reports) {
    if (!isActive(r.status)) continue;
    if (isOfficialType(r.type)) official = true;
    else if (r.type === CLAIM_TYPE) claimants.add(r.reportedBy);
  }
  return claimants.size + (official ? OFFICIAL_FILE_WEIGHT : 0);
}

/** The reports of one company that a member may see (D12), in the input order. */
export function visibleReports<R extends ReportFacts>(reports: readonly R[]): R[] {
  const claimsVisible = consensusScore(reports) >= CONSENSUS_THRESHOLD;
  return reports.filter((r) => isActive(r.status) && (r.type !== CLAIM_TYPE || claimsVisible));
}

export type ThreatLevel = 'normal' | 'high';

/** Spec 3.2 from the visible active report count; null means the company is not returned. */
export function threatLevelOf(reportCount: number): ThreatLevel | null {
  if (reportCount <= 0) return null;
  return reportCount >= HIGH_THREAT_FROM ? 'high' : 'normal';
}
