/**
 * The supported countries and their identifier types (D22), built once at start-up from
 * `catalogue.json` (generated from the `stdnum` package by scripts/generate-country-catalogue.mjs)
 * and the operator's country switch. Validation itself is stdnum's: we write no checksum.
 */
import stdnumPkg from 'stdnum';
import catalogueJson from './catalogue.json' with { type: 'json' };
import { ALL_COUNTRY_CODES } from './country-codes.ts';

export { ALL_COUNTRY_CODES };

const rawCatalogue = catalogueJson as CatalogueEntry[];

interface CatalogueEntry {
  code: string;
  name: string;
  id_types: Array<{
    type: string;
    name: string;
    local_name: string | null;
    pattern: string;
    example: string;
    checksum: boolean;
    module: string;
  }>;
}

interface StdnumValidator {
  validate(value: string): { isValid: boolean; compact?: string };
}

export interface IdType {
  type: string;
  name: string;
  pattern: string;
  example: string;
  checksum: boolean;
  /** `pattern`, compiled once. */
  shape: RegExp;
  validator: StdnumValidator;
}

export interface Country {
  code: string;
  name: string;
  idTypes: IdType[];
}

export interface CountryCatalogue {
  list(): readonly Country[];
  get(code: string): Country | undefined;
}

const modules = stdnumPkg.stdnum as unknown as Record<string, Record<string, StdnumValidator>>;

function toCountry(entry: CatalogueEntry): Country {
  return {
    code: entry.code,
    name: entry.name,
    idTypes: entry.id_types.map((t) => {
      const [country, key] = t.module.split('.') as [string, string];
      const validator = modules[country]?.[key];
      if (!validator) throw new Error(`stdnum has no validator ${t.module}; regenerate the catalogue`);
      return { type: t.type, name: t.name, pattern: t.pattern, example: t.example, checksum: t.checksum, shape: new RegExp(t.pattern), validator };
    }),
  };
}

/**
 * @param enabled country codes to serve, or 'all'. Unknown codes are an error so that a typo in
 *   the operator's setting does not silently drop a country.
 */
export function buildCountryCatalogue(enabled: readonly string[] | 'all' = 'all'): CountryCatalogue {
  if (enabled !== 'all') {
    const unknown = enabled.filter((code) => !ALL_COUNTRY_CODES.includes(code));
    if (unknown.length > 0) {
      throw new Error(`unsupported country code(s): ${unknown.join(', ')}; supported: ${ALL_COUNTRY_CODES.join(', ')}`);
    }
  }
  const countries = rawCatalogue.filter((c) => enabled === 'all' || enabled.includes(c.code)).map(toCountry);
  const byCode = new Map(countries.map((c) => [c.code, c]));
  return { list: () => countries, get: (code) => byCode.get(code) };
}
