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
import { DomainError, statusOf } from '../../lib/errors.ts';
import type { DeliveryView, WebhookDeliveries } from '../../webhooks/webhook-deliveries.service.ts';
import type { EndpointView, WebhookEndpoints } from '../../webhooks/webhook-endpoints.service.ts';
import { MAX_ENDPOINTS_PER_MEMBER, type WebhookActor } from '../../webhooks/webhook-rules.ts';
import { memberOf, portalOf, requireUser } from '../guards.ts';
import { redirectTo, renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { notFoundError } from '../portal-errors.ts';
import { domainErrorTexts } from '../problem-text.ts';
import { memberText } from './text.ts';
import { deliveriesBody, type DeliveriesFlash } from './webhook-deliveries.page.ts';
import { webhooksBody, type WebhooksFlash } from './webhooks.page.ts';
import { paths } from '../paths.ts';

/** Deliveries a page shows. */
export const DELIVERIES_PER_PAGE = 25;

/** A positive id as typed in a URL: digits only, at most 15 (a safe integer). */
const Id = Type.String({ pattern: '^[1-9][0-9]{0,14}$' });
const IdParams = Type.Object({ id: Id });
/** The form fields a page reads (`_csrf` is the session hook's); a repeated field is a 400. */
const RegisterBody = Type.Object({ url: Type.Optional(Type.String()), description: Type.Optional(Type.String()) });
const DeliveriesQuery = Type.Object({ before: Type.Optional(Id), sent: Type.Optional(Id), redelivered: Type.Optional(Id) });

/** The webhook use cases the pages call (the composition root's, src/services.ts). */
interface WebhookPages {
  readonly endpoints: WebhookEndpoints;
  readonly deliveries: WebhookDeliveries;
}

const ADMIN = { preValidation: requireUser('member_admin') };
const WITH_ID = { ...ADMIN, schema: { params: IdParams } };

export function registerWebhooksRoutes(app: App, deps: Pick<PortalDeps, 'services'>) {
  const pages: WebhookPages = { endpoints: deps.services.webhookEndpoints, deliveries: deps.services.webhookDeliveries };
  registerEndpointRoutes(app, pages);
  registerEndpointActions(app, pages);
  registerDeliveryRoutes(app, pages);
}

/** The signed-in member_admin as the use cases' actor (the guard has let only them in). */
function actorOf(request: FastifyRequest): WebhookActor {
  return { kind: 'member_user', userId: portalOf(request).user.id, memberId: memberOf(request).id, role: 'member_admin' };
}

/** A refusal the page words; "not found" (another member's id too) is the portal's 404 page. */
function refusalOf(request: FastifyRequest, error: unknown): { status: ReturnType<typeof statusOf>; messages: string[] } {
  if (!(error instanceof DomainError) || error.kind === 'forbidden') throw error;
  if (error.kind === 'not_found') throw notFoundError();
  return { status: statusOf(error), messages: domainErrorTexts(portalOf(request).locale, error) };
}

async function showList(pages: WebhookPages, request: FastifyRequest, reply: FastifyReply, flash: WebhooksFlash, status = 200, form = NO_FORM) {
  const ctx = portalOf(request);
  const list = await pages.endpoints.listEndpoints(actorOf(request), { memberId: memberOf(request).id });
  // A secret is in this response only: never cached, never stored in clear (D35).
  reply.header('cache-control', 'no-store');
  const body = webhooksBody(ctx, { endpoints: list, max: MAX_ENDPOINTS_PER_MEMBER, flash, form });
  return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('webhooks.title'), body, active: 'webhooks' }), status);
}

const NO_FORM = { url: '', description: '' };

/** Runs one step and shows the list with what came of it: its flash, or its refusal in words (and the form as typed). */
async function listAfter(pages: WebhookPages, request: FastifyRequest, reply: FastifyReply, step: () => Promise<WebhooksFlash>, form = NO_FORM) {
  let flash: WebhooksFlash;
  try {
    flash = await step();
  } catch (error) {
    const refusal = refusalOf(request, error);
    return showList(pages, request, reply, { kind: 'error', messages: refusal.messages }, refusal.status, form);
  }
  return showList(pages, request, reply, flash);
}

/** The endpoint of this member with this id, or the 404 page. */
async function endpointOf(pages: WebhookPages, request: FastifyRequest, id: number): Promise<EndpointView> {
  const found = (await pages.endpoints.listEndpoints(actorOf(request), { memberId: memberOf(request).id })).find((e) => e.id === id);
  if (!found) throw notFoundError();
  return found;
}

function registerEndpointRoutes(app: App, pages: WebhookPages) {
  app.get(paths.webhooks.route, ADMIN, async (request, reply) => showList(pages, request, reply, null));
  app.post(paths.webhooks.route, { ...ADMIN, schema: { body: RegisterBody } }, async (request, reply) => {
    const form = { url: request.body.url ?? '', description: request.body.description ?? '' };
    return listAfter(
      pages,
      request,
      reply,
      async () => {
        const { endpoint, secret } = await pages.endpoints.registerEndpoint(actorOf(request), form);
        return { kind: 'registered', url: endpoint.url, secret };
      },
      form,
    );
  });
}

function registerEndpointActions(app: App, pages: WebhookPages) {
  app.post(paths.webhookRotate.route, WITH_ID, async (request, reply) => {
    const endpoint = await endpointOf(pages, request, Number(request.params.id));
    return listAfter(pages, request, reply, async () => {
      const rotated = await pages.endpoints.rotateSecret(actorOf(request), { endpointId: endpoint.id });
      return { kind: 'rotated', url: endpoint.url, secret: rotated.secret, previousValidUntil: rotated.previousSecretValidUntil };
    });
  });
  app.post(paths.webhookEnable.route, WITH_ID, async (request, reply) =>
    listAfter(pages, request, reply, async () => {
      const endpoint = await pages.endpoints.enableEndpoint(actorOf(request), { endpointId: Number(request.params.id) });
      return { kind: 'enabled', url: endpoint.url };
    }),
  );
  app.post(paths.webhookDelete.route, WITH_ID, async (request, reply) => {
    const endpoint = await endpointOf(pages, request, Number(request.params.id));
    return listAfter(pages, request, reply, async () => {
      await pages.endpoints.deleteEndpoint(actorOf(request), { endpointId: endpoint.id });
      return { kind: 'deleted', url: endpoint.url };
    });
  });
}

function registerDeliveryRoutes(app: App, pages: WebhookPages) {
  app.post(paths.webhookTest.route, WITH_ID, async (request, reply) => {
    const id = Number(request.params.id);
    try {
      const sent = await pages.deliveries.sendTestEvent(actorOf(request), { endpointId: id });
      return redirectTo(reply, `${paths.webhookDeliveries.href(id)}?sent=${sent.deliveryId}`);
    } catch (error) {
      const refusal = refusalOf(request, error);
      return showDeliveries(
        pages,
        request,
        reply,
        { endpointId: id, before: null, flash: { kind: 'error', message: refusal.messages.join(' ') } },
        refusal.status,
      );
    }
  });
  app.post(paths.redeliver.route, WITH_ID, async (request, reply) => {
    const id = Number(request.params.id);
    let delivery: DeliveryView;
    try {
      delivery = await pages.deliveries.redeliver(actorOf(request), { deliveryId: id });
    } catch (error) {
      const refusal = refusalOf(request, error);
      const endpointId = await endpointIdOfDelivery(pages, request, id);
      if (endpointId === null) throw notFoundError();
      return showDeliveries(pages, request, reply, { endpointId, before: null, flash: { kind: 'error', message: refusal.messages.join(' ') } }, refusal.status);
    }
    return redirectTo(reply, `${paths.webhookDeliveries.href(delivery.endpointId)}?redelivered=${delivery.id}`);
  });
  app.get(paths.webhookDeliveries.route, { ...ADMIN, schema: { params: IdParams, querystring: DeliveriesQuery } }, async (request, reply) => {
    const { before, sent, redelivered } = request.query;
    const endpointId = Number(request.params.id);
    let flash: DeliveriesFlash = null;
    // Said only of a delivery of this endpoint: a link cannot make the page claim one was queued.
    const shown = sent ?? redelivered;
    if (shown !== undefined) {
      const found = await deliveryOf(pages, request, endpointId, Number(shown));
      if (found) flash = sent !== undefined ? { kind: 'test_sent', webhookId: found.webhookId } : { kind: 'redelivered', id: found.id };
    }
    return showDeliveries(pages, request, reply, { endpointId, before: before === undefined ? null : Number(before), flash });
  });
}

/** The delivery of this endpoint with this id (of the last 30 days), if any. */
async function deliveryOf(pages: WebhookPages, request: FastifyRequest, endpointId: number, deliveryId: number): Promise<DeliveryView | null> {
  const [found] = await pages.deliveries.listDeliveries(actorOf(request), { endpointId, beforeId: deliveryId + 1, limit: 1 });
  return found?.id === deliveryId ? found : null;
}

/** After a refused redelivery: the endpoint whose page to show again (one of this member's, found through its own list). */
async function endpointIdOfDelivery(pages: WebhookPages, request: FastifyRequest, deliveryId: number): Promise<number | null> {
  for (const endpoint of await pages.endpoints.listEndpoints(actorOf(request), { memberId: memberOf(request).id })) {
    if (await deliveryOf(pages, request, endpoint.id, deliveryId)) return endpoint.id;
  }
  return null;
}

async function showDeliveries(
  pages: WebhookPages,
  request: FastifyRequest,
  reply: FastifyReply,
  view: { endpointId: number; before: number | null; flash: DeliveriesFlash },
  status = 200,
) {
  const ctx = portalOf(request);
  const endpoint = await endpointOf(pages, request, view.endpointId);
  // One more than a page: whether there is an older page.
  const rows = await pages.deliveries.listDeliveries(actorOf(request), {
    endpointId: endpoint.id,
    limit: DELIVERIES_PER_PAGE + 1,
    ...(view.before === null ? {} : { beforeId: view.before }),
  });
  const page = rows.slice(0, DELIVERIES_PER_PAGE);
  const olderBefore = rows.length > DELIVERIES_PER_PAGE ? page[page.length - 1]!.id : null;
  reply.header('cache-control', 'no-store');
  const body = deliveriesBody(ctx, { endpoint, deliveries: page, before: view.before, olderBefore, flash: view.flash });
  return sendPage(reply, renderPage(ctx, { title: memberText(ctx.locale)('webhooks.deliveries.title'), body, active: 'webhooks' }), status);
}
