/**
 * Group commit of answered searches (issue 28): every unit taken in one turn of the event loop
 * (D18) and the audit records of the answers they pay for (D21, with their lookups, D34) are
 * written in one transaction, and each caller learns its outcome only once it has committed. The
 * answer leaves after that, so a process killed right after answering has counted and recorded it
 * (as durable as a commit: see audit-writer.ts).
 *
 * D18 stays exact: each unit is still its own conditional increment (usage.repository.ts), run one
 * after the other inside the transaction on the row the database locks (PostgreSQL) or under the
 * write lock (SQLite; there a run of three or more units of one subject is read once and raised
 * once, with the same outcome), so with R units left N requests get exactly min(N, R), within one
 * process and across several. The statements run in the order of their subjects, so two processes' batches
 * lock rows in the same order and never wait on each other crosswise; the lookups follow, in their
 * own fixed order (lookup-counts.repository.ts). A refused unit (429) stores nothing of its request;
 * a failed transaction fails every request of the batch, and none of them has taken anything.
 */
import { PostgresAdapter } from 'kysely';
import type { Db } from '../db/types.ts';
import { addLookups, type Lookup } from '../disclosure/lookup-counts.repository.ts';
import { insertAuditEntries, type AuditEntry } from '../audit/audit.repository.ts';
import { consumeUnitsUnderWriteLock, consumeUsage } from './usage.repository.ts';
import { chargeGroupsInOneStatement, type ChargeGroup } from './charge-statement.postgres.ts';

/** The audit record of an answer, stored with its unit. */
export interface ChargedRecord {
  entry: AuditEntry;
  /** The companies the answer held, counted as lookups (D34). */
  foundCompanyIds: readonly number[];
}

interface Charge {
  subject: string;
  day: string;
  limit: number;
  record: ChargedRecord | undefined;
  used: number | null;
  /** Set when this charge's own transaction failed (the others of its batch may have committed). */
  failed?: { error: unknown };
  resolve: (used: number | null) => void;
  reject: (error: unknown) => void;
}

export interface ChargeBatch {
  /** The new count, or null when the allowance is used up (then the record was not stored). */
  take(subject: string, day: string, limit: number, record?: ChargedRecord): Promise<number | null>;
}

/** At most this many units a transaction; more wait for the next. */
const MAX_BATCH = 200;

/**
 * From this many units of one (subject, day, limit) in a row, SQLite takes them in two statements
 * (a read and one increment under its write lock) rather than one conditional increment each
 * (~10 µs a statement: the second costliest of a cached hit's, docs/benchmarks.md).
 */
const UNITS_READ_ONCE_FROM = 3;

/** The charges, in the order given, as runs of the same subject, day and limit. */
function runsOf(charges: readonly Charge[]): Charge[][] {
  const runs: Charge[][] = [];
  for (const c of charges) {
    const last = runs.at(-1)?.[0];
    if (last && last.subject === c.subject && last.day === c.day && last.limit === c.limit) runs.at(-1)!.push(c);
    else runs.push([c]);
  }
  return runs;
}

export function createChargeBatch(db: Db): ChargeBatch {
  let queue: Charge[] = [];
  let scheduled = false;
  let inFlight = false;

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // The units in the order of their subjects (a stable sort: a subject's in the batch's order).
  // On SQLite a run of one subject's units is taken at once: the transaction holds the database's
  // only write lock from its BEGIN IMMEDIATE, so the count it reads is the one it raises.
  const storeInTransaction = async (batch: Charge[]): Promise<void> => {
    const ordered = [...batch].sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
    await db.transaction().execute(async (trx) => {
      for (const run of runsOf(ordered)) {
        const first = run[0]!;
        if (postgres || run.length < UNITS_READ_ONCE_FROM) {
          for (const charge of run) charge.used = await consumeUsage(trx, charge.subject, charge.day, charge.limit);
          continue;
        }
        const { before, taken } = await consumeUnitsUnderWriteLock(trx, first.subject, first.day, first.limit, run.length);
        run.forEach((charge, i) => (charge.used = i < taken ? before + i + 1 : null));
      }
      const stored = batch.filter((c) => c.used !== null && c.record);
      if (stored.length === 0) return;
      await insertAuditEntries(
        trx,
        stored.map((c) => c.record!.entry),
      );
      const lookups: Lookup[] = stored
        .filter((c) => c.record!.foundCompanyIds.length > 0)
        .map((c) => ({ at: Number(c.record!.entry.at), companyIds: c.record!.foundCompanyIds }));
      if (lookups.length > 0) await addLookups(trx, lookups);
    });
  };

  // PostgreSQL: the batch as one statement, one round trip (charge-statement.postgres.ts); the
  // groups it cannot take (no counter row yet, or limits that differ within the group) the old way
  // after it. Each charge learns its own outcome: one committed by the statement stays committed
  // when the transaction after it fails.
  const storeInOneStatement = async (batch: Charge[]): Promise<void> => {
    const bySubjectDay = new Map<string, Charge[]>();
    for (const c of batch) {
      const key = `${c.subject}\u0000${c.day}`;
      const group = bySubjectDay.get(key);
      if (group) group.push(c);
      else bySubjectDay.set(key, [c]);
    }
    const groups: Charge[][] = [];
    let rest: Charge[] = [];
    for (const group of bySubjectDay.values()) {
      if (group.every((c) => c.limit === group[0]!.limit)) groups.push(group);
      else rest.push(...group);
    }
    if (groups.length > 0) {
      const toCharge: ChargeGroup[] = groups.map((g) => ({ subject: g[0]!.subject, day: g[0]!.day, limit: g[0]!.limit, records: g.map((c) => c.record) }));
      const outcomes = await chargeGroupsInOneStatement(db, toCharge);
      outcomes.forEach((outcome, i) => {
        const group = groups[i]!;
        if (outcome === null) {
          rest = rest.concat(group);
          return;
        }
        group.forEach((c, r) => (c.used = r + 1 <= outcome.after - outcome.before ? outcome.before + r + 1 : null));
      });
    }
    if (rest.length === 0) return;
    try {
      await storeInTransaction(rest);
    } catch (error) {
      for (const c of rest) c.failed = { error };
    }
  };

  const store = postgres ? storeInOneStatement : storeInTransaction;

  const run = (): void => {
    scheduled = false;
    if (inFlight || queue.length === 0) return;
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    inFlight = true;
    store(batch)
      .then(
        () => {
          for (const c of batch) {
            if (c.failed) c.reject(c.failed.error);
            else c.resolve(c.used);
          }
        },
        (error: unknown) => {
          for (const c of batch) c.reject(error);
        },
      )
      .finally(() => {
        inFlight = false;
        schedule();
      });
  };

  // setImmediate: after this turn's I/O callbacks, so the answers made ready in it share the commit.
  // While a batch is being stored, the next one gathers.
  const schedule = (): void => {
    if (scheduled || inFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(run);
  };

  return {
    take(subject, day, limit, record) {
      if (limit <= 0) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        queue.push({ subject, day, limit, record, used: null, resolve, reject });
        schedule();
      });
    },
  };
}
