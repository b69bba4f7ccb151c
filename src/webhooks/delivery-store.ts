/**
 * Where the delivery worker's two frequent statements run: the claim of due deliveries and the
 * write of a batch of outcomes (deliveries.repository.ts). Two ways, one contract:
 *
 * - on the worker's own database handle, in the calling thread (SQLite, tests);
 * - on a PostgreSQL connection of the sending thread's own (attempt-sender.ts, `serve` on
 *   PostgreSQL): a statement's cost on the client side is mostly the kernel's work of sending it on
 *   the socket, which on a local connection does the receiving side's work too, and it was most of
 *   what a delivery cost the serving thread (issue 30: ~340 µs a delivery, 36 % of it `writev`
 *   to PostgreSQL's sockets). In the sending thread, which runs below the serving one, it waits
 *   for the cores while searches need them.
 *
 * SQLite keeps its statements in the serving thread: a second connection would be a second writer
 * on the file, and the searches' own writes (quota, audit) would then wait for its lock. Tried
 * (issue 30, docs/benchmarks.md, "SQLite's delivery statements on the sending thread's own
 * connection: measured, not kept"): the serving thread's CPU a delivery fell from ~120 to ~50 µs,
 * but the sending thread runs below the serving one, and holding the write lock it was left off
 * busy cores for up to a second: a serving commit waited out its limit and its search failed (503).
 *
 * What crosses to the thread is data: a claim's order names the per-endpoint bound and what is in
 * flight, from which the thread's claim works out each endpoint's room.
 */
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { Db } from '../db/types.ts';
import {
  claimDueDeliveries,
  writeOutcomes,
  type ClaimedDelivery,
  type ClaimRequest,
  type OutcomesWritten,
  type OutcomeWrite,
} from './deliveries.repository.ts';

/** How the sending thread's database sessions are named (pg_stat_activity's application_name). */
export const DELIVERY_THREAD_APPLICATION = 'risklookup-deliveries';

/** A claim's request as data. */
export interface ClaimOrder extends Omit<ClaimRequest, 'roomFor' | 'fullEndpoints'> {
  /** Attempts in flight at once to one endpoint, at most (DeliverySettings.perEndpoint). */
  readonly perEndpoint: number;
  /** This process's attempts in flight, per endpoint id. */
  readonly inFlight: ReadonlyArray<readonly [endpointId: number, attempts: number]>;
}

export interface DeliveryStore {
  claim(order: ClaimOrder): Promise<ClaimedDelivery[]>;
  write(outcomes: readonly OutcomeWrite[]): Promise<OutcomesWritten>;
}

/** The claim's request from its order: each endpoint's room is the bound less what is in flight to it. */
export function claimRequestOf(order: ClaimOrder): ClaimRequest {
  const { perEndpoint, inFlight, ...request } = order;
  const sending = new Map(inFlight);
  return {
    ...request,
    roomFor: (endpointId) => perEndpoint - (sending.get(endpointId) ?? 0),
    fullEndpoints: inFlight.filter(([, n]) => n >= perEndpoint).map(([id]) => id),
  };
}

/** The statements on this database handle, in the calling thread. */
export function databaseDeliveryStore(db: Db, seam: Pick<DialectSeam, 'claimRows' | 'kind'>): DeliveryStore {
  return {
    claim: (order) => claimDueDeliveries(db, seam, claimRequestOf(order)),
    write: (outcomes) => writeOutcomes(db, seam, outcomes),
  };
}
