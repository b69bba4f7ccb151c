/**
 * An endpoint's deliveries (D32), the use cases the portal calls: send a test event, redeliver
 * one message, list the last 30 days. `(actor, input)`; what the actor may do is
 * webhook-rules.ts's to say.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { findDelivery, insertDeliveries, listDeliveriesOfEndpoint, restartDelivery, type DeliveryRow } from './deliveries.repository.ts';
import { findEndpoint, type EndpointRow } from './endpoints.repository.ts';
import { webhookManualSendsSubject } from '../quota/allowance.ts';
import { consumeUsage, releaseUsage } from '../quota/usage.repository.ts';
import { quotaDayOf } from '../lib/turkey-time.ts';
import { checkEndpointAccess, DELIVERIES_KEPT_DAYS, endpointNotFound, payloadOf, type WebhookActor } from './webhook-rules.ts';
import type { Db } from '../db/types.ts';

/** What the portal shows of a delivery. */
export interface DeliveryView {
  readonly id: number;
  readonly endpointId: number;
  /** The `webhook-id`: the receiver's idempotency key. */
  readonly webhookId: string;
  readonly eventType: string;
  readonly state: 'pending' | 'delivering' | 'succeeded' | 'failed';
  readonly attempts: number;
  /** The last answer's HTTP status; null when there was none (no answer, not tried yet). */
  readonly lastStatus: number | null;
  /** What went wrong last, in words. */
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly lastAttemptAt: number | null;
  /** When the next attempt is due; null once finished. */
  readonly nextAttemptAt: number | null;
}

export const TEST_EVENT_TYPE = 'webhook.test';
/**
 * Test events and redeliveries a member may ask for in one quota day (D19), all its endpoints
 * together. Each one makes this service send up to 10 requests (D32's retries) to an address the
 * member chose: without a cap the portal is an unlimited request sender (found by the attack
 * round). Real events are not counted.
 */
export const MANUAL_SENDS_PER_DAY = 20;
const DAY_MS = 86_400_000;

function viewOf(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    webhookId: row.webhook_id,
    eventType: row.event_type,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.state === 'pending' || row.state === 'delivering' ? row.next_attempt_at : null,
  };
}

function requireEnabled(endpoint: EndpointRow): void {
  if (endpoint.status !== 'enabled') {
    throw new DomainError('conflict', `endpoint ${endpoint.id} is disabled: enable it first`, {
      code: 'webhook.endpoint_disabled',
      params: { id: endpoint.id },
    });
  }
}

/** Takes one of the member's manual sends of the day, or refuses (409, in words). Returns the day taken from. */
async function takeManualSend(db: Db, memberId: number, now: number): Promise<string> {
  const day = quotaDayOf(now);
  if ((await consumeUsage(db, webhookManualSendsSubject(memberId), day, MANUAL_SENDS_PER_DAY)) === null) {
    throw new DomainError(
      'conflict',
      `at most ${MANUAL_SENDS_PER_DAY} test events and redeliveries a day for all your endpoints together: try again after midnight Turkey time`,
      { code: 'webhook.manual_sends_used_up', params: { max: MANUAL_SENDS_PER_DAY } },
    );
  }
  return day;
}

export function createWebhookDeliveries(deps: { readonly db: Db; readonly clock: Clock }) {
  async function endpointFor(actor: WebhookActor, id: number, access: 'manage' | 'read'): Promise<EndpointRow> {
    const endpoint = await findEndpoint(deps.db, id);
    if (!endpoint) throw endpointNotFound(id);
    checkEndpointAccess(actor, endpoint.member_id, access, id);
    return endpoint;
  }

  return {
    /** Queues a `webhook.test` event for this endpoint only; returns its delivery. */
    async sendTestEvent(actor: WebhookActor, input: { endpointId: number }): Promise<{ deliveryId: number; webhookId: string }> {
      const endpoint = await endpointFor(actor, input.endpointId, 'manage');
      requireEnabled(endpoint);
      const now = deps.clock.now();
      await takeManualSend(deps.db, endpoint.member_id, now);
      const webhookId = `msg_test_${randomBytes(12).toString('base64url')}`;
      const payload = payloadOf({
        id: webhookId,
        type: TEST_EVENT_TYPE,
        occurredAt: now,
        data: { endpoint_id: endpoint.id, message: 'A test event from risklookup: nothing has changed.' },
      });
      await insertDeliveries(deps.db, [
        { endpoint_id: endpoint.id, webhook_id: webhookId, event_type: TEST_EVENT_TYPE, payload, state: 'pending', next_attempt_at: now, created_at: now },
      ]);
      const row = await deps.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpoint.id)
        .where('webhook_id', '=', webhookId)
        .executeTakeFirstOrThrow();
      return { deliveryId: Number(row.id), webhookId };
    },

    /** Sends one message again, same `webhook-id` and body, with a fresh retry schedule. */
    async redeliver(actor: WebhookActor, input: { deliveryId: number }): Promise<DeliveryView> {
      const delivery = await findDelivery(deps.db, input.deliveryId);
      const notFound = () =>
        new DomainError('not_found', `there is no delivery ${input.deliveryId} to your endpoints`, {
          code: 'webhook.delivery_not_found',
          params: { id: input.deliveryId },
        });
      if (!delivery) throw notFound();
      let endpoint: EndpointRow;
      try {
        endpoint = await endpointFor(actor, delivery.endpoint_id, 'manage');
      } catch (error) {
        // Another member's delivery is not told apart from none.
        throw error instanceof DomainError && error.kind === 'not_found' ? notFound() : error;
      }
      requireEnabled(endpoint);
      const day = await takeManualSend(deps.db, endpoint.member_id, deps.clock.now());
      if (!(await restartDelivery(deps.db, delivery.id, deps.clock.now()))) {
        await releaseUsage(deps.db, webhookManualSendsSubject(endpoint.member_id), day);
        throw new DomainError('conflict', `delivery ${delivery.id} is being sent right now: wait for its outcome`, {
          code: 'webhook.delivery_in_progress',
          params: { id: delivery.id },
        });
      }
      return viewOf((await findDelivery(deps.db, delivery.id))!);
    },

    /** The endpoint's deliveries of the last 30 days, newest first; `beforeId` pages back. */
    async listDeliveries(actor: WebhookActor, input: { endpointId: number; limit?: number; beforeId?: number }): Promise<DeliveryView[]> {
      const endpoint = await endpointFor(actor, input.endpointId, 'read');
      const limit = Math.min(Math.max(input.limit ?? 50, 1), 100);
      const since = deps.clock.now() - DELIVERIES_KEPT_DAYS * DAY_MS;
      return (await listDeliveriesOfEndpoint(deps.db, endpoint.id, since, limit, input.beforeId ?? null)).map(viewOf);
    },
  };
}

export type WebhookDeliveries = ReturnType<typeof createWebhookDeliveries>;
