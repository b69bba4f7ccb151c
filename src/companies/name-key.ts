/**
 * Name search keys (D8). Pure: the same function reduces company names when they are stored
 * and queries when they arrive, so the two always agree.
 */
import type { Problem } from '../lib/problems.ts';

/** Legal-form and filler words, as they look after reduction to a key (D8: one place). */
export const FILLER_WORDS: ReadonlySet<string> = new Set([
  // Türkiye: A.Ş. (→ "a s"), Ltd. Şti., Koll. Şti., Kom. Şti., San. ve Tic. ...
  'a',
  's',
  'as',
  'ltd',
  'sti',
  'limited',
  'sirketi',
  'sirket',
  'anonim',
  'koll',
  'kollektif',
  'kom',
  'komandit',
  'san',
  'sanayi',
  'sanayii',
  'tic',
  'ticaret',
  've',
  'ith',
  'ihr',
  'ithalat',
  'ihracat',
  // Elsewhere
  'and',
  'the',
  'of',
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'co',
  'llc',
  'inc',
  'corp',
  'corporation',
  'company',
  'plc',
  'llp',
  'lp',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'oy',
  'oyj',
  'ltda',
  'sro',
  'doo',
  'ooo',
]);

const TURKISH_FOLD: Record<string, string> = {
  İ: 'i',
  I: 'i',
  ı: 'i',
  i: 'i',
  Ş: 's',
  ş: 's',
  Ğ: 'g',
  ğ: 'g',
  Ç: 'c',
  ç: 'c',
  Ö: 'o',
  ö: 'o',
  Ü: 'u',
  ü: 'u',
  Â: 'a',
  â: 'a',
  Î: 'i',
  î: 'i',
  Û: 'u',
  û: 'u',
};

/**
 * Turkish-aware lower case with diacritics folded, punctuation to space, spaces collapsed:
 * `İSTANBUL Çelik A.Ş.` → `istanbul celik a s`. `%`, `_`, `*`, `?` are punctuation here, so
 * they can never act as wildcards.
 */
export function toSearchKey(text: string): string {
  return toSearchKeyFast(text) ?? toSearchKeyFull(text);
}

function toSearchKeyFull(text: string): string {
  return text
    .replace(/[İIıiŞşĞğÇçÖöÜüÂâÎîÛû]/g, (c) => TURKISH_FOLD[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The same result as the full path for text made only of ASCII and the Turkish letters — nearly
 * every name — without Unicode normalisation; null for anything else. (A test compares both
 * paths on every character in that range.)
 */
function toSearchKeyFast(text: string): string | null {
  let out = '';
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let ch: string | undefined;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) ch = text[i];
    else if (code >= 65 && code <= 90) ch = code === 73 ? 'i' : String.fromCharCode(code + 32);
    else if (code < 128) {
      pendingSpace = out !== '';
      continue;
    } else {
      ch = TURKISH_FOLD[text[i]!];
      if (ch === undefined) return null;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += ch;
  }
  return out;
}

/** The key's words without legal-form and filler words. */
export function significantWords(key: string): string[] {
  return key.split(' ').filter((w) => w !== '' && !FILLER_WORDS.has(w));
}

/** The company name's key for ranking: its significant words, in order (`name_core`). */
export function toCoreKey(name: string): string {
  return coreOfKey(toSearchKey(name));
}

/** `name_core` from an already reduced key. */
export function coreOfKey(key: string): string {
  return significantWords(key).join(' ');
}

export type NameQuery = { ok: true; words: string[]; core: string } | { ok: false; message: string; problem: Problem };

/** Reduces a query to the words every matching company must contain (D8). */
export function parseNameQuery(q: string): NameQuery {
  const words = [...new Set(significantWords(toSearchKey(q)))];
  if (!words.some((w) => w.length >= 3)) {
    return {
      ok: false,
      message:
        `q is too generic: after dropping legal forms and punctuation, '${q}' has no word of 3 or more ` +
        `letters. Add a distinctive part of the company name`,
      problem: { code: 'search.too_generic', params: { q } },
    };
  }
  return { ok: true, words, core: significantWords(toSearchKey(q)).join(' ') };
}
