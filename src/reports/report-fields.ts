/**
 * Checks of the type-specific report fields (D14), shared by the import (D24) and filing (D29).
 * Pure: each reads one raw field, pushes what is wrong to `problems` and returns the clean value.
 * `at` prefixes field names in messages: `reports[0].` for an import line, `` for a filed report.
 */
import { isCalendarDate } from '../lib/turkey-time.ts';
import { CASE_DATE_FIELDS, CASE_FIELDS, CONCORDAT_TYPES, COURT_DECISION_DATE_TYPES, type ReportType } from './report-types.ts';

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `reports[0]: ` before a message about the whole report; nothing for a filed one. */
function whole(at: string): string {
  return at === '' ? '' : `${at.slice(0, -1)}: `;
}

export function checkOptionalDate(r: Record<string, unknown>, field: string, at: string, problems: string[]): string | null {
  const v = r[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !isCalendarDate(v)) {
    problems.push(`${at}${field} must be a date YYYY-MM-DD, got ${JSON.stringify(v)}`);
    return null;
  }
  return v;
}

/** `amount` (2 decimals at most, kept in minor units) with its ISO 4217 `currency`, both or neither. */
export function checkAmount(r: Record<string, unknown>, at: string, problems: string[]): [number | null, string | null] {
  const { amount, currency } = r;
  if ((amount === undefined || amount === null) && (currency === undefined || currency === null)) return [null, null];
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
    problems.push(`${at}amount must be a non-negative number when currency is given`);
    return [null, null];
  }
  const minor = Math.round(amount * 100);
  if (Math.abs(minor - amount * 100) > 1e-6 || minor > Number.MAX_SAFE_INTEGER) {
    problems.push(`${at}amount must have at most 2 decimals, got ${amount}`);
  }
  if (typeof currency !== 'string' || !CURRENCIES.has(currency)) {
    problems.push(`${at}currency must be an ISO 4217 code such as TRY, EUR or USD when amount is given`);
  }
  return [minor, typeof currency === 'string' ? currency : null];
}

/**
 * The `case` object of the types that carry one (D14), as JSON. `requireAll` (a filed report):
 * every field of the type's case must be given and not empty.
 */
export function checkCase(r: Record<string, unknown>, type: ReportType, at: string, problems: string[], requireAll = false): string | null {
  const allowed = CASE_FIELDS[type];
  if (r.case === undefined || r.case === null) {
    if (requireAll && allowed) problems.push(`${at}case is required for ${type} reports: ${allowed.join(', ')}`);
    return null;
  }
  if (!allowed) {
    problems.push(`${at}case is not used for ${type} reports; leave it out`);
    return null;
  }
  if (!isObject(r.case)) {
    problems.push(`${at}case must be an object with ${allowed.join(', ')}`);
    return null;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.case)) {
    if (!allowed.includes(k)) problems.push(`${at}case.${k} is not a field of a ${type} case (use ${allowed.join(', ')})`);
    else if (typeof v !== 'string') problems.push(`${at}case.${k} must be a string`);
    else if (CASE_DATE_FIELDS.has(k) && !isCalendarDate(v)) problems.push(`${at}case.${k} must be a date YYYY-MM-DD`);
    else out[k] = v;
  }
  if (requireAll) {
    for (const k of allowed) if (typeof r.case[k] !== 'string' || r.case[k].trim() === '') problems.push(`${at}case.${k} is required`);
  }
  return JSON.stringify(out);
}

/** `court_decision_date` where the type carries it (required for court_decision), else refused. */
export function checkCourtDecisionDate(r: Record<string, unknown>, type: ReportType, at: string, problems: string[]): string | null {
  const date = checkOptionalDate(r, 'court_decision_date', at, problems);
  if (date && !COURT_DECISION_DATE_TYPES.has(type)) problems.push(`${at}court_decision_date is not used for ${type}`);
  if (type === 'court_decision' && !date) problems.push(`${at}court_decision_date is required for court_decision`);
  return date;
}

/** `concordat_start` and `concordat_end`: both on a concordat, in order; never on another type. */
export function checkConcordat(r: Record<string, unknown>, type: ReportType, at: string, problems: string[]): [string | null, string | null] {
  const start = checkOptionalDate(r, 'concordat_start', at, problems);
  const end = checkOptionalDate(r, 'concordat_end', at, problems);
  if (CONCORDAT_TYPES.has(type)) {
    if (!start || !end) problems.push(`${whole(at)}a concordat needs concordat_start and concordat_end`);
    else if (end < start) problems.push(`${at}concordat_end is before concordat_start`);
  } else if (start || end) {
    problems.push(`${at}concordat_start/concordat_end are only for concordat reports`);
  }
  return [start, end];
}
