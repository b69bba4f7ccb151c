/**
 * Tax-ID normalisation and validation (D9). Pure: the country catalogue is passed in.
 */
import type { Country } from '../countries/catalogue.ts';
import type { Problem } from '../lib/problems.ts';

/** D9's normalisation: white space, `.`, `-`, `/` removed, upper case. */
export function normaliseTaxId(raw: string): string {
  return raw.replace(/[\s.\-/]+/gu, '').toUpperCase();
}

export type TaxIdCheck = { valid: true; canonical: string; idType: string } | { valid: false; message: string; problem: Problem };

/** One identifier format of a country, as its messages describe it (in any language). */
export interface TaxIdFormat {
  type: string;
  /** How many characters and of what, when the pattern says it plainly; else null (then `pattern`). */
  length: { min: number; max: number | null; alphabet: 'digits' | 'alphanumeric' } | null;
  pattern: string;
  checksum: boolean;
  example: string;
}

/** `^[0-9]{10}$` → 10 digits; `^[0-9A-Z]{9,15}$` → 9 to 15 letters or digits. */
export function taxIdFormatsOf(country: Country): TaxIdFormat[] {
  return country.idTypes.map((t) => {
    const m = /^\^\[([^\]]+)\]\{(\d+)(?:,(\d+))?\}\$$/.exec(t.pattern);
    const length = m
      ? { min: Number(m[2]), max: m[3] ? Number(m[3]) : null, alphabet: m[1] === '0-9' ? ('digits' as const) : ('alphanumeric' as const) }
      : null;
    return { type: t.type, length, pattern: t.pattern, checksum: t.checksum, example: t.example };
  });
}

function describeLength(f: TaxIdFormat): string {
  if (!f.length) return `matching ${f.pattern}`;
  const what = f.length.alphabet === 'digits' ? 'digits' : 'letters or digits';
  return f.length.max !== null ? `${f.length.min} to ${f.length.max} ${what}` : `${f.length.min} ${what}`;
}

function describeTypes(country: Country): string {
  return taxIdFormatsOf(country)
    .map((f) => `${f.type} (${describeLength(f)}${f.checksum ? ' with check digits' : ''}, e.g. ${f.example})`)
    .join(' or ');
}

/**
 * Checks an ID against the country's formats, check digits included, and returns the
 * canonical form that companies are stored under: the validator's compact form, with a leading
 * country prefix removed where the format does not include it (`TR4540536920` → `4540536920`).
 */
export function checkTaxId(raw: string, country: Country): TaxIdCheck {
  const basic = normaliseTaxId(raw);
  const candidates = basic.startsWith(country.code) ? [basic, basic.slice(country.code.length)] : [basic];
  for (const candidate of candidates) {
    if (!/^[0-9A-Z]+$/.test(candidate)) continue;
    // Types whose shape fits go first: a failed validation builds an exception, which is slow.
    const ordered = [...country.idTypes].sort((a, b) => Number(!a.shape.test(candidate)) - Number(!b.shape.test(candidate)));
    for (const t of ordered) {
      const result = t.validator.validate(candidate);
      if (result.isValid) {
        return { valid: true, canonical: String(result.compact ?? candidate).toUpperCase(), idType: t.type };
      }
    }
  }
  return {
    valid: false,
    message: `'${raw}' is not a valid ${country.code} tax ID: expected ${describeTypes(country)}. Check the number for a typo`,
    problem: { code: 'tax_id.invalid', params: { value: raw, country: country.code } },
  };
}

/**
 * The stored forms a query without a country filter may match: the normalised ID, and, when it
 * starts with the code of a supported country, the rest of it within that country.
 */
export function taxIdCandidates(raw: string, getCountry: (code: string) => Country | undefined) {
  const basic = normaliseTaxId(raw);
  const out: Array<{ taxId: string; country: string | null }> = [{ taxId: basic, country: null }];
  const prefix = basic.slice(0, 2);
  if (/^[A-Z]{2}$/.test(prefix) && basic.length > 2 && getCountry(prefix)) {
    const check = checkTaxId(basic, getCountry(prefix)!);
    if (check.valid && check.canonical !== basic) out.push({ taxId: check.canonical, country: prefix });
  }
  return out;
}
