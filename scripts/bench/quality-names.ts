/**
 * The name-search quality set (issue 11): deterministic, realistic Turkish company names (family
 * names, places, sectors, invented brands, legal forms), and per company the ways members type
 * them: intact variants that D8 must find first, damaged ones that near matches (D25) must catch.
 */
import { seededRandom, type Random } from '../../src/generate/random.ts';
import { EXTRAS, FAMILY_NAMES, PLACES, SECTORS } from '../../src/generate/word-lists.ts';
import { FILLER_WORDS, toCoreKey, toSearchKey } from '../../src/companies/name-key.ts';

export interface QualityCompany {
  /** Significant words as written (`Öztürk`, `Demir`, `Çelik`). */
  words: string[];
  legal: string;
  name: string;
}

const LEGAL_FORMS = [
  'A.Ş.',
  'Ltd. Şti.',
  'Sanayi ve Ticaret A.Ş.',
  'San. ve Tic. Ltd. Şti.',
  'Ticaret Limited Şirketi',
  'Sanayi ve Ticaret Limited Şirketi',
  'Tic. Ltd. Şti.',
  'Anonim Şirketi',
  'İth. İhr. Ltd. Şti.',
  'Koll. Şti.',
];
const SYLLABLES = [
  'ak',
  'ar',
  'bel',
  'can',
  'der',
  'ek',
  'em',
  'fer',
  'gen',
  'han',
  'kar',
  'kor',
  'lin',
  'mar',
  'mer',
  'net',
  'nur',
  'or',
  'pak',
  'ser',
  'tek',
  'ter',
  'tim',
  'tur',
  'van',
  'yen',
  'zer',
  'ay',
  'be',
  'ce',
  'de',
];
const BRAND_ENDINGS = ['', '', 'sa', 'taş', 'soy', 'han', 'teks', 'pa', 'ex'];

function brand(r: Random): string {
  const raw = r.pick(SYLLABLES) + r.pick(SYLLABLES) + r.pick(BRAND_ENDINGS);
  return raw[0]!.toLocaleUpperCase('tr') + raw.slice(1);
}

function companyWords(r: Random): string[] {
  const sector = r.pick(SECTORS).split(' ');
  const family = r.pick(FAMILY_NAMES);
  switch (r.int(7)) {
    case 0:
      return [family, ...sector];
    case 1:
      return [`${family}${r.pick(['oğlu', 'lar', 'ler'])}`, ...sector];
    case 2:
      return [r.pick(PLACES), ...sector, ...r.pick(EXTRAS).split(' ')];
    case 3:
      return [brand(r), ...sector];
    case 4:
      return [r.pick(PLACES), family, ...sector];
    case 5:
      return [family, r.pick(FAMILY_NAMES), ...sector];
    default:
      return [brand(r), r.pick(PLACES), ...sector];
  }
}

/** `count` companies with distinct `name_core`s, the same for a seed on every run. */
export function qualityCompanies(count: number, seed = 11): QualityCompany[] {
  const r = seededRandom(seed);
  const byCore = new Map<string, QualityCompany>();
  while (byCore.size < count) {
    const words = companyWords(r);
    const legal = r.pick(LEGAL_FORMS);
    const name = `${words.join(' ')} ${legal}`;
    const core = toCoreKey(name);
    if (!byCore.has(core)) byCore.set(core, { words, legal, name });
  }
  return [...byCore.values()];
}

/** Names built the same way that no company in the set has (D8 may still find a company). */
export function absentNames(companies: readonly QualityCompany[], count: number, seed = 1011): string[] {
  const cores = new Set(companies.map((c) => toCoreKey(c.name)));
  const r = seededRandom(seed);
  const names: string[] = [];
  while (names.length < count) {
    const name = `${companyWords(r).join(' ')} ${r.pick(LEGAL_FORMS)}`;
    if (!cores.has(toCoreKey(name))) names.push(name);
  }
  return names;
}

const ASCII: Record<string, string> = {
  ç: 'c',
  Ç: 'C',
  ğ: 'g',
  Ğ: 'G',
  ı: 'i',
  İ: 'I',
  ö: 'o',
  Ö: 'O',
  ş: 's',
  Ş: 'S',
  ü: 'u',
  Ü: 'U',
  â: 'a',
  î: 'i',
  û: 'u',
};
const TURKISH_LETTERS = /[çÇğĞıİöÖşŞüÜâîû]/g;
const HAS_TURKISH = /[çÇğĞıİöÖşŞüÜâîû]/;
const dropTurkish = (s: string) => s.replace(TURKISH_LETTERS, (c) => ASCII[c] ?? c);
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\bSanayi\b/g, 'San.'],
  [/\bTicaret\b/g, 'Tic.'],
  [/\bNakliyat\b/g, 'Nak.'],
  [/\bLojistik\b/g, 'Loj.'],
  [/\bLimited Şirketi\b/g, 'Ltd. Şti.'],
  [/\bAnonim Şirketi\b/g, 'A.Ş.'],
  [/\bTaşımacılık\b/g, 'Taş.'],
];
const LETTERS = 'abcçdefgğhıijklmnoöprsştuüvyz';

export type VariantKind = 'intact' | 'damaged';

/** Each variant: how a member might type the company's name; null when it does not apply. */
export const VARIANTS: Record<string, { kind: VariantKind; make: (c: QualityCompany, r: Random) => string | null }> = {
  exact: { kind: 'intact', make: (c) => c.name },
  'lower case': { kind: 'intact', make: (c) => c.name.toLocaleLowerCase('tr') },
  'Turkish letters dropped': { kind: 'intact', make: (c) => (HAS_TURKISH.test(c.name) ? dropTurkish(c.name) : null) },
  'other legal form': { kind: 'intact', make: (c, r) => `${c.words.join(' ')} ${r.pick(LEGAL_FORMS.filter((l) => l !== c.legal))}` },
  'no legal form': { kind: 'intact', make: (c) => c.words.join(' ') },
  abbreviations: {
    kind: 'intact',
    make: (c) => {
      const short = ABBREVIATIONS.reduce((s, [re, abbr]) => s.replace(re, abbr), c.name);
      return short === c.name ? null : short;
    },
  },
  '& for ve': { kind: 'intact', make: (c) => (/ ve /.test(c.name) ? c.name.replace(/ ve /g, ' & ') : null) },
  'split word': { kind: 'intact', make: (c) => splitWord(c) },
  'word order': { kind: 'intact', make: (c) => (c.words.length < 2 ? null : `${[...c.words.slice(1), c.words[0]].join(' ')} ${c.legal}`) },
  'ASCII upper case (I)': { kind: 'intact', make: (c) => dropTurkish(c.name).toUpperCase() },
  'typo: substitution': { kind: 'damaged', make: (c, r) => typo(c, r, (w, i) => w.slice(0, i) + otherLetter(r, w[i]!) + w.slice(i + 1)) },
  'typo: deletion': { kind: 'damaged', make: (c, r) => typo(c, r, (w, i) => w.slice(0, i) + w.slice(i + 1)) },
  'typo: insertion': { kind: 'damaged', make: (c, r) => typo(c, r, (w, i) => w.slice(0, i) + r.pick([...LETTERS]) + w.slice(i)) },
  'typo: transposition': {
    kind: 'damaged',
    make: (c, r) => typo(c, r, (w, i) => (i + 1 < w.length && w[i] !== w[i + 1] ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : null)),
  },
  'words run together': {
    kind: 'damaged',
    make: (c, r) => {
      if (c.words.length < 2) return null;
      const i = r.int(c.words.length - 1);
      const words = [...c.words.slice(0, i), c.words[i]! + c.words[i + 1]!, ...c.words.slice(i + 2)];
      return `${words.join(' ')} ${c.legal}`;
    },
  },
  '? for Turkish letters': { kind: 'damaged', make: (c) => (HAS_TURKISH.test(c.name) ? c.name.replace(TURKISH_LETTERS, '?') : null) },
};

function otherLetter(r: Random, letter: string): string {
  const choices = [...LETTERS].filter((l) => toSearchKey(l) !== toSearchKey(letter));
  return r.pick(choices);
}

/** One letter changed in one significant word of 5+ letters (shorter words are rarely mistyped alone). */
function typo(c: QualityCompany, r: Random, change: (word: string, at: number) => string | null): string | null {
  const candidates = c.words.map((w, i) => ({ w, i })).filter(({ w }) => [...w].length >= 5 && !FILLER_WORDS.has(toSearchKey(w)));
  if (candidates.length === 0) return null;
  const { w, i } = r.pick(candidates);
  const chars = [...w];
  const changed = change(w, r.int(chars.length));
  if (changed === null || toSearchKey(changed) === toSearchKey(w)) return null;
  const words = c.words.map((x, j) => (j === i ? changed : x));
  return `${words.join(' ')} ${c.legal}`;
}

/** A word of 6+ letters cut in two parts of 3+ letters, neither a legal-form word. */
function splitWord(c: QualityCompany): string | null {
  const index = c.words.findIndex((w) => [...w].length >= 6);
  if (index < 0) return null;
  const w = c.words[index]!;
  for (let cut = Math.floor(w.length / 2); cut >= 3; cut--) {
    const [a, b] = [w.slice(0, cut), w.slice(cut)];
    if (b.length >= 3 && !FILLER_WORDS.has(toSearchKey(a)) && !FILLER_WORDS.has(toSearchKey(b))) {
      return `${[...c.words.slice(0, index), a, b, ...c.words.slice(index + 1)].join(' ')} ${c.legal}`;
    }
  }
  return null;
}
