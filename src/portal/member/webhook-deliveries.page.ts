/**
 * GET /portal/webhooks/:id/deliveries (member_admin): one endpoint's deliveries of the last 30
 * days, newest first, a page at a time: status, attempts, the last answer's HTTP code, times
 * (Turkey time), what went wrong, and a redeliver button (D32). Pure: a view model in, HTML out.
 */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { DeliveryView } from '../../webhooks/webhook-deliveries.service.ts';
import type { EndpointView } from '../../webhooks/webhook-endpoints.service.ts';
import { csrfField, dataTable, notice } from '../components.ts';
import { formatTurkeyDateTime } from '../../lib/turkey-time.ts';
import { memberText, type MemberTextKey } from './text.ts';
import { deliveryProblemText } from './webhook-words.ts';
import { paths } from '../paths.ts';

export type DeliveriesFlash = { kind: 'test_sent'; webhookId: string } | { kind: 'redelivered'; id: number } | { kind: 'error'; message: string } | null;

export interface DeliveriesModel {
  readonly endpoint: EndpointView;
  /** This page's deliveries, newest first. */
  readonly deliveries: readonly DeliveryView[];
  /** The `before` of this page (null: the newest). */
  readonly before: number | null;
  /** The `before` of the next, older page; null when there is none. */
  readonly olderBefore: number | null;
  readonly flash: DeliveriesFlash;
}

const STATE_CLASS: Record<DeliveryView['state'], string> = { pending: 'state-wait', delivering: 'state-wait', succeeded: 'state-ok', failed: 'state-bad' };

/** To the second: attempts a few seconds apart must read apart. */
const turkeySecond = (ms: number) => formatTurkeyDateTime(ms);

/** A time in a table cell: the day above the time of day, so that the table fits the page. */
function timeCell(ms: number | null): Html {
  if (ms === null) return html`<td>—</td>`;
  const [day, time] = turkeySecond(ms).split(' ');
  return html`<td class="nowrap">${day}<br />${time}</td>`;
}

function deliveryRow(ctx: PortalContext, d: DeliveryView, endpointEnabled: boolean): Html {
  const t = memberText(ctx.locale);
  const state = html`<span class="state ${STATE_CLASS[d.state]}">${t(`webhooks.state.${d.state}` as MemberTextKey)}</span>`;
  const next =
    d.nextAttemptAt !== null && d.state === 'pending'
      ? html`<br /><span class="muted small">${t('webhooks.deliveries.next', { at: turkeySecond(d.nextAttemptAt) })}</span>`
      : '';
  const redeliver =
    endpointEnabled && d.state !== 'delivering'
      ? html`<form method="post" action="${paths.redeliver.href(d.id)}">
          ${csrfField(ctx)}<button type="submit" class="secondary small" aria-label="${t('webhooks.redeliver_for', { id: d.webhookId })}">
            ${t('webhooks.redeliver')}
          </button>
        </form>`
      : '';
  return html`<tr id="delivery-${d.id}">
    ${timeCell(d.createdAt)}
    <td><span class="mono">${d.eventType}</span><br /><span class="mono muted small nowrap">${d.webhookId}</span></td>
    <td>${state}${next}</td>
    <td class="num">${d.attempts}</td>
    <td class="num">${d.lastStatus ?? '—'}</td>
    ${timeCell(d.lastAttemptAt)}
    <td class="reason">${d.lastError === null ? '' : deliveryProblemText(ctx.locale, d.lastError)}</td>
    <td>${redeliver}</td>
  </tr>`;
}

function flashOf(ctx: PortalContext, flash: DeliveriesFlash): Html | string {
  const t = memberText(ctx.locale);
  if (flash === null) return '';
  if (flash.kind === 'test_sent') return notice('ok', t('webhooks.test_sent', { id: flash.webhookId }));
  if (flash.kind === 'redelivered') return notice('ok', t('webhooks.redelivered', { id: flash.id }));
  return notice('error', flash.message);
}

function pager(ctx: PortalContext, model: DeliveriesModel): Html | string {
  const t = memberText(ctx.locale);
  const base = paths.webhookDeliveries.href(model.endpoint.id);
  const links = [
    model.before !== null ? html`<a href="${base}">${t('webhooks.deliveries.newest')}</a>` : '',
    model.olderBefore !== null ? html`<a href="${base}?before=${model.olderBefore}" rel="next">${t('webhooks.deliveries.older')}</a>` : '',
  ].filter((link) => link !== '');
  return links.length === 0 ? '' : html`<nav class="pager" aria-label="${t('webhooks.deliveries.title')}">${links}</nav>`;
}

export function deliveriesBody(ctx: PortalContext, model: DeliveriesModel): Html {
  const t = memberText(ctx.locale);
  const enabled = model.endpoint.status === 'enabled';
  const table =
    model.deliveries.length === 0
      ? html`<p>${t('webhooks.deliveries.none')}</p>`
      : dataTable({
          className: 'deliveries',
          hiddenCaption: t('webhooks.deliveries.title'),
          columns: [
            t('webhooks.deliveries.created'),
            t('webhooks.deliveries.event'),
            t('webhooks.deliveries.state'),
            t('webhooks.deliveries.attempts'),
            t('webhooks.deliveries.answer'),
            t('webhooks.deliveries.last_attempt'),
            t('webhooks.deliveries.detail'),
            t('webhooks.deliveries.actions'),
          ],
          rows: model.deliveries.map((d) => deliveryRow(ctx, d, enabled)),
        });
  return html`${flashOf(ctx, model.flash)}
    <p><a href="${paths.webhooks.href}">← ${t('webhooks.deliveries.back')}</a></p>
    <p>${t('webhooks.deliveries.intro', { url: model.endpoint.url })}</p>
    ${enabled ? '' : notice('info', t('webhooks.deliveries.disabled'))}
    ${
      enabled
        ? html`<form method="post" action="${paths.webhookTest.href(model.endpoint.id)}" class="stack">
          ${csrfField(ctx)}
          <p><button type="submit" class="secondary">${t('webhooks.test')}</button></p>
        </form>`
        : ''
    }
    ${table} ${pager(ctx, model)}`;
}
