/**
 * The D8 rank order, written once: the rank classes in SQL (the whole name, the same words in
 * another order, a prefix, the rest), the ties within a class, and the name lists that let the
 * name search look the first two classes up by equality. The rank index of migration 0002 holds
 * the companies in the tie order (frozen there as history; a change here needs a new migration).
 */
import { sql } from 'kysely';

/**
 * D8 ties within a rank class, and the whole order where there is no class (tax-ID search, the
 * rank-index walk): more visible reports first, then the name, then the id.
 */
export const RANK_TIES = sql`visible_report_count DESC, name_core, id`;

/** RANK_TIES with the columns of `companies` named in full, for a query that joins it. */
export const RANK_TIES_OF_COMPANIES = sql`companies.visible_report_count DESC, companies.name_core, companies.id`;

/** D8 rank class: 0 the whole name, 1 the same words in another order, 2 a prefix, 3 the rest. */
export const RANK_CLASS = (core: string) => {
  const reordered = reorderedCondition(core);
  return sql`CASE WHEN name_core IN (${sql.join(wholeNameForms(core))}) THEN 0 ${reordered ? sql`WHEN ${reordered} THEN 1 ` : sql``}WHEN substr(name_core, 1, ${[...core].length}) = ${core} THEN 2 ELSE 3 END`;
};

/**
 * The names that count as the whole name (D8 rank class 0): the query's words, with any of the
 * spaces between them left out (`yük sel otomotiv` is `yüksel otomotiv`: a word split in two
 * when typed). Up to 6 words (32 forms); beyond, the query itself.
 */
export function wholeNameForms(core: string): string[] {
  const words = core.split(' ');
  if (words.length > 6) return [core];
  let forms = [words[0]!];
  for (const word of words.slice(1)) forms = forms.flatMap((f) => [`${f} ${word}`, `${f}${word}`]);
  return forms;
}

/**
 * Holds when `name_core` is made of the query's words in another order (D8); null when the
 * query has one word, or a word twice (then only the whole name ranks above prefixes). With
 * distinct words, the same length and every word whole in the name leave room for nothing else.
 */
export function reorderedCondition(core: string) {
  const words = core.split(' ');
  if (words.length < 2 || new Set(words).size < words.length) return null;
  const parts = words.map((w) => sql`(' ' || name_core || ' ') LIKE ${`% ${w} %`}`);
  return sql<boolean>`(length(name_core) = ${[...core].length} AND ${sql.join(parts, sql` AND `)})`;
}

/** Every order of the query's words but its own (rank class 1); null beyond 5 words (720 orders). */
export function otherOrders(core: string): string[] | null {
  const words = core.split(' ');
  if (words.length < 2 || new Set(words).size < words.length) return [];
  if (words.length > 5) return null;
  const orders = (rest: string[]): string[][] =>
    rest.length <= 1 ? [rest] : rest.flatMap((w, i) => orders(rest.filter((_, j) => j !== i)).map((o) => [w, ...o]));
  return orders(words)
    .map((o) => o.join(' '))
    .filter((o) => o !== core);
}
