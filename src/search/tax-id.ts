/**
 * Tax-ID normalisation and validation (D9). Pure: the country catalogue is passed in.
 */
import type { Country } from '../countries/catalogue.ts';

/** D9's normalisation: white space, `.`, `-`, `/` removed, upper case. */
export function normaliseTaxId(raw: string): string {
  return raw.replace(/[\s.\-/]+/gu, '').toUpperCase();
}

export type TaxIdCheck = { valid: true; canonical: string; idType: string } | { valid: false; message: string };

/** `^[0-9]{10}$` → `10 digits`; `^[0-9A-Z]{9,15}$` → `9 to 15 letters or digits`. */
function describePattern(pattern: string): string {
  const m = /^\^\[([^\]]+)\]\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern);
  if (!m) return `matching ${pattern}`;
  const what = m[1] === '0-9' ? 'digits' : 'letters or digits';
  return m[3] ? `${m[2]} to ${m[3]} ${what}` : `${m[2]} ${what}`;
}

function describeTypes(country: Country): string {
  return country.idTypes.map((t) => `${t.type} (${describePattern(t.pattern)}${t.checksum ? ' with check digits' : ''}, e.g. ${t.example})`).join(' or ');
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
