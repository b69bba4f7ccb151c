/**
 * Valid tax IDs for demo and test data, found by asking the country's own validator for the
 * check digits (no checksum is written here).
 */
import { buildCountryCatalogue } from '../countries/catalogue.ts';

const catalogue = buildCountryCatalogue();

/** Completes `stem` with 1 or 2 digits so that the country's `idType` validator accepts it. */
export function completeTaxId(country: string, idType: string, stem: string): string {
  const type = catalogue.get(country)?.idTypes.find((t) => t.type === idType);
  if (!type) throw new Error(`no ID type ${idType} for ${country}`);
  for (const width of [1, 2]) {
    for (let n = 0; n < 10 ** width; n++) {
      const candidate = stem + String(n).padStart(width, '0');
      if (type.validator.validate(candidate).isValid) return candidate;
    }
  }
  throw new Error(`no valid ${country} ${idType} starts with ${stem}`);
}

/** A valid VKN (10 digits) from a 9-digit stem. */
export const vkn = (stem: string) => completeTaxId('TR', 'VKN', stem.padStart(9, '0').slice(0, 9));
/** A valid TCKN (11 digits) from a 9-digit stem that does not start with 0. */
export const tckn = (stem: string) => completeTaxId('TR', 'TCKN', stem.padStart(9, '1').slice(0, 9));
