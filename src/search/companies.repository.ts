import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { CompaniesTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { preparedQuery } from '../db/prepared.ts';

export type CompanyRow = Selectable<CompaniesTable>;

/** Companies under any of the canonical tax IDs (all countries), for the import's look-up. */
export async function findCompaniesByTaxIds(db: Db, taxIdNorms: readonly string[]): Promise<CompanyRow[]> {
  if (taxIdNorms.length === 0) return [];
  return db.selectFrom('companies').selectAll().where('tax_id_norm', 'in', taxIdNorms).execute();
}

export async function updateCompany(db: Db, id: number, changes: Updateable<CompaniesTable>): Promise<void> {
  await db.updateTable('companies').set(changes).where('id', '=', id).execute();
}

export async function countCompanies(db: Db): Promise<number> {
  const row = await db.selectFrom('companies').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NameSearch {
  /** Query words of 3+ characters: answered by the substring index. */
  indexedWords: string[];
  /** Shorter query words: checked on the rows the index found. */
  otherWords: string[];
  /** The query's words joined, compared with `name_core` for ranking (D8). */
  core: string;
  country: string | null;
  limit: number;
}

/**
 * The D8 name query, best first (D8, D10), as a builder so that tests can EXPLAIN exactly what
 * runs. Only companies with a visible report are candidates.
 */
export function nameSearchQuery(db: Db, seam: DialectSeam, search: NameSearch) {
  const coreLength = [...search.core].length;
  let query = db
    .selectFrom('companies')
    .selectAll()
    .where(seam.nameKeyContainsAll(search.indexedWords))
    .where('visible_report_count', '>', 0);
  for (const word of search.otherWords) query = query.where('name_key', 'like', `%${word}%`);
  // `country || ''` keeps both planners from answering the filter from an index on country:
  // nearly all companies share one country, so the name index must lead (checked in a test).
  if (search.country) query = query.where(sql<string>`country || ''`, '=', search.country);
  return query
    .orderBy(
      sql`CASE WHEN name_core = ${search.core} THEN 0 WHEN substr(name_core, 1, ${coreLength}) = ${search.core} THEN 1 ELSE 2 END`,
    )
    .orderBy('visible_report_count', 'desc')
    .orderBy('name_core')
    .orderBy('id')
    .limit(search.limit);
}

export async function findCompaniesByName(db: Db, seam: DialectSeam, search: NameSearch): Promise<CompanyRow[]> {
  return nameSearchQuery(db, seam, search).execute();
}

type TaxIdCandidate = { taxId: string; country: string | null };

/** Values: limit, then each candidate's tax ID and (when it has one) country. Shape: 'n'/'c' per candidate. */
const taxIdQuery = preparedQuery(
  (db, p, shape: string) => {
    let next = 1;
    const candidates = [...shape].map((kind) => ({ country: kind === 'c' ? '' : null }));
    return db
      .selectFrom('companies')
      .selectAll()
      .where((eb) =>
        eb.or(
          candidates.map((c) =>
            c.country === null
              ? eb('tax_id_norm', '=', p(next++))
              : eb.and([eb('tax_id_norm', '=', p(next++)), eb('country', '=', p(next++))]),
          ),
        ),
      )
      .where('visible_report_count', '>', 0)
      .orderBy('visible_report_count', 'desc')
      .orderBy('name_core')
      .orderBy('id')
      .limit(p(0));
  },
  (shape) => shape,
);

/** Companies with a visible report under any of the given canonical IDs (D9). */
export async function findCompaniesByTaxId(db: Db, candidates: readonly TaxIdCandidate[], limit: number): Promise<CompanyRow[]> {
  const values = [limit, ...candidates.flatMap((c) => (c.country === null ? [c.taxId] : [c.taxId, c.country]))];
  return taxIdQuery(db, values, candidates.map((c) => (c.country === null ? 'n' : 'c')).join(''));
}
