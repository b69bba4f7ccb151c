/** Report types (spec 2.5) and the fields each carries (D14). One place for both. */

export const OFFICIAL_TYPES = ['enforcement_judgment', 'enforcement_bill', 'bounced_cheque', 'debt_assigned', 'enforcement_plain'] as const;
export const CLAIM_TYPE = 'unpaid_debt';
export const LEGACY_TYPES = ['concordat', 'court_decision'] as const;
export const REPORT_TYPES = [...OFFICIAL_TYPES, CLAIM_TYPE, ...LEGACY_TYPES] as const;

export type ReportType = (typeof REPORT_TYPES)[number];

export function isReportType(value: unknown): value is ReportType {
  return typeof value === 'string' && (REPORT_TYPES as readonly string[]).includes(value);
}

export function isOfficialType(type: ReportType): boolean {
  return (OFFICIAL_TYPES as readonly string[]).includes(type);
}

/** Types whose reports must name the reporting member (D24). */
export function needsReportingMember(type: ReportType): boolean {
  return !isOfficialType(type);
}

/** Inner fields of `case` by type (D14); all strings, `date`-like ones `YYYY-MM-DD`. */
const ENFORCEMENT_CASE = ['enforcement_office', 'file_number', 'date'] as const;
export const CASE_FIELDS: Partial<Record<ReportType, readonly string[]>> = {
  enforcement_judgment: ENFORCEMENT_CASE,
  enforcement_bill: ENFORCEMENT_CASE,
  enforcement_plain: ENFORCEMENT_CASE,
  bounced_cheque: ['prosecutor_office', 'investigation_number'],
  debt_assigned: ['collection_company', 'contract_number', 'assignment_date'],
};
export const CASE_DATE_FIELDS: ReadonlySet<string> = new Set(['date', 'assignment_date']);

/** Types that carry `court_decision_date` (D14). */
export const COURT_DECISION_DATE_TYPES: ReadonlySet<ReportType> = new Set(['enforcement_judgment', 'court_decision']);
/** Types that carry `concordat_start` / `concordat_end` (D14). */
export const CONCORDAT_TYPES: ReadonlySet<ReportType> = new Set(['concordat']);
