/**
 * Where events become deliveries (D31, D32): called inside the transaction that writes the
 * event, so a delivery exists exactly when its event was committed (none for a change rolled
 * back, none lost for one committed). One delivery per enabled endpoint of the member; an
 * endpoint disabled now gets none (the feed, D31, keeps every event). Idempotent: the same event
 * id for the same endpoint is queued once.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { insertDeliveries, insertDeliveriesForEvents } from './deliveries.repository.ts';
import { enabledEndpointsOfMembers } from './endpoints.repository.ts';
import { checkEvent, payloadOf, type WebhookEvent } from './webhook-rules.ts';

export interface MemberEvent {
  readonly memberId: number;
  readonly event: WebhookEvent;
}

/**
 * Events written by one statement for many members (a change many watch), alike but for their
 * ids: those in (afterEventId, lastEventId] of `company_events`; `eventOf` makes any one of them
 * from its id (its `webhook-id`, `webhookIdPrefix` and the row's id, is also the data's `id`).
 */
export interface EventRange {
  readonly afterEventId: number;
  readonly lastEventId: number;
  readonly webhookIdPrefix: string;
  readonly eventOf: (webhookId: string) => WebhookEvent;
}

export interface WebhookOutbox {
  /** Queues `event` for every enabled endpoint of the member; returns how many deliveries. */
  enqueueForMember(trx: Transaction<Database>, memberId: number, event: WebhookEvent): Promise<number>;
  /** The same for many members at once (a change many members watch): a few statements, not one per member. */
  enqueueForMembers(trx: Transaction<Database>, events: readonly MemberEvent[]): Promise<number>;
  /**
   * The same for a range of stored events (EventRange), in one INSERT … SELECT: each body is
   * exactly `payloadOf(eventOf(id))`, made by the database from one template cut at the id.
   */
  enqueueEventRange(trx: Transaction<Database>, range: EventRange): Promise<number>;
}

export function createWebhookOutbox(deps: { clock: Clock }): WebhookOutbox {
  const outbox: WebhookOutbox = {
    enqueueForMember: (trx, memberId, event) => outbox.enqueueForMembers(trx, [{ memberId, event }]),
    async enqueueForMembers(trx, events) {
      for (const { event } of events) checkEvent(event);
      const endpoints = await enabledEndpointsOfMembers(trx, [...new Set(events.map((e) => e.memberId))]);
      const now = deps.clock.now();
      const rows = events.flatMap(({ memberId, event }) => {
        const payload = payloadOf(event);
        return (endpoints.get(memberId) ?? []).map((endpointId) => ({
          endpoint_id: endpointId,
          webhook_id: event.id,
          event_type: event.type,
          payload,
          state: 'pending' as const,
          next_attempt_at: now,
          created_at: now,
        }));
      });
      return rows.length === 0 ? 0 : insertDeliveries(trx, rows);
    },
    async enqueueEventRange(trx, range) {
      if (range.lastEventId <= range.afterEventId) return 0;
      // A stand-in id; the template is refused unless it appears exactly once in the body.
      const marker = 'RANGE_ID_MARKER';
      const sample = range.eventOf(range.webhookIdPrefix + marker);
      checkEvent(sample);
      const parts = payloadOf(sample).split(range.webhookIdPrefix + marker);
      if (parts.length !== 2 || sample.id !== range.webhookIdPrefix + marker)
        throw new Error('an event of a range holds its id exactly once in its body, as its id');
      return insertDeliveriesForEvents(trx, {
        afterEventId: range.afterEventId,
        lastEventId: range.lastEventId,
        webhookIdPrefix: range.webhookIdPrefix,
        eventType: sample.type,
        payloadBefore: parts[0]! + range.webhookIdPrefix,
        payloadAfter: parts[1]!,
        now: deps.clock.now(),
      });
    },
  };
  return outbox;
}
