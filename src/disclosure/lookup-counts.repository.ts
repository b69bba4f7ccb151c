/**
 * Lookups per company and Turkey month (D34's disclosure: "per month of the last 12, how many
 * lookups found it"). The audit log (D21) cannot answer it: it keeps a search's query, not which
 * companies its answer held, and a name search finds several. So every audited search that found
 * companies adds one to each company's count of its month, beside the audit records it is
 * written with (audit-writer.ts: one statement per batch, not per search). No member, key or user
 * is kept here: only how many.
 */
import type { Db } from '../db/types.ts';
import { lookupMonthOf } from './disclosure-view.ts';
import { powerOfTwoRuns, preparedQuery } from '../db/prepared.ts';

/** One search's finds: when, and which companies its results held. */
export interface Lookup {
  readonly at: number;
  readonly companyIds: readonly number[];
}

/**
 * Adds the lookups, summed per (company, month) first: one upsert for the whole batch, in a fixed
 * order (company, month) so that two processes' batches lock rows in the same order on PostgreSQL.
 */
export async function addLookups(db: Db, lookups: readonly Lookup[]): Promise<void> {
  const counts = new Map<string, { company_id: number; month: string; lookups: number }>();
  for (const lookup of lookups) {
    const month = lookupMonthOf(lookup.at);
    for (const companyId of new Set(lookup.companyIds)) {
      const key = `${companyId}/${month}`;
      const entry = counts.get(key);
      if (entry) entry.lookups++;
      else counts.set(key, { company_id: companyId, month, lookups: 1 });
    }
  }
  if (counts.size === 0) return;
  const rows = [...counts.values()].sort((a, b) => a.company_id - b.company_id || (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
  // Kept prepared per run of a power-of-two length (the batch's shape), in the rows' order.
  for (const run of powerOfTwoRuns(rows))
    await addQuery(
      db,
      run.flatMap((r) => [r.company_id, r.month, r.lookups]),
      run.length,
    );
}

const addQuery = preparedQuery(
  (db, p, rows: number) =>
    db
      .insertInto('company_lookups')
      .values(Array.from({ length: rows }, (_, r) => ({ company_id: p(3 * r), month: p(3 * r + 1), lookups: p(3 * r + 2) })))
      .onConflict((oc) =>
        oc.columns(['company_id', 'month']).doUpdateSet((eb) => ({ lookups: eb('company_lookups.lookups', '+', eb.ref('excluded.lookups')) })),
      ),
  (rows) => String(rows),
);

/** A company's counts from `fromMonth` (`YYYY-MM`) on. */
export async function listLookups(db: Db, companyId: number, fromMonth: string): Promise<Array<{ month: string; count: number }>> {
  const rows = await db
    .selectFrom('company_lookups')
    .select(['month', 'lookups'])
    .where('company_id', '=', companyId)
    .where('month', '>=', fromMonth)
    .orderBy('month')
    .execute();
  return rows.map((r) => ({ month: r.month, count: Number(r.lookups) }));
}
