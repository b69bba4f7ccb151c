/**
 * A member's webhook endpoints (D32), the use cases the portal calls: register (HTTPS, public
 * addresses, at most 3, the secret returned once), rotate the secret (the previous one signs too
 * for 24 h), enable again, delete, list. Each takes `(actor, input)` and decides what the actor
 * may do (webhook-rules.ts); secrets are sealed under the key ring, bound to the endpoint's row,
 * before they are stored (D35, src/secrets/secret-columns.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import type { StatedProblem } from '../lib/problems.ts';
import { lockMemberRow } from '../members/members.repository.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { sealColumn, WEBHOOK_SECRET } from '../secrets/secret-columns.ts';
import {
  countEndpointsOfMember,
  deleteEndpoint,
  findEndpoint,
  findEndpointOfMemberByUrl,
  insertEndpointSealed,
  listEndpointsOfMember,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointRow,
} from './endpoints.repository.ts';
import { AddressRefusedError, allowedAddresses, type AddressRule } from './safe-lookup.ts';
import { newSigningSecret } from './signature.ts';
import { webhookRefusedAddressesSubject } from '../quota/allowance.ts';
import { consumeUsage, releaseUsage } from '../quota/usage.repository.ts';
import { formatTurkeyDateTime, nextQuotaResetSeconds, quotaDayOf } from '../lib/turkey-time.ts';
import {
  checkDescription,
  checkEndpointAccess,
  checkEndpointUrl,
  endpointNotFound,
  managedMemberOf,
  MAX_ENDPOINTS_PER_MEMBER,
  PREVIOUS_SECRET_VALID_MS,
  REFUSED_ADDRESSES_PER_DAY,
  type WebhookActor,
} from './webhook-rules.ts';

/** What the portal shows of an endpoint: never its secret. */
export interface EndpointView {
  readonly id: number;
  readonly memberId: number;
  readonly url: string;
  readonly description: string;
  readonly status: 'enabled' | 'disabled';
  /** Why it was disabled, in words (410 Gone, the last retry failed), and when. */
  readonly disabledReason: string | null;
  readonly disabledAt: number | null;
  /** After a rotation: until when the previous secret still signs. */
  readonly previousSecretValidUntil: number | null;
  readonly createdAt: number;
}

export interface EndpointsDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** D35: seals the signing secrets (the ring's newest key). */
  readonly keyRing: Pick<KeyRing, 'seal'>;
  readonly addresses: AddressRule;
}

function viewOf(row: EndpointRow, now: number): EndpointView {
  const previousValid = row.previous_secret_until !== null && row.previous_secret_until > now;
  return {
    id: row.id,
    memberId: row.member_id,
    url: row.url,
    description: row.description,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    previousSecretValidUntil: previousValid ? row.previous_secret_until : null,
    createdAt: row.created_at,
  };
}

/**
 * D32's address rule, at registration and on enabling: every address of the host must be public.
 * One answer for a private address and for none (addressRefusedMessage): no address, no range.
 */
async function checkAddresses(url: URL, rule: AddressRule): Promise<void> {
  try {
    await allowedAddresses(url.hostname, rule);
  } catch (error) {
    if (!(error instanceof AddressRefusedError)) throw error;
    throw new DomainError('invalid', error.message, { code: 'webhook.address_refused', params: { host: error.host } });
  }
}

/**
 * Runs `check` (the address rule) with one of the member's refusals of the day reserved: taken
 * atomically before the look-up (D18's conditional increment, as webhook_manual's), kept when the
 * address is refused, given back otherwise. Parallel registrations look up at most as many names
 * as there are refusals left; once they are used up every registration is refused before any
 * look-up, whatever its address (429, with when it resets).
 */
async function withAddressRefusal(db: Kysely<Database>, clock: Clock, memberId: number, check: () => Promise<void>): Promise<void> {
  const now = clock.now();
  const day = quotaDayOf(now);
  const subject = webhookRefusedAddressesSubject(memberId);
  if ((await consumeUsage(db, subject, day, REFUSED_ADDRESSES_PER_DAY)) === null) {
    const resets = `${formatTurkeyDateTime(nextQuotaResetSeconds(now) * 1000)} Turkey time`;
    throw new DomainError(
      'rate_limited',
      `no more endpoints today: ${REFUSED_ADDRESSES_PER_DAY} addresses of your member were refused today (not a public address); registering opens again at ${resets}`,
      { code: 'webhook.address_refusals_used_up', params: { max: REFUSED_ADDRESSES_PER_DAY, resets: formatTurkeyDateTime(nextQuotaResetSeconds(now) * 1000) } },
    );
  }
  let refused = false;
  try {
    await check();
  } catch (error) {
    refused = error instanceof DomainError && error.problems.some((p) => p.code === 'webhook.address_refused');
    throw error;
  } finally {
    if (!refused) await releaseUsage(db, subject, day);
  }
}

function refuse(problems: readonly StatedProblem[]): never {
  throw new DomainError('invalid', problems.map((p) => p.message).join('; '), problems);
}

export function createWebhookEndpoints(deps: EndpointsDeps) {
  /** The endpoint, if the actor may act on it so; another member's is "not found". */
  async function endpointFor(actor: WebhookActor, id: number, access: 'manage' | 'read'): Promise<EndpointRow> {
    const row = await findEndpoint(deps.db, id);
    if (!row) throw endpointNotFound(id);
    checkEndpointAccess(actor, row.member_id, access, id);
    return row;
  }

  return {
    /** Registers an endpoint of the actor's member (an address once); its signing secret is in the answer, once. */
    async registerEndpoint(actor: WebhookActor, input: { url: string; description?: string }): Promise<{ endpoint: EndpointView; secret: string }> {
      const { memberId, userId } = managedMemberOf(actor);
      const checked = checkEndpointUrl(input.url);
      const description = (input.description ?? '').trim();
      const problems = [...('problems' in checked ? checked.problems : []), ...checkDescription(description)];
      if (problems.length > 0 || !('url' in checked)) refuse(problems);
      // Resolved before the transaction: a slow DNS answer holds no lock.
      await withAddressRefusal(deps.db, deps.clock, memberId, () => checkAddresses(checked.url, deps.addresses));
      const secret = newSigningSecret();
      const row = await deps.db.transaction().execute(async (trx) => {
        if (!(await lockMemberRow(trx, memberId)))
          throw new DomainError('not_found', 'your member no longer exists', { code: 'member.not_found_by_id', params: { id: memberId } });
        if ((await countEndpointsOfMember(trx, memberId)) >= MAX_ENDPOINTS_PER_MEMBER) {
          throw new DomainError('conflict', `a member has at most ${MAX_ENDPOINTS_PER_MEMBER} endpoints: delete one before adding another`, {
            code: 'webhook.endpoint_cap',
            params: { max: MAX_ENDPOINTS_PER_MEMBER },
          });
        }
        // The same address twice would get every message twice (a form sent again, a second click).
        const existing = await findEndpointOfMemberByUrl(trx, memberId, checked.url.href);
        if (existing !== null) {
          throw new DomainError('conflict', `${checked.url.href} is registered already (endpoint ${existing}): rotate its secret if it was lost`, {
            code: 'webhook.url_taken',
            params: { url: checked.url.href },
          });
        }
        const now = deps.clock.now();
        const endpoint = {
          member_id: memberId,
          url: checked.url.href,
          description,
          status: 'enabled' as const,
          created_by_user_id: userId,
          created_at: now,
          updated_at: now,
        };
        return insertEndpointSealed(trx, endpoint, (id) => sealColumn(deps.keyRing, WEBHOOK_SECRET, id, secret));
      });
      return { endpoint: viewOf(row, deps.clock.now()), secret };
    },

    /** A new secret, returned once; the previous one keeps signing for 24 h so the receiver can switch without losing a message. */
    async rotateSecret(actor: WebhookActor, input: { endpointId: number }): Promise<{ secret: string; previousSecretValidUntil: number }> {
      const row = await endpointFor(actor, input.endpointId, 'manage');
      const secret = newSigningSecret();
      const now = deps.clock.now();
      const until = now + PREVIOUS_SECRET_VALID_MS;
      // The current secret becomes the previous one; one older than that stops signing now.
      await rotateEndpointSecret(deps.db, row.id, sealColumn(deps.keyRing, WEBHOOK_SECRET, row.id, secret), until, now);
      return { secret, previousSecretValidUntil: until };
    },

    /** Enables a disabled endpoint again (its address checked again); its pending deliveries resume. */
    async enableEndpoint(actor: WebhookActor, input: { endpointId: number }): Promise<EndpointView> {
      const row = await endpointFor(actor, input.endpointId, 'manage');
      await checkAddresses(new URL(row.url), deps.addresses);
      const now = deps.clock.now();
      await updateEndpoint(deps.db, row.id, { status: 'enabled', disabled_reason: null, disabled_at: null, updated_at: now });
      return viewOf({ ...row, status: 'enabled', disabled_reason: null, disabled_at: null }, now);
    },

    /** Deletes the endpoint with its deliveries. */
    async deleteEndpoint(actor: WebhookActor, input: { endpointId: number }): Promise<void> {
      const row = await endpointFor(actor, input.endpointId, 'manage');
      await deps.db.transaction().execute((trx) => deleteEndpoint(trx, row.id));
    },

    async listEndpoints(actor: WebhookActor, input: { memberId: number }): Promise<EndpointView[]> {
      checkEndpointAccess(actor, input.memberId, 'read', null);
      const now = deps.clock.now();
      return (await listEndpointsOfMember(deps.db, input.memberId)).map((row) => viewOf(row, now));
    },
  };
}

export type WebhookEndpoints = ReturnType<typeof createWebhookEndpoints>;
