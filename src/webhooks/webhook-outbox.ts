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
import { insertDeliveries } from './deliveries.repository.ts';
import { enabledEndpointsOfMembers } from './endpoints.repository.ts';
import { checkEvent, payloadOf, type WebhookEvent } from './webhook-rules.ts';

export interface MemberEvent {
  readonly memberId: number;
  readonly event: WebhookEvent;
}

export interface WebhookOutbox {
  /** Queues `event` for every enabled endpoint of the member; returns how many deliveries. */
  enqueueForMember(trx: Transaction<Database>, memberId: number, event: WebhookEvent): Promise<number>;
  /** The same for many members at once (a change many members watch): a few statements, not one per member. */
  enqueueForMembers(trx: Transaction<Database>, events: readonly MemberEvent[]): Promise<number>;
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
  };
  return outbox;
}
