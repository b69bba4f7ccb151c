/**
 * What a member's user types into "File a report" (D29), checked: the company (D9 tax ID with its
 * country, D8 name key), the type and its fields (D14, report-fields.ts), the event date, the
 * description. Pure: every problem is listed at once, in words for the member and with its code
 * (problems.ts), which the portal words in the member's language.
 */
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import { stated, type StatedProblem } from '../lib/problems.ts';
import { isCalendarDate } from '../lib/turkey-time.ts';
import { nameColumnsOf, type TypedCompany } from '../companies/company-row.ts';
import { checkTaxId } from '../companies/tax-id.ts';
import { checkAmount, checkCase, checkConcordat, checkCourtDecisionDate } from './report-fields.ts';
import { CLAIM_TYPE, OFFICIAL_TYPES, type ReportType } from './report-types.ts';

/** Types a member files: the official files it holds, and claims. The legacy types are import-only. */
export const FILABLE_TYPES: readonly ReportType[] = [...OFFICIAL_TYPES, CLAIM_TYPE];
export const DESCRIPTION_MAX = 2000;
/** Longest amount a member types: 13 digits before the decimal point, 2 after (exact in a double, in minor units). */
export const AMOUNT_INTEGER_DIGITS_MAX = 13;
const AMOUNT_MAX_TEXT = '9999999999999.99';
/** The earliest event date a filing may name: anything before is a typing slip (0001-01-01). */
export const EVENT_DATE_MIN = '1900-01-01';

export interface FilingInput {
  companyName: string;
  taxId: string;
  country: string;
  city: string;
  type: string;
  /** `YYYY-MM-DD` of the underlying event (the invoice's due date, the enforcement file's date…). */
  eventDate: string;
  /** A number, or the form's text (`1250.50`); empty = none. */
  amount?: number | string | null;
  currency?: string | null;
  /** The type's `case` fields (D14). */
  case?: Record<string, string> | null;
  courtDecisionDate?: string | null;
  description: string;
}

export interface CheckedFiling {
  company: TypedCompany;
  report: {
    type: ReportType;
    eventDate: string;
    description: string;
    amountMinor: number | null;
    currency: string | null;
    courtDecisionDate: string | null;
    caseJson: string | null;
  };
}

/** A text field: `field` names it for the portal (the form's name), `name` for the English words. */
function text(value: unknown, field: string, name: string, max: number, problems: StatedProblem[], lines = false): string {
  const t = typeof value === 'string' ? value.trim() : '';
  if (t === '') problems.push(stated(`${name} is required`, { code: 'field.required', params: { field } }));
  else if (t.length > max) problems.push(stated(`${name} is longer than ${max} characters`, { code: 'field.too_long', params: { field, max } }));
  // Line breaks and tabs are fine in a description; other control characters never are, nor
  // bidi controls (lib/bidi-controls.ts, the one rule).
  if (hasForbiddenCharacters(t, { lines }))
    problems.push(stated(`${name} contains control characters`, { code: 'field.control_characters', params: { field } }));
  return t;
}

function amountOf(raw: FilingInput['amount'], problems: StatedProblem[]): number | null | undefined {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw === 'number') return raw;
  const t = raw.trim().replace(',', '.');
  if (!/^[0-9]+(\.[0-9]+)?$/.test(t)) {
    problems.push(stated(`amount must be a number such as 1250.50, got ${JSON.stringify(raw)}`, { code: 'filing.amount_not_number', params: { value: raw } }));
    return undefined;
  }
  // Checked on the digits, before any conversion: a float would round a long amount silently.
  const [whole = '', decimals = ''] = t.split('.');
  const integerDigits = whole.replace(/^0+(?=[0-9])/, '');
  if (integerDigits.length > AMOUNT_INTEGER_DIGITS_MAX) {
    problems.push(
      stated(`amount must be at most ${AMOUNT_MAX_TEXT} (${AMOUNT_INTEGER_DIGITS_MAX} digits before the decimal point), got ${JSON.stringify(raw)}`, {
        code: 'filing.amount_too_large',
        params: { max: AMOUNT_MAX_TEXT, digits: AMOUNT_INTEGER_DIGITS_MAX, value: raw },
      }),
    );
    return undefined;
  }
  if (decimals.length > 2) {
    problems.push(stated(`amount must have at most 2 decimals, got ${t}`, { code: 'report.amount_decimals', params: { value: raw } }));
    return undefined;
  }
  return Number(t);
}

/** Checks a filing; `today` is the Turkey date (D4) that the event date may not be after. */
export function checkFilingInput(
  input: FilingInput,
  countries: Pick<CountryCatalogue, 'get'>,
  today: string,
): { filing: CheckedFiling; problems: [] } | { filing: null; problems: StatedProblem[] } {
  const problems: StatedProblem[] = [];
  const companyName = text(input.companyName, 'company_name', 'company name', 300, problems);
  const { nameKey, nameCore } = nameColumnsOf(companyName);
  if (companyName !== '' && nameCore === '') {
    problems.push(stated('company name has no letters or digits beyond legal forms', { code: 'filing.company_name_no_letters' }));
  }
  const city = text(input.city, 'city', 'city', 100, problems);
  const code = (input.country ?? '').trim().toUpperCase();
  const country = countries.get(code);
  let taxIdNorm = '';
  const taxId = text(input.taxId, 'tax_id', 'tax ID', 40, problems);
  if (!country) {
    const message = `country ${JSON.stringify(input.country)} is not a supported 2-letter country code`;
    problems.push(stated(message, { code: 'country.unsupported', params: { country: String(input.country ?? '') } }));
  } else if (taxId !== '') {
    // D9, the same check and message as the API's tax-ID search.
    const check = checkTaxId(taxId, country);
    if (check.valid) taxIdNorm = check.canonical;
    else problems.push(stated(check.message, check.problem));
  }
  const type = FILABLE_TYPES.find((t) => t === input.type);
  if (!type) {
    problems.push(
      stated(`type must be one of ${FILABLE_TYPES.join(', ')}, got ${JSON.stringify(input.type)}`, {
        code: 'filing.type_unknown',
        params: { value: String(input.type ?? ''), types: FILABLE_TYPES.join(', ') },
      }),
    );
  }
  const eventDate = typeof input.eventDate === 'string' ? input.eventDate.trim() : '';
  if (!isCalendarDate(eventDate)) {
    const message = `event date must be a date YYYY-MM-DD, got ${JSON.stringify(input.eventDate)}`;
    problems.push(stated(message, { code: 'filing.event_date_invalid', params: { value: String(input.eventDate ?? '') } }));
  } else if (eventDate > today) {
    problems.push(
      stated(`event date ${eventDate} is in the future (today is ${today})`, { code: 'filing.event_date_future', params: { date: eventDate, today } }),
    );
  } else if (eventDate < EVENT_DATE_MIN) {
    const message = `event date ${eventDate} is before ${EVENT_DATE_MIN}: check the year`;
    problems.push(stated(message, { code: 'filing.event_date_too_early', params: { date: eventDate, min: EVENT_DATE_MIN } }));
  }
  const description = text(input.description, 'description', 'description', DESCRIPTION_MAX, problems, true);

  const amount = amountOf(input.amount, problems);
  const currency = typeof input.currency === 'string' && input.currency.trim() !== '' ? input.currency.trim().toUpperCase() : null;
  const fields: Record<string, unknown> = { amount, currency, case: input.case ?? null, court_decision_date: input.courtDecisionDate || null };
  let report: CheckedFiling['report'] | null = null;
  if (type) {
    if (type === CLAIM_TYPE && (amount === null || currency === null)) {
      problems.push(stated('an unpaid_debt report needs the amount and its currency', { code: 'filing.claim_needs_amount' }));
    }
    const [amountMinor, cur] = amount === undefined ? [null, null] : checkAmount(fields, '', problems);
    const courtDecisionDate = checkCourtDecisionDate(fields, type, '', problems);
    checkConcordat(fields, type, '', problems);
    const caseJson = checkCase(fields, type, '', problems, true);
    report = { type, eventDate, description, amountMinor, currency: cur, courtDecisionDate, caseJson };
  }
  if (problems.length > 0 || !report) return { filing: null, problems };
  return {
    filing: { company: { companyName, taxId, taxIdNorm, country: code, city, nameKey, nameCore }, report },
    problems: [],
  };
}
