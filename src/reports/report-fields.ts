/**
 * Checks of the type-specific report fields (D14), shared by the import (D24) and filing (D29).
 * Pure: each reads one raw field, pushes what is wrong to `problems` (with its code, problems.ts)
 * and returns the clean value. `at` prefixes field names in messages: `reports[0].` for an import
 * line, `` for a filed report.
 */
import { stated, type StatedProblem } from '../lib/problems.ts';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
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

export function checkOptionalDate(r: Record<string, unknown>, field: string, at: string, problems: StatedProblem[]): string | null {
  const v = r[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !isCalendarDate(v)) {
    const value = typeof v === 'string' ? v : JSON.stringify(v);
    problems.push(stated(`${at}${field} must be a date YYYY-MM-DD, got ${JSON.stringify(v)}`, { code: 'report.date_invalid', params: { field, value } }));
    return null;
  }
  return v;
}

/** `amount` (2 decimals at most, kept in minor units) with its ISO 4217 `currency`, both or neither. */
export function checkAmount(r: Record<string, unknown>, at: string, problems: StatedProblem[]): [number | null, string | null] {
  const { amount, currency } = r;
  if ((amount === undefined || amount === null) && (currency === undefined || currency === null)) return [null, null];
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
    problems.push(stated(`${at}amount must be a non-negative number when currency is given`, { code: 'report.amount_needs_number' }));
    return [null, null];
  }
  const minor = Math.round(amount * 100);
  if (Math.abs(minor - amount * 100) > 1e-6 || minor > Number.MAX_SAFE_INTEGER) {
    problems.push(stated(`${at}amount must have at most 2 decimals, got ${amount}`, { code: 'report.amount_decimals', params: { value: amount } }));
  }
  if (typeof currency !== 'string' || !CURRENCIES.has(currency)) {
    problems.push(stated(`${at}currency must be an ISO 4217 code such as TRY, EUR or USD when amount is given`, { code: 'report.currency_invalid' }));
  }
  return [minor, typeof currency === 'string' ? currency : null];
}

/**
 * The `case` object of the types that carry one (D14), as JSON. `requireAll` (a filed report):
 * every field of the type's case must be given and not empty.
 */
export function checkCase(r: Record<string, unknown>, type: ReportType, at: string, problems: StatedProblem[], requireAll = false): string | null {
  const allowed = CASE_FIELDS[type];
  if (r.case === undefined || r.case === null) {
    if (requireAll && allowed) {
      problems.push(
        stated(`${at}case is required for ${type} reports: ${allowed.join(', ')}`, {
          code: 'report.case_required',
          params: { type, caseFields: allowed.join(', ') },
        }),
      );
    }
    return null;
  }
  if (!allowed) {
    problems.push(stated(`${at}case is not used for ${type} reports; leave it out`, { code: 'report.case_not_used', params: { type } }));
    return null;
  }
  if (!isObject(r.case)) {
    problems.push(
      stated(`${at}case must be an object with ${allowed.join(', ')}`, { code: 'report.case_not_object', params: { caseFields: allowed.join(', ') } }),
    );
    return null;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.case)) {
    const field = `case.${k}`;
    if (!allowed.includes(k)) {
      problems.push(
        stated(`${at}case.${k} is not a field of a ${type} case (use ${allowed.join(', ')})`, {
          code: 'report.case_field_unknown',
          params: { field, type, caseFields: allowed.join(', ') },
        }),
      );
    } else if (typeof v !== 'string') problems.push(stated(`${at}case.${k} must be a string`, { code: 'report.case_field_not_text', params: { field } }));
    else if (hasForbiddenCharacters(v)) {
      problems.push(stated(`${at}case.${k} contains control characters`, { code: 'field.control_characters', params: { field } }));
    }
    // A form's empty date is missing, not mistyped: the required check below names it once.
    else if (CASE_DATE_FIELDS.has(k) && !isCalendarDate(v) && !(requireAll && v.trim() === '')) {
      problems.push(stated(`${at}case.${k} must be a date YYYY-MM-DD`, { code: 'report.case_field_date', params: { field } }));
    } else out[k] = v;
  }
  if (requireAll) {
    for (const k of allowed) {
      if (typeof r.case[k] !== 'string' || r.case[k].trim() === '') {
        problems.push(stated(`${at}case.${k} is required`, { code: 'field.required', params: { field: `case.${k}` } }));
      }
    }
  }
  return JSON.stringify(out);
}

/** `court_decision_date` where the type carries it (required for court_decision), else refused. */
export function checkCourtDecisionDate(r: Record<string, unknown>, type: ReportType, at: string, problems: StatedProblem[]): string | null {
  const date = checkOptionalDate(r, 'court_decision_date', at, problems);
  if (date && !COURT_DECISION_DATE_TYPES.has(type)) {
    problems.push(stated(`${at}court_decision_date is not used for ${type}`, { code: 'report.court_decision_date_not_used', params: { type } }));
  }
  if (type === 'court_decision' && !date) {
    problems.push(stated(`${at}court_decision_date is required for court_decision`, { code: 'report.court_decision_date_required' }));
  }
  return date;
}

/** `concordat_start` and `concordat_end`: both on a concordat, in order; never on another type. */
export function checkConcordat(r: Record<string, unknown>, type: ReportType, at: string, problems: StatedProblem[]): [string | null, string | null] {
  const start = checkOptionalDate(r, 'concordat_start', at, problems);
  const end = checkOptionalDate(r, 'concordat_end', at, problems);
  if (CONCORDAT_TYPES.has(type)) {
    if (!start || !end) problems.push(stated(`${whole(at)}a concordat needs concordat_start and concordat_end`, { code: 'report.concordat_dates_required' }));
    else if (end < start) problems.push(stated(`${at}concordat_end is before concordat_start`, { code: 'report.concordat_end_before_start' }));
  } else if (start || end) {
    problems.push(stated(`${at}concordat_start/concordat_end are only for concordat reports`, { code: 'report.concordat_dates_not_used' }));
  }
  return [start, end];
}
