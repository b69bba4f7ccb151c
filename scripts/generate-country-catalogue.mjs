// Builds src/countries/catalogue.json from the `stdnum` package (D22): every country whose
// company or VAT identifier stdnum validates, with an example and a syntactic pattern for each
// identifier type. Examples are the valid numbers of stdnum's own spec files; the pattern is
// the character classes and lengths of those examples in compact form. Run it again after
// upgrading stdnum; `catalogue.test.ts` checks that every example validates and matches.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkg = require('stdnum');
const names = new Intl.DisplayNames(['en'], { type: 'region' });
const srcDir = new URL('../node_modules/stdnum/src/', import.meta.url);

function findModule(validator) {
  for (const [country, modules] of Object.entries(pkg.stdnum)) {
    for (const [key, mod] of Object.entries(modules)) if (mod === validator) return { country, key };
  }
  return null;
}

function specExamples(country, key) {
  const file = new URL(`${country.toLowerCase()}/${key}.spec.ts`, srcDir);
  if (!existsSync(file)) return { valid: [], checksum: false };
  const text = readFileSync(file, 'utf8');
  const valid = [...text.matchAll(/it\('validate:([^']+)'[\s\S]*?isValid && result\.compact/g)].map((m) => m[1]);
  return { valid, checksum: /InvalidChecksum/.test(text) };
}

function classOf(ch) {
  return /[0-9]/.test(ch) ? 'D' : /[A-Z]/.test(ch) ? 'L' : 'X';
}

/** `^[0-9]{9}$`-style pattern covering every example's compact form. */
function patternOf(compacts) {
  const lengths = compacts.map((c) => c.length);
  const min = Math.min(...lengths);
  const max = Math.max(...lengths);
  const classes = new Set(compacts.flatMap((c) => [...c].map(classOf)));
  const set = classes.has('X') ? '0-9A-Z' : [classes.has('D') ? '0-9' : '', classes.has('L') ? 'A-Z' : ''].join('');
  return `^[${set}]{${min === max ? min : `${min},${max}`}}$`;
}

function idType(validator, countryCode, typeOverride) {
  const found = findModule(validator);
  if (!found) return null;
  const { valid, checksum } = specExamples(found.country, found.key);
  const compacts = valid
    .map((v) => validator.validate(v))
    .filter((r) => r.isValid)
    .map((r) => String(r.compact).toUpperCase())
    .filter((c) => /^[0-9A-Z]+$/.test(c));
  if (compacts.length === 0) return null;
  return {
    type: (typeOverride ?? validator.abbreviation ?? found.key).trim(),
    name: validator.name,
    local_name: validator.localName ?? null,
    pattern: patternOf(compacts),
    example: compacts[0],
    checksum,
    module: `${found.country}.${found.key}`,
    country: countryCode,
  };
}

const countries = [];
for (const [code, validators] of Object.entries(pkg.entityValidators)) {
  const types = validators.map((v) => idType(v, code)).filter(Boolean);
  if (code === 'TR') {
    // Sole proprietors in Türkiye are identified by the personal TCKN; stdnum lists it as a
    // person identifier (and misspells its name), so it is added here by hand.
    types.push({ ...idType(pkg.stdnum.TR.tckimlik, 'TR', 'TCKN'), name: 'Turkish Identification Number (T.C. Kimlik No.)' });
  }
  const unique = [...new Map(types.map((t) => [t.type, t])).values()];
  if (unique.length === 0) continue;
  countries.push({
    code,
    name: code === 'TR' ? 'Türkiye' : names.of(code),
    id_types: unique.map(({ country, ...t }) => t),
  });
}
countries.sort((a, b) => a.code.localeCompare(b.code));
const out = new URL('../src/countries/catalogue.json', import.meta.url);
writeFileSync(out, JSON.stringify(countries, null, 2) + '\n');
console.log(`wrote ${countries.length} countries, ${countries.reduce((n, c) => n + c.id_types.length, 0)} identifier types`);
