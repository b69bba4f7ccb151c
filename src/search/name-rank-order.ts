/**
 * D8's order of matches computed in memory (the in-memory index's answers, visible-names.ts):
 * the same rank classes and ties as the SQL of companies/name-rank.ts, over the values the
 * index holds. Pure. Ties compare `name_core` in code-point order, which is SQLite's BINARY
 * and PostgreSQL's "C" collation (visible-names-keeper.ts checks the database's before use).
 */
import { wholeNameForms } from '../companies/name-rank.ts';
import type { NameMatch } from './visible-names.ts';

/** D8 rank class of `nameCore` for a query whose core is `core`: 0 the whole name, 1 another order, 2 a prefix, 3 the rest. */
export function rankClassOf(core: string): (nameCore: string) => number {
  const whole = new Set(wholeNameForms(core));
  const words = core.split(' ');
  // As reorderedCondition: only for 2+ distinct words; the same length and every word whole.
  const reorderable = words.length >= 2 && new Set(words).size === words.length;
  const length = [...core].length;
  return (nameCore) => {
    if (whole.has(nameCore)) return 0;
    if (reorderable && codePoints(nameCore) === length) {
      const padded = ` ${nameCore} `;
      if (words.every((w) => padded.includes(` ${w} `))) return 1;
    }
    return nameCore.startsWith(core) ? 2 : 3;
  };
}

/** Strings in code-point order (UTF-8 bytes' order), not UTF-16 units'. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Below the surrogates both orders agree; at or above them, compare whole code points.
    if (x < 0xd800 && y < 0xd800) return x - y;
    return a.codePointAt(i)! - b.codePointAt(i)! || x - y;
  }
  return a.length - b.length;
}

/**
 * The first `limit` of `matches` in D8 order: rank class, then more visible reports, then the
 * name, then the id. Selected, not sorted: a match that does not beat the last of those kept
 * costs one comparison (a word in 2,000 names sorted them all: 0.2 ms a query at 10^6).
 */
export function rankMatches<M extends NameMatch>(matches: readonly M[], core: string, limit: number): M[] {
  const classOf = rankClassOf(core);
  // The whole name's forms leave out spaces at most (wholeNameForms): none is shorter than this.
  const shortestWhole = core.length - (core.split(' ').length - 1);
  // Class 2 or 3 from the length and the prefix alone, where the match knows them without its
  // name (visible-names.ts): a name longer than the query's core can only be a prefix or not (the
  // whole name's forms and another order are as long or shorter), and one shorter than every
  // form of the whole name neither. Its name is then made only if a tie compares it.
  const quickClassOf = (m: M): number | undefined => {
    if (m.coreStartsWith === undefined) return undefined;
    const length = m.coreLength!;
    if (length > core.length) return m.coreStartsWith(core) ? 2 : 3;
    return length < shortestWhole ? 3 : undefined;
  };
  const kept: M[] = [];
  const ranks: number[] = [];
  if (limit <= 0) return kept;
  for (const m of matches) {
    const rank = quickClassOf(m) ?? classOf(m.nameCore);
    if (kept.length === limit && inD8Order(rank, m, ranks[limit - 1]!, kept[limit - 1]!) > 0) continue;
    // Where it goes among those kept (none of them equal: the ids differ).
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (inD8Order(ranks[mid]!, kept[mid]!, rank, m) < 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, m);
    ranks.splice(lo, 0, rank);
    if (kept.length > limit) {
      kept.pop();
      ranks.pop();
    }
  }
  return kept;
}

/** Negative when (rankA, a) comes before (rankB, b) in D8's order. */
function inD8Order(rankA: number, a: NameMatch, rankB: number, b: NameMatch): number {
  return rankA - rankB || b.visibleReportCount - a.visibleReportCount || compareCodePoints(a.nameCore, b.nameCore) || a.id - b.id;
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}
