/**
 * What members send, for `npm run bench` (issue 28): queries drawn from the bench database's own
 * companies, each kind from companies of its own, every query distinct (by the words a search
 * looks for: two queries that differ only in a legal form or letter case are one), so that no
 * request of a run is answered from the search cache or finds its pages warm from a twin.
 */
import { sql } from 'kysely';
import type { Db } from '../../src/db/types.ts';
import { vknCheckDigit } from '../../src/generate/check-digits.ts';
import { REGISTER_LEGAL_FORMS } from '../../src/generate/name-parts.ts';
import { LEGAL_FORMS } from '../../src/generate/word-lists.ts';
import { seededRandom, type Random } from '../../src/generate/random.ts';
import { parseNameQuery } from '../../src/companies/name-key.ts';

export const FRESH_KINDS = ['distinctive word', 'whole name', 'other legal form', 'two words', 'misspelt name', 'tax-ID hit', 'tax-ID miss'] as const;
export type FreshKind = (typeof FRESH_KINDS)[number];

type Company = { id: number; company_name: string; name_core: string; tax_id_norm: string };

/** D7: q is at most 100 characters. */
const MAX_Q = 100;
const ALL_LEGAL_FORMS = [...new Set([...REGISTER_LEGAL_FORMS, ...LEGAL_FORMS])].sort((a, b) => b.length - a.length);
const LETTERS = [...'abcçdefgğhıijklmnoöprsştuüvyz'];

/** Companies at random ids (one statement per 5,000), each once. */
async function sampleCompanies(db: Db, count: number, r: Random): Promise<Company[]> {
  const { rows } = await sql<{ lo: number; hi: number }>`SELECT MIN(id) AS lo, MAX(id) AS hi FROM companies`.execute(db);
  const lo = Number(rows[0]!.lo);
  const hi = Number(rows[0]!.hi);
  const ids = new Set<number>();
  while (ids.size < Math.min(count, hi - lo + 1)) ids.add(lo + r.int(hi - lo + 1));
  const all = [...ids];
  const out: Company[] = [];
  for (let i = 0; i < all.length; i += 5000) {
    const found = await db
      .selectFrom('companies')
      .select(['id', 'company_name', 'name_core', 'tax_id_norm'])
      .where('id', 'in', all.slice(i, i + 5000))
      .execute();
    out.push(...found.map((c) => ({ ...c, id: Number(c.id) })));
  }
  // The database's order would group them by id: shuffle, deterministically.
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** One or two letters substituted, deleted, inserted or swapped in `word`. */
function misspell(word: string, r: Random): string {
  let chars = [...word];
  for (let edits = r.chance(0.7) ? 1 : 2; edits > 0; edits--) {
    const at = r.int(chars.length);
    const kind = r.int(4);
    if (kind === 0) chars[at] = r.pick(LETTERS.filter((l) => l !== chars[at]));
    else if (kind === 1 && chars.length > 4) chars.splice(at, 1);
    else if (kind === 2) chars.splice(at, 0, r.pick(LETTERS));
    else if (at + 1 < chars.length) chars = [...chars.slice(0, at), chars[at + 1]!, chars[at]!, ...chars.slice(at + 2)];
    else chars[at] = r.pick(LETTERS.filter((l) => l !== chars[at]));
  }
  return chars.join('');
}

/** The query of `kind` for one company, or null when the company has none (a one-word name has no two words). */
function nameQuery(kind: FreshKind, c: Company, wordNames: Map<string, number>, r: Random): string | null {
  const words = c.name_core.split(' ').filter(Boolean);
  const long = words.filter((w) => [...w].length >= 3);
  // The word the fewest sampled names hold; the longest among equals.
  const distinctive = long.reduce<string | null>(
    (best, w) =>
      best === null ||
      (wordNames.get(w) ?? 0) < (wordNames.get(best) ?? 0) ||
      ((wordNames.get(w) ?? 0) === (wordNames.get(best) ?? 0) && w.length > best.length)
        ? w
        : best,
    null,
  );
  switch (kind) {
    case 'distinctive word':
      return distinctive;
    case 'whole name':
      return c.company_name;
    case 'other legal form': {
      const upper = c.company_name.toLocaleUpperCase('tr');
      const form = ALL_LEGAL_FORMS.find((f) => upper.endsWith(` ${f.toLocaleUpperCase('tr')}`));
      const stem = form ? c.company_name.slice(0, c.company_name.length - form.length).trim() : c.company_name;
      return `${stem} ${r.pick(ALL_LEGAL_FORMS.filter((f) => f !== form))}`;
    }
    case 'two words': {
      if (words.length < 2) return null;
      const second = 1 + r.int(words.length - 1);
      return `${words[0]} ${words[second]}`;
    }
    case 'misspelt name': {
      const target = distinctive !== null && [...distinctive].length >= 5 ? distinctive : long.find((w) => [...w].length >= 5);
      if (!target) return null;
      const wrong = misspell(target, r);
      return words.map((w) => (w === target ? wrong : w)).join(' ');
    }
    default:
      return null;
  }
}

export interface FreshPools {
  /** Per kind: distinct request paths, in the order they are to be sent. */
  paths: Record<FreshKind, string[]>;
  /** Per kind: the words each query was made from were those of this many sampled companies. */
  sampled: number;
}

/**
 * Up to `perKind` distinct queries of every kind, each kind from its own companies. `taken`
 * holds what earlier pools of the run used (the search's words or the tax ID) and is added to.
 */
export async function buildFreshPools(db: Db, perKind: number, taken: Set<string>, seed = 28): Promise<FreshPools> {
  const r = seededRandom(seed);
  const companies = await sampleCompanies(db, perKind * FRESH_KINDS.length, r);
  const wordNames = new Map<string, number>();
  for (const c of companies) for (const w of new Set(c.name_core.split(' '))) wordNames.set(w, (wordNames.get(w) ?? 0) + 1);
  const paths = Object.fromEntries(FRESH_KINDS.map((k) => [k, [] as string[]])) as Record<FreshKind, string[]>;
  const share = Math.floor(companies.length / FRESH_KINDS.length);
  for (const [k, kind] of FRESH_KINDS.entries()) {
    for (const c of companies.slice(k * share, (k + 1) * share)) {
      if (kind === 'tax-ID hit') {
        if (!taken.has(`tax ${c.tax_id_norm}`)) {
          taken.add(`tax ${c.tax_id_norm}`);
          paths[kind].push(`/api/v1/search.php?type=tax_id&country=TR&q=${c.tax_id_norm}`);
        }
        continue;
      }
      if (kind === 'tax-ID miss') continue;
      const q = nameQuery(kind, c, wordNames, r)?.replace(/\s+/g, ' ').trim();
      if (!q || q.length > MAX_Q || q.length < 3) continue;
      const parsed = parseNameQuery(q);
      if (!parsed.ok || taken.has(`name ${parsed.core}`)) continue;
      taken.add(`name ${parsed.core}`);
      paths[kind].push(`/api/v1/search.php?q=${encodeURIComponent(q)}`);
    }
  }
  paths['tax-ID miss'] = await taxIdMisses(db, share, taken, r);
  return { paths, sampled: share };
}

/** Valid VKNs (check digit right) that no company has. */
export async function taxIdMisses(db: Db, count: number, taken: Set<string>, r: Random): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const batch = Array.from({ length: 5000 }, () => {
      const stem = String(r.int(1_000_000_000)).padStart(9, '0');
      return stem + vknCheckDigit(stem);
    }).filter((id) => !taken.has(`tax ${id}`));
    const known = new Set((await db.selectFrom('companies').select('tax_id_norm').where('tax_id_norm', 'in', batch).execute()).map((c) => c.tax_id_norm));
    for (const id of batch) {
      if (known.has(id) || taken.has(`tax ${id}`) || out.length >= count) continue;
      taken.add(`tax ${id}`);
      out.push(`/api/v1/search.php?type=tax_id&country=TR&q=${id}`);
    }
  }
  return out;
}

/** Connection i's mix: every kind, one or two of them five times as often as the rest, different per connection. */
export function connectionMix(connection: number): Array<[FreshKind, number]> {
  const n = FRESH_KINDS.length;
  return FRESH_KINDS.map((kind, k) => [kind, 1 + (k === connection % n ? 4 : 0) + (k === (connection * 3 + 2) % n ? 4 : 0)]);
}

/** For each of `connections`, paths drawn by its mix from the pools (each path used once across all). */
export function mixedPaths(pools: Record<FreshKind, string[]>, connections: number, perConnection: number, seed = 29): string[][] {
  const r = seededRandom(seed);
  const next = Object.fromEntries(FRESH_KINDS.map((k) => [k, 0])) as Record<FreshKind, number>;
  return Array.from({ length: connections }, (_, i) => {
    const mix = connectionMix(i);
    const out: string[] = [];
    for (let j = 0; j < perConnection; j++) {
      // A kind used up: the next one in the list that has paths left.
      const chosen = FRESH_KINDS.indexOf(r.weighted(mix));
      const kind = [...FRESH_KINDS.slice(chosen), ...FRESH_KINDS.slice(0, chosen)].find((k) => next[k] < pools[k].length);
      if (kind === undefined) break;
      out.push(pools[kind][next[kind]++]!);
    }
    return out;
  });
}
