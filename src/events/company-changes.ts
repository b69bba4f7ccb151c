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
import { companyStandings, NO_STANDING } from '../search/search.service.ts';
import { createWebhookOutbox } from '../webhooks/webhook-outbox.ts';
import { COMPANY_CHANGED, EVENT_ID_PREFIX, toEventView, type CompanyChangeKind, type CompanyEventRow } from './company-event.ts';
import { insertEventsForWatchers, lastEventId, lockFeedHead, updateBaseline, watchedAmong, watchKey } from './events.repository.ts';

export type { CompanyChangeKind } from './company-event.ts';

export interface CompanyChange {
  readonly country: string;
  /** The normalised tax ID (companies.tax_id_norm). */
  readonly taxIdNorm: string;
  readonly kinds?: readonly CompanyChangeKind[];
}

/** Returns how many events were written. */
export type RecordCompanyChanges = (trx: Transaction<Database>, atMs: number, changes: readonly CompanyChange[]) => Promise<number>;

/**
 * Tells the watchers: takes the feed's head (lockFeedHead: ids in commit order, no new baseline
 * beside this change), reads the baselines of the watched companies among `changes`, computes
 * what a search answers now (companyStandings, the search's own rules), and for each company whose
 * visible reports changed, or with `kinds` given, moves the baseline and writes one event per
 * watching member (one INSERT … SELECT) and its webhook deliveries (the outbox, same transaction).
 */
export const recordCompanyChanges: RecordCompanyChanges = async (trx, atMs, changes) => {
  if (changes.length === 0) return 0;
  const given = new Map<string, { country: string; taxIdNorm: string; kinds: Set<CompanyChangeKind> }>();
  for (const c of changes) {
    const key = watchKey(c.country, c.taxIdNorm);
    const entry = given.get(key) ?? { country: c.country, taxIdNorm: c.taxIdNorm, kinds: new Set<CompanyChangeKind>() };
    for (const k of c.kinds ?? []) entry.kinds.add(k);
    given.set(key, entry);
  }
  await lockFeedHead(trx, atMs);
  const baselines = await watchedAmong(trx, [...given.values()]);
  if (baselines.length === 0) return 0;
  const standings = await companyStandings(
    trx,
    baselines.map((b) => ({ country: b.country, taxIdNorm: b.tax_id_norm })),
  );
  const outbox = createWebhookOutbox({ clock: { now: () => atMs } });
  let written = 0;
  let afterEventId = await lastEventId(trx);
  for (const before of baselines) {
    const key = watchKey(before.country, before.tax_id_norm);
    const now = standings.get(key) ?? NO_STANDING;
    const kinds = changeKinds(idsOf(before.visible_ids), now.visibleIds, given.get(key)!.kinds);
    if (kinds.length === 0) continue;
    await updateBaseline(
      trx,
      {
        country: before.country,
        tax_id_norm: before.tax_id_norm,
        threat_level: now.threatLevel,
        report_count: now.reportCount,
        visible_ids: now.visibleIds.join(','),
      },
      atMs,
    );
    const event: Omit<CompanyEventRow, 'id'> = {
      country: before.country,
      tax_id_norm: before.tax_id_norm,
      threat_before: before.threat_level,
      threat_after: now.threatLevel,
      count_before: Number(before.report_count),
      count_after: now.reportCount,
      kinds: kinds.join(','),
      occurred_at: atMs,
    };
    const count = await insertEventsForWatchers(trx, event);
    if (count === 0) continue;
    written += count;
    // The events just written are those after the previous last id (the feed's head is held);
    // their deliveries are made from them by the database, one statement however many watch.
    const last = await lastEventId(trx);
    await outbox.enqueueEventRange(trx, {
      afterEventId,
      lastEventId: last,
      webhookIdPrefix: EVENT_ID_PREFIX,
      eventOf: (id) => {
        const data = { ...toEventView({ ...event, id: 0 }), id };
        return { id, type: COMPANY_CHANGED, occurredAt: atMs, data };
      },
    });
    afterEventId = last;
  }
  if (written === 0) return 0;
  await lockFeedHead(trx, atMs, written);
  return written;
};

const ALL_KINDS: readonly CompanyChangeKind[] = ['report_published', 'report_removed', 'report_disputed', 'dispute_closed'];

/** The kinds of a change: reports that became visible, that stopped being visible, and those the caller names; in one fixed order. */
export function changeKinds(before: readonly number[], after: readonly number[], named: ReadonlySet<CompanyChangeKind>): CompanyChangeKind[] {
  const was = new Set(before);
  const is = new Set(after);
  const found = new Set(named);
  if (after.some((id) => !was.has(id))) found.add('report_published');
  if (before.some((id) => !is.has(id))) found.add('report_removed');
  return ALL_KINDS.filter((k) => found.has(k));
}

const idsOf = (text: string) => (text === '' ? [] : text.split(',').map(Number));

/** The seam for writers that know a company by its id (moderation, the CLI's status step). */
export async function recordCompanyChangeById(
  trx: Transaction<Database>,
  atMs: number,
  companyId: number,
  kinds?: readonly CompanyChangeKind[],
): Promise<number> {
  const company = await trx.selectFrom('companies').select(['country', 'tax_id_norm']).where('id', '=', companyId).executeTakeFirst();
  if (!company) return 0;
  return recordCompanyChanges(trx, atMs, [{ country: company.country, taxIdNorm: company.tax_id_norm, ...(kinds ? { kinds } : {}) }]);
}
