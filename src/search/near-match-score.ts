/**
 * Near matches (D25), the pure part: which substrings a company name must hold to be worth
 * scoring, and how close a name is to a query that matched nothing. No I/O.
 *
 * The score is a fuzzy form of D8's own rule: D8 wants every query word as a substring of the
 * name; a near match wants every query word as a substring *up to a letter or two* (restricted
 * Damerau-Levenshtein against the best substring: one letter wrong, missing, extra or two
 * swapped; a missing space, for words run together, is one missing letter). Two failure modes
 * of token scores are designed out:
 * - generic words (LOJİSTİK, NAKLİYAT, İNŞAAT…) weigh less, and every word must stay within
 *   its edit budget, so a name that shares only its sector word with the query never scores;
 * - saturation: a near match is never a D8 match, so it always has an edit and is shown at
 *   most 0.99, never 1.00.
 */
import { significantWords, toSearchKey } from '../companies/name-key.ts';

/** Near matches scoring below this are not shown; measured with `npm run bench:quality` (docs/benchmarks.md). */
export const DEFAULT_NEAR_MATCH_THRESHOLD = 0.7;

/** Stands for a `?` in the query (an ERP export's lost Turkish letter): a letter of its own. */
export const LOST_LETTER = 'ǂ';
/** What a lost letter most likely was, after folding (ç ğ ı/i ö ş ü → c g i o s u). */
const FOLDED_TURKISH = new Set(['c', 'g', 'i', 'o', 's', 'u']);
const LOST_LETTER_COST = 0.2;

/** Sector and trade words many companies share: a match on them says little (weight below). */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'lojistik',
  'nakliyat',
  'nakliye',
  'tasimacilik',
  'insaat',
  'taahhut',
  'gida',
  'tekstil',
  'otomotiv',
  'turizm',
  'enerji',
  'elektrik',
  'elektronik',
  'makina',
  'makine',
  'metal',
  'demir',
  'celik',
  'plastik',
  'kimya',
  'mobilya',
  'tarim',
  'hayvancilik',
  'madencilik',
  'maden',
  'petrol',
  'akaryakit',
  'yapi',
  'malzemeleri',
  'malzeme',
  'emlak',
  'pazarlama',
  'dis',
  'ic',
  'danismanlik',
  'hizmetleri',
  'hizmet',
  'yatirim',
  'holding',
  'grup',
  'group',
  'ambalaj',
  'kagit',
  'matbaa',
  'medikal',
  'saglik',
  'ilac',
  'kozmetik',
  'bilisim',
  'yazilim',
  'teknoloji',
  'muhendislik',
  'mimarlik',
  'dekorasyon',
  'cam',
  'seramik',
  'orman',
  'urunleri',
  'uretim',
  'dagitim',
  'tekstil',
  'konfeksiyon',
  'hali',
  'deri',
  'ayakkabi',
  'kuyumculuk',
  'mucevherat',
  'sigorta',
  'finans',
  'egitim',
  'reklam',
  'organizasyon',
  'guvenlik',
  'temizlik',
  'catering',
  'yemek',
  'unlu',
  'mamulleri',
  'sut',
  'et',
  'tavukculuk',
  'depolama',
  'gumruk',
  'mermer',
  'aluminyum',
  'dokum',
  'boya',
  'kargo',
  'kurye',
  'gemi',
  'denizcilik',
  'havacilik',
  'global',
  'uluslararasi',
  'endustri',
  'sistemleri',
  'proje',
  'soguk',
  'zincir',
  'hazir',
  'giyim',
  'pamuk',
  'iplik',
  'kereste',
  'hirdavat',
  'kirtasiye',
  'zeytinyagi',
  'kuruyemis',
  'yem',
  'un',
  'su',
  'tur',
  'ticaret',
  'pazarlama',
]);
const GENERIC_WEIGHT = 0.4;

/** The query's words for near matching: D8's key and filler rule, but a `?` kept as a letter. */
export function nearQueryWords(q: string): string[] {
  return [...new Set(significantWords(toSearchKey(q.replaceAll('?', LOST_LETTER))))];
}

/**
 * Edits a query word may carry and still count as found (D25: one or two letters). A word of 3
 * letters with an edit is any other word, and a generic word two edits away is often another
 * word (`elektronik`, `elektrik`).
 */
export function editBudget(word: string): number {
  const length = [...word].length;
  const budget = length < 4 ? 0 : length < 9 ? 1 : 2;
  return GENERIC_WORDS.has(word) ? Math.min(1, budget) : budget;
}

/**
 * Which substrings a name must hold to be scored, for one way of damaging the query: every
 * piece of `all`, and the pieces of at least one list in `any` (none: `all` alone).
 */
export interface NearMatchGroup {
  all: string[];
  any: string[][];
  /**
   * A misspelt word's corrections (correctedGroup), each the whole name words it stands for:
   * a name that can score holds one of them as words, not only as substrings (the word index
   * may look them up: search/near-matches.repository.ts).
   */
  corrections?: string[][];
}

/**
 * The candidates' pieces when the word at `misspelt` is the one damaged (D25: one word), or any
 * word when `misspelt` is null. A word with one edit at position p keeps `word[0,p)` and
 * `word[p+2,n)` intact (substitution, insertion, deletion or a swap); the other words stay
 * whole. Pieces under 3 letters cannot be looked up in a trigram index and are left out.
 */
export function nearMatchGroups(words: readonly string[], misspelt: number | null = null): NearMatchGroup[] {
  const intact = words.map(intactPieces);
  const groups: NearMatchGroup[] = [];
  if (words.some((w) => w.includes(LOST_LETTER))) groups.push({ all: unique(intact.flat()), any: [] });
  words.forEach((word, i) => {
    if (word.includes(LOST_LETTER) || (misspelt !== null && i !== misspelt) || editBudget(word) === 0) return;
    const chars = [...word];
    const any = new Map<string, string[]>();
    let bare = false;
    for (let p = 0; p + 1 < chars.length; p++) {
      const pieces = unique([chars.slice(0, p).join(''), chars.slice(p + 2).join('')].filter((s) => [...s].length >= 3));
      if (pieces.length > 0) any.set(pieces.join(' '), pieces);
      else bare = true;
    }
    // An edit that leaves no piece of 3 letters (mid-word in a short word): the others alone.
    groups.push({ all: unique(intact.filter((_, j) => j !== i).flat()), any: bare ? [] : dropImplied([...any.values()]) });
  });
  return groups.filter((g) => g.all.length > 0 || g.any.length > 0);
}

/**
 * The candidates' pieces when the word at `misspelt` was one edit from each of `corrections`
 * (each the words of a run of whole name words, search/near-match-words.ts): a correction's
 * words and the other words whole. As in nearMatchGroups, pieces under 3 letters are left out.
 */
export function correctedGroup(words: readonly string[], misspelt: number, corrections: readonly (readonly string[])[]): NearMatchGroup[] {
  const all = unique(words.filter((_, j) => j !== misspelt).flatMap(intactPieces));
  const lists = corrections.map((c) => unique(c.filter((s) => [...s].length >= 3)));
  const any = lists.some((l) => l.length === 0) ? [] : dropImplied([...new Map(lists.map((l) => [l.join(' '), l])).values()]);
  if (corrections.length === 0 || (all.length === 0 && any.length === 0)) return [];
  return [{ all, any, corrections: [...new Map(corrections.map((c) => [c.join(' '), [...c]])).values()] }];
}

const unique = (pieces: string[]) => [...new Set(pieces)].sort();

/** Lists that hold another list's every piece as a substring add no candidate: dropped. */
function dropImplied(lists: string[][]): string[][] {
  const implies = (a: string[], b: string[]) => b.every((piece) => a.some((x) => x.includes(piece)));
  return lists.filter((a, i) => !lists.some((b, j) => j !== i && implies(a, b) && (!implies(b, a) || j < i)));
}

/** A word as it must occur when undamaged: itself, or the runs between its lost letters. */
function intactPieces(word: string): string[] {
  return word.split(LOST_LETTER).filter((s) => [...s].length >= 3);
}

function substitutionCost(queryChar: string, nameChar: string): number {
  if (queryChar === nameChar) return 0;
  return queryChar === LOST_LETTER && FOLDED_TURKISH.has(nameChar) ? LOST_LETTER_COST : 1;
}

/**
 * The fewest edits that turn `word` into some substring of `text` (restricted
 * Damerau-Levenshtein); the substring starts and ends anywhere, or with `wholeWords` only where
 * words of `text` start and end.
 */
export function substringEditDistance(word: readonly string[], text: ArrayLike<string>, wholeWords = false, cutoff = Infinity): number {
  const m = word.length;
  const n = text.length;
  // Three rows, reused across calls (scoring 1,000 candidates allocated 3,000 arrays).
  if (rows.length < 3 * (n + 1)) rows = new Float64Array(6 * (n + 1));
  let prev2 = 0;
  let prev = n + 1;
  let row = 2 * (n + 1);
  // Before the first query letter: free at a start the substring may have, else one edit a
  // letter skipped since the last such start (a whole word that begins with an extra letter).
  rows[prev] = rows[prev2] = 0;
  for (let j = 1; j <= n; j++) rows[prev + j] = rows[prev2 + j] = !wholeWords || text[j - 1] === ' ' ? 0 : rows[prev + j - 1]! + 1;
  let prevBest = 0;
  for (let i = 1; i <= m; i++) {
    rows[row] = i;
    const q = word[i - 1]!;
    let rowBest = i;
    for (let j = 1; j <= n; j++) {
      const t = text[j - 1]!;
      let best = Math.min(rows[prev + j]! + 1, rows[row + j - 1]! + 1, rows[prev + j - 1]! + (q === t ? 0 : substitutionCost(q, t)));
      if (i > 1 && j > 1 && q === text[j - 2] && word[i - 2] === t && rows[prev2 + j - 2]! + 1 < best) best = rows[prev2 + j - 2]! + 1;
      rows[row + j] = best;
      if (best < rowBest) rowBest = best;
    }
    // Two rows above the cutoff: no later row can come back under it (a swap reaches back two).
    if (rowBest > cutoff && i > 1 && prevBest > cutoff) return Infinity;
    prevBest = rowBest;
    [prev2, prev, row] = [prev, row, prev2];
  }
  let best = Infinity;
  for (let j = 0; j <= n; j++) if ((!wholeWords || j === n || text[j] === ' ') && rows[prev + j]! < best) best = rows[prev + j]!;
  return best;
}
let rows = new Float64Array(256);

/**
 * Whether `text` may hold `word` within `budget` edits, as whole words (substringEditDistance's
 * `wholeWords`): false only when it cannot. That distance is the least over the runs of `text`
 * from a word's start to a word's end (a run may span several words, for words run together) of
 * the edits between the word and the run, and an edit changes a run's length by at most one and
 * its letters (as a multiset) by at most one removed and one added: a run whose length differs
 * from the word's by more than the budget, or that lacks more of the word's letters or holds more
 * letters the word has not, is out of reach. O(1) a letter, no allocation; most near-match
 * candidates are ruled out here, before the quadratic distance (docs/benchmarks.md). Letters are
 * counted by their code modulo LETTER_BUCKETS: two letters in one bucket only make the bound weaker.
 */
function mayHoldWithin(m: number, letterCounts: Uint16Array, text: ArrayLike<string>, budget: number): boolean {
  const n = text.length;
  const counts = runCounts;
  for (let s = 0; s < n; s++) {
    if (s > 0 && text[s - 1] !== ' ') continue;
    let missing = m;
    let extra = 0;
    const last = Math.min(n, s + m + budget);
    for (let e = s; e < last; e++) {
      const bucket = text[e]!.charCodeAt(0) % LETTER_BUCKETS;
      if (counts[bucket]! < letterCounts[bucket]!) missing--;
      else extra++;
      counts[bucket]!++;
      const length = e + 1 - s;
      if ((e + 1 === n || text[e + 1] === ' ') && length >= m - budget && missing <= budget && extra <= budget) {
        clearCounts(text, s, e + 1);
        return true;
      }
    }
    clearCounts(text, s, last);
  }
  return false;
}
/**
 * mayHoldWithin for a word given as a string (its own tests'). Only for a budget below the word's
 * length, as editBudget gives: it never considers an empty run of the name.
 */
export function mayHoldWordWithin(word: string, text: ArrayLike<string>, budget: number): boolean {
  return mayHoldWithin([...word].length, letterCountsOf([...word]), text, budget);
}
function letterCountsOf(chars: readonly string[]): Uint16Array {
  const counts = new Uint16Array(LETTER_BUCKETS);
  for (const c of chars) counts[c.charCodeAt(0) % LETTER_BUCKETS]!++;
  return counts;
}
const LETTER_BUCKETS = 64;
const runCounts = new Uint16Array(LETTER_BUCKETS);
function clearCounts(text: ArrayLike<string>, from: number, to: number): void {
  for (let i = from; i < to; i++) runCounts[text[i]!.charCodeAt(0) % LETTER_BUCKETS] = 0;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** A query word with what scoring it against every candidate needs, made once a query. */
interface WordOfQuery {
  readonly word: string;
  readonly chars: readonly string[];
  readonly budget: number;
  readonly weight: number;
  /** Its letters counted by bucket (mayHoldWithin); null when it holds a lost letter, whose edit costs less than one. */
  readonly letterCounts: Uint16Array | null;
}

function wordOfQuery(word: string): WordOfQuery {
  const chars = [...word];
  const letterCounts = word.includes(LOST_LETTER) ? null : letterCountsOf(chars);
  return { word, chars, budget: editBudget(word), weight: chars.length * (GENERIC_WORDS.has(word) ? GENERIC_WEIGHT : 1), letterCounts };
}

/**
 * A query word's edits against the name: none when it occurs as it is (D8 would match it);
 * otherwise against whole name words, so that a misspelt word is not found by chance inside
 * another (`canler` in `yalçınler`, `karaca` in `karataş`). Beyond the budget: some number above it.
 */
function wordDistance(word: WordOfQuery, nameCore: string, text: ArrayLike<string>): number {
  if (nameCore.includes(word.word)) return 0;
  if (word.letterCounts !== null && !mayHoldWithin(word.chars.length, word.letterCounts, text, word.budget)) return Infinity;
  return substringEditDistance(word.chars, text, true, word.budget);
}

/**
 * How close `nameCore` (a company's `name_core`) is to the query words, 0–1, or null when some
 * word is beyond its edit budget, more than one word is misspelt, or none has an edit (that is a
 * D8 match, not a near match).
 * Mostly how well the name holds the query's words (generic words weigh less), a little how
 * much of the name the query covers, so the company named in full ranks above longer names.
 */
export function scoreNearMatch(words: readonly string[], nameCore: string): number | null {
  return nearMatchScorer(words)(nameCore);
}

/** scoreNearMatch for one query's words, against many names: what depends on the words alone is done once. */
export function nearMatchScorer(words: readonly string[]): (nameCore: string) => number | null {
  const prepared = words.map(wordOfQuery);
  return (nameCore) => {
    // A name's letters one a place: the string itself unless it holds a letter outside the BMP
    // (two code units; nearly never), which saves an array a candidate.
    const text: ArrayLike<string> = SURROGATE.test(nameCore) ? [...nameCore] : nameCore;
    let weighted = 0;
    let weights = 0;
    let edits = 0;
    let damagedWords = 0;
    let letters = 0;
    for (const word of prepared) {
      const distance = wordDistance(word, nameCore, text);
      if (distance > word.budget) return null;
      // One misspelt word (D25); lost letters (`?`) alone do not make a word misspelt.
      if (distance >= 1 && ++damagedWords > 1) return null;
      weighted += word.weight * (1 - distance / word.chars.length);
      weights += word.weight;
      edits += distance;
      letters += word.chars.length;
    }
    if (edits === 0 || weights === 0) return null;
    let nameLetters = 0;
    for (let i = 0; i < text.length; i++) if (text[i] !== ' ') nameLetters++;
    const coverage = Math.min(1, letters / Math.max(1, nameLetters));
    return (weighted / weights) * (0.8 + 0.2 * coverage);
  };
}

/** The similarity as shown: two decimals, and never 1.00 for a name that is not a match. */
export function shownSimilarity(score: number): number {
  return Math.min(0.99, Math.round(score * 100) / 100);
}
