/**
 * The rules of webhook endpoints (D32), pure: who may do what, what an endpoint's address and
 * description must be, what an event must be to be sent. The services call these; they call nothing.
 */
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import { DomainError } from '../lib/errors.ts';
import { stated, type StatedProblem } from '../lib/problems.ts';
import type { Actor } from '../actors/actor.ts';

/** At most this many endpoints per member (D32). */
export const MAX_ENDPOINTS_PER_MEMBER = 3;
/**
 * Registrations refused for their address, per member and quota day (D19): each refusal tells
 * that a name is not a public address, so a member_admin gets only so many a day (issue 30).
 */
export const REFUSED_ADDRESSES_PER_DAY = 20;
export const MAX_URL_CHARS = 2000;
export const MAX_DESCRIPTION_CHARS = 200;
/** Deliveries are kept, and listed, this long. */
export const DELIVERIES_KEPT_DAYS = 30;
/** After a rotation the previous secret signs too, this long. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/**
 * Who acts: the kinds of the one Actor (src/actors/actor.ts) that webhooks know: a member's user,
 * an operator, or a job of the service itself. The caller (a portal route, a job) has authenticated it.
 */
export type WebhookActor = Extract<Actor, { kind: 'member_user' | 'operator' | 'system' }>;

/**
 * Managing a member's endpoints (register, rotate, enable, delete, test, redeliver): its
 * member_admin only. Reading them (the lists): that admin, or an operator helping the member.
 * Another member's endpoint is "not found" (its existence is not told); a member_user of the
 * same member, an operator managing, or a job is refused.
 */
export function checkEndpointAccess(actor: WebhookActor, memberId: number, access: 'manage' | 'read', endpointId: number | null): void {
  if (actor.kind === 'member_user' && actor.memberId !== memberId) {
    if (endpointId !== null) throw endpointNotFound(endpointId);
    throw new DomainError('not_found', `there is no member with id ${memberId}`, { code: 'member.not_found_by_id', params: { id: memberId } });
  }
  if (actor.kind === 'member_user' && actor.role === 'member_admin') return;
  if (actor.kind === 'operator' && access === 'read') return;
  throw new DomainError('forbidden', "only the member's administrator manages its webhook endpoints", { code: 'webhook.admin_only' });
}

/** The member whose endpoints the actor manages (its member_admin's); refused for anyone else. */
export function managedMemberOf(actor: WebhookActor): { memberId: number; userId: number } {
  if (actor.kind === 'member_user' && actor.role === 'member_admin') return { memberId: actor.memberId, userId: actor.userId };
  throw new DomainError('forbidden', "only the member's administrator manages its webhook endpoints", { code: 'webhook.admin_only' });
}

export function endpointNotFound(id: number): DomainError {
  return new DomainError('not_found', `there is no endpoint ${id} of your member`, { code: 'webhook.endpoint_not_found', params: { id } });
}

/** The problems of an endpoint's address as typed; the parsed URL when there are none. */
export function checkEndpointUrl(raw: string): { url: URL } | { problems: StatedProblem[] } {
  const text = raw.trim();
  if (text.length > MAX_URL_CHARS)
    return { problems: [stated(`the address is longer than ${MAX_URL_CHARS} characters`, { code: 'webhook.url_too_long', params: { max: MAX_URL_CHARS } })] };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const value = text.slice(0, 100);
    return {
      problems: [stated(`'${value}' is not a web address such as https://hooks.example.com/risklookup`, { code: 'webhook.url_invalid', params: { value } })],
    };
  }
  const problems: StatedProblem[] = [];
  if (url.protocol !== 'https:')
    problems.push(stated('the address must start with https://: deliveries go over HTTPS only', { code: 'webhook.url_not_https' }));
  if (url.username || url.password)
    problems.push(stated('the address may not hold a user name or password: every delivery is signed instead', { code: 'webhook.url_credentials' }));
  if (url.hash || text.endsWith('#')) problems.push(stated('the address may not end with a # part: it is never sent', { code: 'webhook.url_fragment' }));
  return problems.length > 0 ? { problems } : { url };
}

/** The problems of a description (optional, one line). */
export function checkDescription(description: string): StatedProblem[] {
  const problems: StatedProblem[] = [];
  if (description.length > MAX_DESCRIPTION_CHARS) {
    problems.push(
      stated(`description is longer than ${MAX_DESCRIPTION_CHARS} characters`, {
        code: 'field.too_long',
        params: { field: 'description', max: MAX_DESCRIPTION_CHARS },
      }),
    );
  }
  // The one rule for free text (bidi controls too: they would reverse the portal's line around them).
  if (hasForbiddenCharacters(description)) {
    problems.push(
      stated('description may not hold control characters (line breaks and bidi controls included)', {
        code: 'field.control_characters',
        params: { field: 'description' },
      }),
    );
  }
  return problems;
}

/** What the outbox sends: one event of the service (D31), as Standard Webhooks' payload. */
export interface WebhookEvent {
  /** Stable id, the `webhook-id`: letters, digits, `_` and `-`, at most 64 (never a full stop). */
  readonly id: string;
  /** Full-stop delimited, `[a-z0-9_]` parts: `company.changed`. */
  readonly type: string;
  /** When the event happened (epoch milliseconds). */
  readonly occurredAt: number;
  /** The event's data, JSON. */
  readonly data: unknown;
}

/** Throws when an event the code built breaks the rules (a bug, never a user's input). */
export function checkEvent(event: WebhookEvent): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(event.id)) throw new Error(`a webhook event id is 1 to 64 letters, digits, _ or -, got '${event.id}'`);
  if (!/^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(event.type)) throw new Error(`a webhook event type is full-stop delimited [a-z0-9_] parts, got '${event.type}'`);
  if (!Number.isFinite(event.occurredAt)) throw new Error('a webhook event needs the time it happened');
}

/** The body of every attempt: `{"type","timestamp","data"}`, the timestamp in ISO 8601 UTC (as the specification's examples). */
export function payloadOf(event: WebhookEvent): string {
  return JSON.stringify({ type: event.type, timestamp: new Date(event.occurredAt).toISOString(), data: event.data });
}
