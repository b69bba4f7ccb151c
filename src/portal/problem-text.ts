/**
 * A refusal in the page's language (D27): each problem of a DomainError, an AppError's problem or
 * reason, worded from the catalogue by code (src/lib/problems.ts) rather than the services'
 * English messages, which stay the API's and the CLI's. Values that name a form field, a report
 * type or status, a member status or a moderation step are put in words; the rest are shown as
 * they are. Where the catalogue cannot word a problem, its English message is shown instead of
 * nothing. Plain text: the html tag escapes it.
 */
import { withoutBidiControls } from '../lib/bidi-controls.ts';
import { buildCountryCatalogue, type CountryCatalogue } from '../countries/catalogue.ts';
import type { AppError, DomainError, ErrorReason } from '../lib/errors.ts';
import type { Problem, ProblemCode } from '../lib/problems.ts';
import { taxIdFormatsOf, type TaxIdFormat } from '../companies/tax-id.ts';
import { MESSAGES, t, type MessageKey } from './messages/index.ts';
import type { Locale } from './portal-context.ts';

type Values = Readonly<Record<string, string | number>>;

// Every code and every reason has its text: a missing one does not compile.
const PROBLEM_TEXTS: Readonly<Record<`problem.${ProblemCode}`, unknown>> = MESSAGES;
const REASON_TEXTS: Readonly<Record<`error.reason.${ErrorReason}`, unknown>> = MESSAGES;

/** The catalogue's word for `key`, or `value` as it is where it has none. */
function wordOr(locale: Locale, key: string, value: string): string {
  return key in MESSAGES ? t(locale, key as MessageKey) : value;
}

const status = (locale: Locale, value: string) => wordOr(locale, `reports.status.${value}`, value);
const reportType = (locale: Locale, value: string) => wordOr(locale, `search.type.${value}`, value);
const each = (value: string, word: (v: string) => string, joiner = ', ') => value.split(', ').map(word).join(joiner);

/** Values put in words, by their name (the convention of problems.ts). */
const WORDED: Readonly<Record<string, (locale: Locale, value: string) => string>> = {
  field: (locale, value) => (value.startsWith('case.') ? wordOr(locale, value, value) : wordOr(locale, `word.field.${value}`, value)),
  type: reportType,
  types: (locale, value) => each(value, (v) => reportType(locale, v)),
  status,
  from: status,
  to: status,
  statuses: (locale, value) => each(value, (v) => `“${status(locale, v)}”`, t(locale, 'word.or')),
  memberStatus: (locale, value) => wordOr(locale, `word.member_status.${value}`, value),
  step: (locale, value) => wordOr(locale, `word.step.${value}`, value),
  caseFields: (locale, value) => each(value, (v) => wordOr(locale, `case.${v}`, v)),
};

let countries: CountryCatalogue | null = null;

function formatText(locale: Locale, f: TaxIdFormat): string {
  const { length } = f;
  const range = length?.max !== null && length?.max !== undefined;
  const lengthText = !length
    ? t(locale, 'word.taxId.pattern', { pattern: f.pattern })
    : length.alphabet === 'digits'
      ? t(locale, range ? 'word.taxId.digitsRange' : 'word.taxId.digits', { count: length.min, min: length.min, max: length.max ?? '' })
      : t(locale, range ? 'word.taxId.alphanumericRange' : 'word.taxId.alphanumeric', { count: length.min, min: length.min, max: length.max ?? '' });
  return t(locale, 'word.taxId.format', {
    type: f.type,
    length: lengthText,
    checksum: f.checksum ? t(locale, 'word.taxId.checksum') : '',
    example: f.example,
  });
}

/** Values a text needs that the problem does not carry, worked out here; null when they cannot be. */
const DERIVED: Partial<Record<ProblemCode, (locale: Locale, params: Values) => Values | null>> = {
  'tax_id.invalid': (locale, params) => {
    countries ??= buildCountryCatalogue();
    const country = countries.get(String(params.country));
    if (!country) return null;
    return {
      expected: taxIdFormatsOf(country)
        .map((f) => formatText(locale, f))
        .join(t(locale, 'word.or')),
    };
  },
};

/** The placeholders each code's text may use beyond its own values (for the catalogue's test). */
export const DERIVED_PARAMS: Partial<Record<ProblemCode, readonly string[]>> = { 'tax_id.invalid': ['expected'] };

/** One problem in the reader's language; `english` (the service's message) where it cannot be worded. */
export function problemText(locale: Locale, problem: Problem, english: string): string {
  const key = `problem.${problem.code}`;
  if (!(key in PROBLEM_TEXTS)) return english;
  const params: Values = problem.params ?? {};
  const derive = DERIVED[problem.code];
  const derived = derive ? derive(locale, params) : {};
  if (derived === null) return english;
  const values: Record<string, string | number> = { ...derived };
  // What was typed is echoed without bidi controls, which would reverse the sentence around it.
  for (const [name, value] of Object.entries(params)) {
    values[name] = WORDED[name]?.(locale, String(value)) ?? (typeof value === 'string' ? withoutBidiControls(value) : value);
  }
  const template: string = MESSAGES[key as MessageKey][locale];
  const missing = [...template.matchAll(/\{([a-zA-Z0-9_]+)\}/g)].some((m) => !(m[1]! in values));
  return missing ? english : t(locale, key as MessageKey, values);
}

/** Each problem of a refused step, in the reader's language. */
export function domainErrorTexts(locale: Locale, error: DomainError): string[] {
  return error.problems.map((p) => problemText(locale, p, p.message));
}

/** What a reason means, in the reader's language (for a refusal without more precise words). */
export function reasonText(locale: Locale, reason: ErrorReason): string {
  return `error.reason.${reason}` in REASON_TEXTS ? t(locale, `error.reason.${reason}`) : reason;
}

/**
 * A refused request in the reader's language: its problem where it has one; else, in English,
 * the message as the API words it, and in Turkish what its reason means.
 */
export function appErrorText(locale: Locale, error: AppError): string {
  if (error.problem) return problemText(locale, error.problem, error.message);
  return locale === 'en' ? error.message : reasonText(locale, error.reason);
}
