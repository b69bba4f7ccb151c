/**
 * The member's webhook endpoints and their deliveries (D32), for its member_admin only: list,
 * register (the signing secret shown once), rotate the secret, enable, delete, send a test event,
 * the deliveries of the last 30 days, redeliver. Adapters: parse (TypeBox schemas for ids, the
 * query and the form), call the webhook use cases with the signed-in admin as the actor, render.
 * The use cases decide who may act on which id: another member's endpoint or delivery is a 404,
 * like one that does not exist. CSRF and Origin are checked for every POST by the session hook.
 * A page that shows a secret is sent with `Cache-Control: no-store`; a secret is never logged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../http/app-type.ts';
import { DomainError } from '../../lib/errors.ts';
import { systemResolver } from '../../webhooks/safe-lookup.ts';
import { createWebhookDeliveries, type DeliveryView } from '../../webhooks/webhook-deliveries.service.ts';
import { createWebhookEndpoints, type EndpointView } from '../../webhooks/webhook-endpoints.service.ts';
import { MAX_ENDPOINTS_PER_MEMBER, type WebhookActor } from '../../webhooks/webhook-rules.ts';
import { memberOf, portalOf, requireUser } from '../guards.ts';
import { redirectTo, renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { notFoundError } from '../portal-errors.ts';
import { domainErrorTexts } from '../problem-text.ts';
import { statusOfDomainError } from './route-helpers.ts';
import { memberText } from './text.ts';
import { deliveriesBody, type DeliveriesFlash } from './webhook-deliveries.page.ts';
import { webhooksBody, type WebhooksFlash } from './webhooks.page.ts';

/** Deliveries a page shows. */
export const DELIVERIES_PER_PAGE = 25;

/** A positive id as typed in a URL: digits only, at most 15 (a safe integer). */
const Id = Type.String({ pattern: '^[1-9][0-9]{0,14}$' });
const IdParams = Type.Object({ id: Id });
/** The form fields a page reads (`_csrf` is the session hook's); a repeated field is a 400. */
const RegisterBody = Type.Object({ url: Type.Optional(Type.String()), description: Type.Optional(Type.String()) });
const DeliveriesQuery = Type.Object({ before: Type.Optional(Id), sent: Type.Optional(Id), redelivered: Type.Optional(Id) });

export function registerWebhooksRoutes(app: App, deps: PortalDeps) {
  const addresses = { resolve: systemResolver, allowPrivate: deps.config.webhookAllowPrivateAddresses };
  const endpoints = createWebhookEndpoints({ db: deps.db, clock: deps.clock, keyRing: deps.keyRing, addresses });
  const deliveries = createWebhookDeliveries({ db: deps.db, clock: deps.clock });

  /** The signed-in member_admin as the use cases' actor (the guard has let only them in). */
  const actorOf = (request: FastifyRequest): WebhookActor => ({
    kind: 'member_user',
    userId: portalOf(request).user.id,
    memberId: memberOf(request).id,
    role: 'member_admin',
  });

  /** A refusal the page words; "not found" (another member's id too) is the portal's 404 page. */
  const refusalOf = (request: FastifyRequest, error: unknown): { status: 400 | 404 | 409; messages: string[] } => {
    if (!(error instanceof DomainError) || error.kind === 'forbidden') throw error;
    if (error.kind === 'not_found') throw notFoundError();
    return { status: statusOfDomainError(error), messages: domainErrorTexts(portalOf(request).locale, error) };
  };

  const showList = async (request: FastifyRequest, reply: FastifyReply, flash: WebhooksFlash, status = 200, form = { url: '', description: '' }) => {
    const ctx = portalOf(request);
    const list = await endpoints.listEndpoints(actorOf(request), { memberId: memberOf(request).id });
    // A secret is in this response only: never cached, never stored in clear (D35).
    reply.header('cache-control', 'no-store');
    const body = webhooksBody(ctx, { endpoints: list, max: MAX_ENDPOINTS_PER_MEMBER, flash, form });
    return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('webhooks.title'), body, active: 'webhooks' }), status);
  };

  /** The endpoint of this member with this id, or the 404 page. */
  const endpointOf = async (request: FastifyRequest, id: number): Promise<EndpointView> => {
    const found = (await endpoints.listEndpoints(actorOf(request), { memberId: memberOf(request).id })).find((e) => e.id === id);
    if (!found) throw notFoundError();
    return found;
  };

  const admin = { preValidation: requireUser('member_admin') };
  const withId = { ...admin, schema: { params: IdParams } };

  app.get('/webhooks', admin, async (request, reply) => showList(request, reply, null));

  app.post('/webhooks', { ...admin, schema: { body: RegisterBody } }, async (request, reply) => {
    const form = { url: request.body.url ?? '', description: request.body.description ?? '' };
    try {
      const { endpoint, secret } = await endpoints.registerEndpoint(actorOf(request), form);
      return await showList(request, reply, { kind: 'registered', url: endpoint.url, secret });
    } catch (error) {
      const refusal = refusalOf(request, error);
      return showList(request, reply, { kind: 'error', messages: refusal.messages }, refusal.status, form);
    }
  });

  app.post('/webhooks/:id/rotate', withId, async (request, reply) => {
    const endpoint = await endpointOf(request, Number(request.params.id));
    try {
      const rotated = await endpoints.rotateSecret(actorOf(request), { endpointId: endpoint.id });
      return await showList(request, reply, {
        kind: 'rotated',
        url: endpoint.url,
        secret: rotated.secret,
        previousValidUntil: rotated.previousSecretValidUntil,
      });
    } catch (error) {
      const refusal = refusalOf(request, error);
      return showList(request, reply, { kind: 'error', messages: refusal.messages }, refusal.status);
    }
  });

  app.post('/webhooks/:id/enable', withId, async (request, reply) => {
    try {
      const endpoint = await endpoints.enableEndpoint(actorOf(request), { endpointId: Number(request.params.id) });
      return await showList(request, reply, { kind: 'enabled', url: endpoint.url });
    } catch (error) {
      const refusal = refusalOf(request, error);
      return showList(request, reply, { kind: 'error', messages: refusal.messages }, refusal.status);
    }
  });

  app.post('/webhooks/:id/delete', withId, async (request, reply) => {
    const endpoint = await endpointOf(request, Number(request.params.id));
    try {
      await endpoints.deleteEndpoint(actorOf(request), { endpointId: endpoint.id });
    } catch (error) {
      const refusal = refusalOf(request, error);
      return showList(request, reply, { kind: 'error', messages: refusal.messages }, refusal.status);
    }
    return showList(request, reply, { kind: 'deleted', url: endpoint.url });
  });

  app.post('/webhooks/:id/test', withId, async (request, reply) => {
    const id = Number(request.params.id);
    try {
      const sent = await deliveries.sendTestEvent(actorOf(request), { endpointId: id });
      return redirectTo(reply, `/portal/webhooks/${id}/deliveries?sent=${sent.deliveryId}`);
    } catch (error) {
      const refusal = refusalOf(request, error);
      return showDeliveries(request, reply, id, null, { kind: 'error', message: refusal.messages.join(' ') }, refusal.status);
    }
  });

  app.post('/webhooks/deliveries/:id/redeliver', withId, async (request, reply) => {
    const id = Number(request.params.id);
    let delivery: DeliveryView;
    try {
      delivery = await deliveries.redeliver(actorOf(request), { deliveryId: id });
    } catch (error) {
      const refusal = refusalOf(request, error);
      const endpointId = await endpointIdOfDelivery(request, id);
      if (endpointId === null) throw notFoundError();
      return showDeliveries(request, reply, endpointId, null, { kind: 'error', message: refusal.messages.join(' ') }, refusal.status);
    }
    return redirectTo(reply, `/portal/webhooks/${delivery.endpointId}/deliveries?redelivered=${delivery.id}`);
  });

  /** After a refused redelivery: the endpoint whose page to show again (one of this member's, found through its own list). */
  async function endpointIdOfDelivery(request: FastifyRequest, deliveryId: number): Promise<number | null> {
    for (const endpoint of await endpoints.listEndpoints(actorOf(request), { memberId: memberOf(request).id })) {
      const [found] = await deliveries.listDeliveries(actorOf(request), { endpointId: endpoint.id, beforeId: deliveryId + 1, limit: 1 });
      if (found?.id === deliveryId) return endpoint.id;
    }
    return null;
  }

  app.get('/webhooks/:id/deliveries', { ...withId, schema: { params: IdParams, querystring: DeliveriesQuery } }, async (request, reply) => {
    const query = request.query;
    const before = query.before === undefined ? null : Number(query.before);
    const endpointId = Number(request.params.id);
    let flash: DeliveriesFlash = null;
    // Said only of a delivery of this endpoint: a link cannot make the page claim one was queued.
    const shown = query.sent ?? query.redelivered;
    if (shown !== undefined) {
      const [found] = await deliveries.listDeliveries(actorOf(request), { endpointId, beforeId: Number(shown) + 1, limit: 1 });
      if (found?.id === Number(shown))
        flash = query.sent !== undefined ? { kind: 'test_sent', webhookId: found.webhookId } : { kind: 'redelivered', id: found.id };
    }
    return showDeliveries(request, reply, endpointId, before, flash);
  });

  async function showDeliveries(request: FastifyRequest, reply: FastifyReply, endpointId: number, before: number | null, flash: DeliveriesFlash, status = 200) {
    const ctx = portalOf(request);
    const endpoint = await endpointOf(request, endpointId);
    // One more than a page: whether there is an older page.
    const rows = await deliveries.listDeliveries(actorOf(request), {
      endpointId,
      limit: DELIVERIES_PER_PAGE + 1,
      ...(before === null ? {} : { beforeId: before }),
    });
    const page = rows.slice(0, DELIVERIES_PER_PAGE);
    const olderBefore = rows.length > DELIVERIES_PER_PAGE ? page[page.length - 1]!.id : null;
    reply.header('cache-control', 'no-store');
    const body = deliveriesBody(ctx, { endpoint, deliveries: page, before, olderBefore, flash });
    return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('webhooks.deliveries.title'), body, active: 'webhooks' }), status);
  }
}
