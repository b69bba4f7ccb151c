/**
 * Where the delivery worker's two frequent statements run: the claim of due deliveries and the
 * write of a batch of outcomes (deliveries.repository.ts). Two ways, one contract:
 *
 * - on the worker's own database handle, in the calling thread (tests);
 * - on a connection of the sending thread's own (attempt-sender.ts, what `serve` does). On
 *   PostgreSQL a statement's cost on the client side is mostly the kernel's work of sending it on
 *   the socket, which on a local connection does the receiving side's work too, and it was most of
 *   what a delivery cost the serving thread (issue 30: ~340 µs a delivery, 36 % of it `writev`
 *   to PostgreSQL's sockets). On SQLite the statements themselves ran on the serving thread's
 *   event loop (~0.4–0.6 ms each, up to 32 deliveries a claim), blocking it; on the thread's
 *   connection they hold the file's write lock instead, and a group commit of the serving thread
 *   that meets it waits between turns (db/sqlite-yield-when-busy.ts) while requests go on being
 *   read and answered. Measured (10,000 deliveries to a local receiver, docs/benchmarks.md): the
 *   serving thread's CPU a delivery 117–123 µs → 50–51 µs, the process's 572–609 → 640–688 µs
 *   (the thread's own connection and page cache). In the sending thread, which runs below the
 *   serving one, the statements wait for the cores while searches need them.
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
