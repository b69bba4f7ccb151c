/**
 * Company titles as Turkish trade registers hold them, for `risklookup generate`: most open with
 * a word of their own (a coined brand made of the syllables thousands of names share, a family
 * name, a place, an acronym), then one to five activity words, often `Sanayi ve Ticaret`, then the
 * legal form, in full or abbreviated, mostly in capitals. A name search on such data meets what it
 * meets in service: distinctive words whose every trigram is common. docs/benchmarks.md compares
 * the word and trigram frequencies with a list of real titles (scripts/bench/name-realism.ts).
 */
import type { Random } from './random.ts';
import {
  BRAND_ENDINGS,
  BRAND_SYLLABLES,
  MORE_ACTIVITIES,
  MORE_EXTRAS,
  MORE_FIRST_NAMES,
  MORE_PLACES,
  REGISTER_LEGAL_FORMS,
  SURNAME_HEADS,
  SURNAME_TAILS,
} from './name-parts.ts';
import { FAMILY_NAMES, FIRST_NAMES, PLACES, SECTORS } from './word-lists.ts';

/** Earlier entries likelier (a few family names, places and activities are everywhere). */
const skewed = <T>(r: Random, items: readonly T[]): T => items[Math.floor(items.length * r.next() ** 2)]!;

const capitalised = (word: string) => word[0]!.toLocaleUpperCase('tr') + word.slice(1);

/** A coined word: two or three syllables and an ending (`Aksan`, `Borutaş`), or first names run together (`Buraymertaş`). */
function brand(r: Random): string {
  if (r.chance(0.15)) return capitalised(`${r.pick(MORE_FIRST_NAMES)}${r.pick(MORE_FIRST_NAMES).toLocaleLowerCase('tr')}${r.pick(BRAND_ENDINGS)}`);
  const syllables = r.chance(0.65) ? 2 : 3;
  let word = '';
  for (let i = 0; i < syllables; i++) word += r.pick(BRAND_SYLLABLES);
  return capitalised(word + r.pick(BRAND_ENDINGS));
}

function familyName(r: Random): string {
  return r.chance(0.55) ? skewed(r, FAMILY_NAMES) : `${r.pick(SURNAME_HEADS)}${r.pick(SURNAME_TAILS)}`;
}

const place = (r: Random) => (r.chance(0.5) ? skewed(r, PLACES) : r.pick(MORE_PLACES));
const ACRONYM_LETTERS = 'ABCDEFGHIKLMNOPRSTUVYZ';

/** What a title opens with: the words that tell this company from others of its trade. */
function head(r: Random): string {
  const kind = r.weighted([
    ['brand', 42],
    ['brand and word', 8],
    ['family', 14],
    ['family suffix', 8],
    ['two persons', 7],
    ['place', 9],
    ['place family', 5],
    ['acronym', 7],
  ] as const);
  if (kind === 'brand') return brand(r);
  if (kind === 'brand and word') return `${brand(r)} ${r.chance(0.5) ? place(r) : brand(r)}`;
  if (kind === 'family') return familyName(r);
  if (kind === 'family suffix') return `${familyName(r)}${r.pick(['oğlu', 'oğulları', 'lar', 'ler', 'gil'])}`;
  if (kind === 'two persons') return r.chance(0.5) ? `${familyName(r)} ${familyName(r)}` : `${r.pick([...FIRST_NAMES, ...MORE_FIRST_NAMES])} ${familyName(r)}`;
  if (kind === 'place') return place(r);
  if (kind === 'place family') return `${place(r)} ${familyName(r)}`;
  return Array.from({ length: 2 + r.int(3) }, () => r.pick([...ACRONYM_LETTERS])).join('');
}

/** One to five activities, some followed by a word like `Yatırımları`. */
function activities(r: Random): string {
  const count = r.weighted([
    [1, 58],
    [2, 26],
    [3, 10],
    [4, 4],
    [5, 2],
  ] as const);
  const words = Array.from({ length: count }, () => (r.chance(0.45) ? skewed(r, SECTORS) : r.pick(MORE_ACTIVITIES)));
  if (r.chance(0.2)) words.push(r.pick(MORE_EXTRAS));
  return [...new Set(words)].join(' ');
}

/** A company title; sole proprietors are a person's name and a trade. */
export function companyTitle(r: Random, soleProprietor: boolean): string {
  const title = soleProprietor
    ? `${r.pick([...FIRST_NAMES, ...MORE_FIRST_NAMES])} ${familyName(r)} - ${activities(r)} ${r.pick(['Ticaret', 'Hizmetleri', 'Atölyesi', ''])}`.trim()
    : `${head(r)} ${activities(r)} ${r.pick(REGISTER_LEGAL_FORMS)}`;
  return r.chance(0.7) ? title.toLocaleUpperCase('tr') : title;
}
