/**
 * PostgreSQL: a group commit (charge-batch.ts) as **one statement**, one round trip (issue 28,
 * branch taxhit28). As a transaction of its own statements a batch of k answers took 4 + k round
 * trips (BEGIN, k conditional increments, the audit INSERT, the lookups upsert, COMMIT), each a
 * wake-up of the driver and of a PostgreSQL backend; the node CPU of a cached tax-ID hit on
 * PostgreSQL was 3 × SQLite's.
 *
 * D18 stays exact, with the same outcome as the increments one after the other: the batch's units
 * of one (subject, day) are n requests in the batch's order; the statement locks the counter row
 * (`FOR UPDATE`, rows in (subject, day) order, as the increments did), reads its count `before`,
 * sets it to least(before + n, limit) and returns both, so the first `after − before` requests of
 * the group got a unit, the r-th the count before + r, the others none (429). The audit records
 * and the lookups of exactly those requests are inserted by the same statement (D21: the unit and
 * its record commit together, or neither does). A row locked by another process's batch is
 * waited for and read as that batch committed it (READ COMMITTED: `FOR UPDATE` returns the newest
 * version), so processes sharing the database stay exact too.
 *
 * Locks are taken in the old transaction's order, so batches of several processes never wait on
 * each other crosswise: every counter row of the batch first (the update waits for all of them to
 * be locked), then the lookups rows in (company, month) order.
 *
 * A (subject, day) with no counter row yet (a member's first answer of the day) is not handled
 * here: the caller takes those requests the old way (charge-batch.ts), an upsert per unit.
 */
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/types.ts';
import { KEEP_PREPARED } from '../db/prepared.ts';
import { lookupMonthOf } from '../disclosure/disclosure-view.ts';
import type { AuditEntry } from '../audit/audit.repository.ts';

/** One (subject, day) of a batch: its requests, in the batch's order. */
export interface ChargeGroup {
  subject: string;
  day: string;
  limit: number;
  /** Per request: its audit record and found companies, or undefined (nothing to store). */
  records: ReadonlyArray<{ entry: AuditEntry; foundCompanyIds: readonly number[] } | undefined>;
}

/** Per group: the count before and after, or null when the group has no counter row yet (not charged). */
export type GroupOutcome = { before: number; after: number } | null;

const STATEMENT = `${KEEP_PREPARED}WITH wanted AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS w(subject, day, lim, n)
), held AS MATERIALIZED (
  SELECT u.subject, u.day, u.used FROM usage_counters u JOIN wanted w ON w.subject = u.subject AND w.day = u.day
  ORDER BY u.subject, u.day FOR UPDATE OF u
), taken AS (
  UPDATE usage_counters u SET used = least(h.used + w.n, w.lim)
  FROM held h JOIN wanted w ON w.subject = h.subject AND w.day = h.day
  -- Every counter row of the batch locked before the first is updated, and so before any lookups
  -- row is (they come from this CTE's rows): the old transaction's lock order, whatever the plan.
  WHERE u.subject = h.subject AND u.day = h.day AND h.used < w.lim AND (SELECT count(*) FROM held) > 0
  RETURNING u.subject, u.day, h.used AS before, u.used AS after
), records AS (
  SELECT * FROM unnest($5::text[], $6::text[], $7::int[], $8::int[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[], $13::text[],
    $14::text[], $15::int[], $16::int[], $17::int[], $18::text[], $19::text[], $20::bigint[], $21::text[])
    AS r(subject, day, rank, pos, at, key_id, member_id, q, type, country, status, result_count, response_ms, client_address, channel, user_id, actor)
), stored AS (
  INSERT INTO audit_log (at, key_id, member_id, q, type, country, status, result_count, response_ms, client_address, channel, user_id, actor)
  SELECT r.at, r.key_id, r.member_id, r.q, r.type, r.country, r.status, r.result_count, r.response_ms, r.client_address, r.channel, r.user_id, r.actor
  FROM records r JOIN taken t ON t.subject = r.subject AND t.day = r.day
  WHERE r.rank <= t.after - t.before
  ORDER BY r.pos
), finds AS (
  SELECT * FROM unnest($22::text[], $23::text[], $24::int[], $25::bigint[], $26::text[]) AS f(subject, day, rank, company_id, month)
), counted AS (
  INSERT INTO company_lookups (company_id, month, lookups)
  SELECT f.company_id, f.month, count(*) FROM finds f JOIN taken t ON t.subject = f.subject AND t.day = f.day
  WHERE f.rank <= t.after - t.before
  GROUP BY f.company_id, f.month ORDER BY f.company_id, f.month
  ON CONFLICT (company_id, month) DO UPDATE SET lookups = company_lookups.lookups + excluded.lookups
)
SELECT w.subject, w.day, h.used AS held, t.before, t.after
FROM wanted w LEFT JOIN held h ON h.subject = w.subject AND h.day = w.day LEFT JOIN taken t ON t.subject = w.subject AND t.day = w.day`;

/**
 * Charges the groups (each (subject, day) at most once, limits > 0) and stores the records of the
 * requests that got a unit, in one statement (autocommit: committed when it returns). Returns each
 * group's outcome in the groups' order.
 */
export async function chargeGroupsInOneStatement(db: Db, groups: readonly ChargeGroup[]): Promise<GroupOutcome[]> {
  const w: unknown[][] = [[], [], [], []];
  const r: unknown[][] = Array.from({ length: 17 }, () => []);
  const f: unknown[][] = [[], [], [], [], []];
  let pos = 0;
  for (const g of groups) {
    w[0]!.push(g.subject);
    w[1]!.push(g.day);
    w[2]!.push(g.limit);
    w[3]!.push(g.records.length);
    g.records.forEach((record, i) => {
      pos++;
      if (!record) return;
      const e = record.entry;
      const row = [g.subject, g.day, i + 1, pos, e.at, e.key_id ?? null, e.member_id ?? null, e.q ?? null, e.type ?? null, e.country ?? null];
      row.push(e.status, e.result_count ?? null, e.response_ms, e.client_address, e.channel ?? 'api', e.user_id ?? null, e.actor ?? null);
      for (let c = 0; c < row.length; c++) r[c]!.push(row[c]);
      // A search's finds count once per company (lookup-counts.repository.ts).
      const month = lookupMonthOf(Number(e.at));
      for (const companyId of new Set(record.foundCompanyIds)) {
        f[0]!.push(g.subject);
        f[1]!.push(g.day);
        f[2]!.push(i + 1);
        f[3]!.push(companyId);
        f[4]!.push(month);
      }
    });
  }
  const result = await db.executeQuery<{ subject: string; day: string; held: number | null; before: number | null; after: number | null }>(
    CompiledQuery.raw(STATEMENT, [...w, ...r, ...f]),
  );
  const bySubjectDay = new Map(result.rows.map((row) => [`${row.subject}\u0000${row.day}`, row]));
  return groups.map((g) => {
    const row = bySubjectDay.get(`${g.subject}\u0000${g.day}`);
    if (!row || row.held === null) return null;
    // Held but used up: nothing taken (before = after).
    if (row.before === null || row.after === null) return { before: Number(row.held), after: Number(row.held) };
    return { before: Number(row.before), after: Number(row.after) };
  });
}
