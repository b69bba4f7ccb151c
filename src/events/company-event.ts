/**
 * The `company.changed` event (D31) as members see it, in the feed and as a webhook's `data`
 * (D32): who the company is, its threat level and report count before and after, the kinds of
 * change, when, and the event's id. Never a report's content, a filing member or a description.
 */
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';

/** What changed for the watchers (D31): a report published or removed, a dispute opened or closed. */
export type CompanyChangeKind = 'report_published' | 'report_removed' | 'report_disputed' | 'dispute_closed';

export const COMPANY_CHANGED = 'company.changed';

export interface CompanyEventRow {
  id: number;
  country: string;
  tax_id_norm: string;
  threat_before: string | null;
  threat_after: string | null;
  count_before: number;
  count_after: number;
  kinds: string;
  occurred_at: number;
}

export interface CompanyEventView {
  id: string;
  type: typeof COMPANY_CHANGED;
  country: string;
  tax_id: string;
  threat_level: { before: 'normal' | 'high' | null; after: 'normal' | 'high' | null };
  report_count: { before: number; after: number };
  kinds: CompanyChangeKind[];
  /** Turkey time (D4). */
  occurred_at: string;
}

/** The public id, also the `webhook-id` (D32): `evt_` and the feed position. */
export const EVENT_ID_PREFIX = 'evt_';
export const eventIdOf = (id: number) => `${EVENT_ID_PREFIX}${id}`;

export function toEventView(row: CompanyEventRow): CompanyEventView {
  return {
    id: eventIdOf(Number(row.id)),
    type: COMPANY_CHANGED,
    country: row.country,
    tax_id: row.tax_id_norm,
    threat_level: { before: row.threat_before as 'normal' | 'high' | null, after: row.threat_after as 'normal' | 'high' | null },
    report_count: { before: Number(row.count_before), after: Number(row.count_after) },
    kinds: row.kinds === '' ? [] : (row.kinds.split(',') as CompanyChangeKind[]),
    occurred_at: formatTurkeyDateTime(Number(row.occurred_at)),
  };
}

/**
 * The feed's cursor (D31): opaque to members (base64url), stable (an event's position never
 * changes). `null` when the text is not a cursor this service gave out.
 */
export function encodeCursor(eventId: number): string {
  return Buffer.from(`c1:${eventId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null;
  const m = /^c1:(0|[1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) return null;
  const id = Number(m[1]);
  return Number.isSafeInteger(id) ? id : null;
}
