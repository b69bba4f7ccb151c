/**
 * The seam through which every write that can change a search answer tells the watchers (D31).
 *
 * Call it inside the transaction of the change, after the change's own statements, with the
 * companies whose visible state may have changed. It compares what a search would now answer
 * about each company with the baseline stored for its watchers and writes one `company.changed`
 * event per watching member where the answer (threat level, report count) or the disputed flag
 * changed, then queues the webhook deliveries (webhooks/webhook-outbox.ts) in the same
 * transaction. A rolled-back change therefore writes no event, a committed one never loses it.
 *
 * `kinds` names changes the state diff cannot see by itself (a dispute opened or closed on a
 * report that stays visible); the rest (`report_published`, `report_removed`) come from the diff.
 *
 * Contract shared by the watchlist (issue 30), disputes and retention (issue 31); the body is the
 * watchlist branch's to write.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

export type CompanyChangeKind = 'report_published' | 'report_removed' | 'report_disputed' | 'dispute_closed';

export interface CompanyChange {
  readonly country: string;
  /** The normalised tax ID (companies.tax_id_norm). */
  readonly taxIdNorm: string;
  readonly kinds?: readonly CompanyChangeKind[];
}

/** Returns how many events were written. */
export type RecordCompanyChanges = (trx: Transaction<Database>, atMs: number, changes: readonly CompanyChange[]) => Promise<number>;

// Until the watchlist lands there are no watchers, so no change has anyone to tell.
export const recordCompanyChanges: RecordCompanyChanges = () => Promise.resolve(0);
