/**
 * Validation of one D24 import line. Pure: returns the cleaned company and reports, or every
 * problem of the line, phrased for the operator who has to fix the file.
 */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { StatedProblem } from '../lib/problems.ts';
import { parseTurkeyDateTime } from '../lib/turkey-time.ts';
import { isReportStatus, type ReportStatus } from '../reports/lifecycle.ts';
import { checkAmount, checkCase, checkConcordat, checkCourtDecisionDate } from '../reports/report-fields.ts';
import { isReportType, needsReportingMember, REPORT_TYPES, type ReportType } from '../reports/report-types.ts';
import { nameColumnsOf } from '../companies/company-row.ts';
import { checkTaxId } from '../companies/tax-id.ts';
import type { CalendarDate } from '../lib/calendar-date.ts';
import { retentionAnchorOf } from '../retention/retention-rules.ts';

export interface ImportReport {
  ref: string | null;
  type: ReportType;
  status: ReportStatus;
  filedAt: number;
  description: string;
  amountMinor: number | null;
  currency: string | null;
  courtDecisionDate: string | null;
  concordatStart: string | null;
  concordatEnd: string | null;
  caseJson: string | null;
  reportedBy: string | null;
  /**
   * D34: the date the report ages from, by the daily job's own rule (retention-rules.ts
   * `retentionAnchorOf`; an imported report has no event date). Worked out here, on the line
   * checker's thread, so the import writes it and the job's first run has none to fill.
   */
  retentionAnchor: CalendarDate;
}

export interface ImportCompany {
  companyName: string;
  taxId: string;
  taxIdNorm: string;
  country: string;
  city: string;
  nameKey: string;
  nameCore: string;
  reports: ImportReport[];
}

const COMPANY_FIELDS = new Set(['company_name', 'tax_id', 'country', 'city', 'reports']);
const REPORT_FIELDS = new Set([
  'ref',
  'type',
  'status',
  'filed_at',
  'description',
  'amount',
  'currency',
  'court_decision_date',
  'concordat_start',
  'concordat_end',
  'case',
  'reported_by',
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown, name: string, problems: string[], opts: { max: number; allowEmpty?: boolean }): string {
  if (typeof v !== 'string') {
    problems.push(`${name} must be a string`);
    return '';
  }
  const t = v.trim();
  if (t === '' && !opts.allowEmpty) problems.push(`${name} must not be empty`);
  if (t.length > opts.max) problems.push(`${name} is longer than ${opts.max} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are what this rejects
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(t)) problems.push(`${name} contains control characters`);
  return t;
}

function parseReport(raw: unknown, index: number, problems: string[]): ImportReport | null {
  const at = `reports[${index}]`;
  if (!isObject(raw)) {
    problems.push(`${at} must be an object`);
    return null;
  }
  for (const field of Object.keys(raw)) {
    if (field === 'report_id' || field === 'official') problems.push(`${at}.${field} is set by the service; leave it out`);
    else if (!REPORT_FIELDS.has(field)) problems.push(`${at}.${field} is not a report field`);
  }
  if (!isReportType(raw.type)) {
    problems.push(`${at}.type must be one of ${REPORT_TYPES.join(', ')}, got ${JSON.stringify(raw.type)}`);
    return null;
  }
  const type = raw.type;
  const status = raw.status ?? 'pending';
  if (!isReportStatus(status)) problems.push(`${at}.status must be pending, approved, rejected, withdrawn or deactivated`);
  const filedAt = typeof raw.filed_at === 'string' ? parseTurkeyDateTime(raw.filed_at) : null;
  if (filedAt === null) problems.push(`${at}.filed_at must be 'YYYY-MM-DD HH:MM:SS' (Turkey time) or an ISO 8601 instant`);
  const description = text(raw.description ?? '', `${at}.description`, problems, { max: 4000, allowEmpty: true });
  // The shared field checks state each problem with its code too; the import keeps the words.
  const fieldProblems: StatedProblem[] = [];
  const [amountMinor, currency] = checkAmount(raw, `${at}.`, fieldProblems);
  const courtDecisionDate = checkCourtDecisionDate(raw, type, `${at}.`, fieldProblems);
  const [concordatStart, concordatEnd] = checkConcordat(raw, type, `${at}.`, fieldProblems);
  const caseJson = checkCase(raw, type, `${at}.`, fieldProblems);
  problems.push(...fieldProblems.map((p) => p.message));
  const ref = raw.ref === undefined || raw.ref === null ? null : text(raw.ref, `${at}.ref`, problems, { max: 100 });
  const reportedBy = raw.reported_by === undefined || raw.reported_by === null ? null : text(raw.reported_by, `${at}.reported_by`, problems, { max: 64 });
  if (needsReportingMember(type) && !reportedBy) problems.push(`${at}.reported_by (a member ref) is required for ${type}`);
  return {
    ref,
    type,
    status: status as ReportStatus,
    filedAt: filedAt ?? 0,
    description,
    amountMinor,
    currency,
    courtDecisionDate,
    concordatStart,
    concordatEnd,
    caseJson,
    reportedBy,
    retentionAnchor: retentionAnchorOf({
      type,
      eventDate: null,
      // checkCase kept every field of a good line as it came (strings); a bad line is never written.
      caseFields: caseJson === null ? null : (raw.case as Record<string, string>),
      courtDecisionDate,
      concordatEnd,
      filedAt: filedAt ?? 0,
    }).date,
  };
}

/** Parses and checks one line; `problems` is empty when the line is good. */
export function parseImportLine(line: string, countries: CountryCatalogue): { company: ImportCompany | null; problems: string[] } {
  const problems: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return { company: null, problems: [`not valid JSON (${(error as Error).message})`] };
  }
  if (!isObject(raw)) return { company: null, problems: ['must be a JSON object, one company per line'] };
  for (const field of Object.keys(raw)) if (!COMPANY_FIELDS.has(field)) problems.push(`${field} is not a company field`);
  const companyName = text(raw.company_name, 'company_name', problems, { max: 300 });
  const city = text(raw.city ?? '', 'city', problems, { max: 100, allowEmpty: true });
  const countryCode = typeof raw.country === 'string' ? raw.country.trim().toUpperCase() : '';
  const country = countries.get(countryCode);
  let taxIdNorm = '';
  if (!country) problems.push(`country ${JSON.stringify(raw.country)} is not a supported 2-letter country code`);
  const taxId = text(raw.tax_id, 'tax_id', problems, { max: 40 });
  if (country && taxId) {
    const check = checkTaxId(taxId, country);
    if (check.valid) taxIdNorm = check.canonical;
    else problems.push(check.message);
  }
  const { nameKey, nameCore } = nameColumnsOf(companyName);
  if (companyName && nameCore === '') problems.push('company_name has no letters or digits beyond legal forms');
  const reportsRaw = raw.reports ?? [];
  if (!Array.isArray(reportsRaw)) problems.push('reports must be an array');
  const reports = (Array.isArray(reportsRaw) ? reportsRaw : []).map((r, i) => parseReport(r, i, problems)).filter((r): r is ImportReport => r !== null);
  if (problems.length > 0) return { company: null, problems };
  return {
    company: {
      companyName,
      taxId,
      taxIdNorm,
      country: countryCode,
      city,
      nameKey,
      nameCore,
      reports,
    },
    problems,
  };
}

function duplicateRefs(refs: Array<string | null>): string[] {
  const seen = new Set<string>();
  return refs.filter((r): r is string => r !== null && (seen.has(r) || !seen.add(r)));
}

/** A line as the import sees it: blank (skipped), or parsed with every problem of its own. */
export interface CheckedLine {
  lineNo: number;
  blank: boolean;
  company: ImportCompany | null;
  problems: string[];
}

/** Everything that can be said about one line without the database. */
export function checkImportLine(line: string, lineNo: number, countries: CountryCatalogue): CheckedLine {
  if (line.trim() === '') return { lineNo, blank: true, company: null, problems: [] };
  const { company, problems } = parseImportLine(line, countries);
  for (const ref of duplicateRefs(company?.reports.map((r) => r.ref) ?? [])) problems.push(`report ref '${ref}' appears twice in this line`);
  return { lineNo, blank: false, company: problems.length === 0 ? company : null, problems };
}
