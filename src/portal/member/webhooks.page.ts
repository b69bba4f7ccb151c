/**
 * GET /portal/webhooks (member_admin) and the answers of its actions (D32): the member's endpoints
 * (at most 3) with their status and, once disabled, why; a new signing secret shown this once
 * after registering or rotating (with a copy button); the register form, or why there is none.
 * Pure: a view model in, HTML out.
 */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { EndpointView } from '../../webhooks/webhook-endpoints.service.ts';
import { copyButton, csrfField, notice, turkeyMinute } from '../components.ts';
import { memberText } from './text.ts';
import { deliveryProblemText } from './webhook-words.ts';
import { paths } from '../paths.ts';

/** What the page says after an action: a secret (shown once), an endpoint enabled or deleted, refusals. */
export type WebhooksFlash =
  | { kind: 'registered'; url: string; secret: string }
  | { kind: 'rotated'; url: string; secret: string; previousValidUntil: number }
  | { kind: 'enabled' | 'deleted'; url: string }
  | { kind: 'error'; messages: readonly string[] }
  | null;

export interface WebhooksModel {
  readonly endpoints: readonly EndpointView[];
  /** D32's cap (MAX_ENDPOINTS_PER_MEMBER). */
  readonly max: number;
  readonly flash: WebhooksFlash;
  /** The register form as last typed (kept after a refusal). */
  readonly form: { readonly url: string; readonly description: string };
}

export const SECRET_ELEMENT_ID = 'webhook-secret';

function secretPanel(ctx: PortalContext, flash: Extract<WebhooksFlash, { kind: 'registered' | 'rotated' }>): Html {
  const t = memberText(ctx.locale);
  return html`<section class="panel panel-key" aria-labelledby="secret-title">
    <h2 id="secret-title">${t(flash.kind === 'registered' ? 'webhooks.secret_title' : 'webhooks.rotated_title', { url: flash.url })}</h2>
    ${notice('info', t('webhooks.secret_once'))}
    ${flash.kind === 'rotated' ? html`<p>${t('webhooks.rotated_previous', { until: turkeyMinute(flash.previousValidUntil) })}</p>` : ''}
    <p id="secret-label"><strong>${t('webhooks.secret_label')}</strong></p>
    <div class="copy-row">
      <code id="${SECRET_ELEMENT_ID}" class="secret" aria-labelledby="secret-label">${flash.secret}</code
      >${copyButton(SECRET_ELEMENT_ID, t('webhooks.copy'), t('webhooks.copied'))}
    </div>
    <p>${t('webhooks.secret_use')}</p>
  </section>`;
}

/** One small POST form with a button (CSRF field included); `label` names the endpoint for screen readers. */
function actionForm(ctx: PortalContext, action: string, text: string, label: string, style: 'secondary' | 'danger'): Html {
  return html`<form method="post" action="${action}">
    ${csrfField(ctx)}<button type="submit" class="${style} small" aria-label="${label}">${text}</button>
  </form>`;
}

function endpointCard(ctx: PortalContext, endpoint: EndpointView): Html {
  const t = memberText(ctx.locale);
  const url = endpoint.url;
  const enabled = endpoint.status === 'enabled';
  const status = enabled
    ? html`<span class="state state-ok">${t('webhooks.status.enabled')}</span>`
    : html`<span class="state state-bad">${t('webhooks.status.disabled', { at: endpoint.disabledAt === null ? '—' : turkeyMinute(endpoint.disabledAt) })}</span>`;
  return html`<section class="endpoint" aria-labelledby="endpoint-${endpoint.id}">
    <h3 id="endpoint-${endpoint.id}" class="mono">${url}</h3>
    <dl class="inline">
      <dt>${t('webhooks.status')}</dt>
      <dd>${status}</dd>
      ${
        !enabled && endpoint.disabledReason
          ? html`<dt>${t('webhooks.disabled_reason')}</dt>
            <dd class="reason">${deliveryProblemText(ctx.locale, endpoint.disabledReason)}</dd>`
          : ''
      }
      ${
        endpoint.description
          ? html`<dt>${t('webhooks.description_label')}</dt>
            <dd>${endpoint.description}</dd>`
          : ''
      }
      <dt>${t('webhooks.created')}</dt>
      <dd>${turkeyMinute(endpoint.createdAt)}</dd>
      ${
        endpoint.previousSecretValidUntil !== null
          ? html`<dt>${t('webhooks.previous_until')}</dt>
            <dd>${turkeyMinute(endpoint.previousSecretValidUntil)}</dd>`
          : ''
      }
    </dl>
    <p><a href="${paths.webhookDeliveries.href(endpoint.id)}">${t('webhooks.deliveries_link')}</a></p>
    <div class="row-actions">
      ${
        enabled
          ? actionForm(ctx, paths.webhookTest.href(endpoint.id), t('webhooks.test'), t('webhooks.test_for', { url }), 'secondary')
          : actionForm(ctx, paths.webhookEnable.href(endpoint.id), t('webhooks.enable'), t('webhooks.enable_for', { url }), 'secondary')
      }
      ${actionForm(ctx, paths.webhookRotate.href(endpoint.id), t('webhooks.rotate'), t('webhooks.rotate_for', { url }), 'secondary')}
      ${actionForm(ctx, paths.webhookDelete.href(endpoint.id), t('webhooks.delete'), t('webhooks.delete_for', { url }), 'danger')}
    </div>
    <p class="muted small">${t('webhooks.rotate_note')} ${t('webhooks.delete_note')}</p>
  </section>`;
}

function registerSection(ctx: PortalContext, model: WebhooksModel): Html {
  const t = memberText(ctx.locale);
  if (model.endpoints.length >= model.max) return notice('info', t('webhooks.full', { max: model.max }));
  return html`<form method="post" action="${paths.webhooks.href}" class="stack">
    ${csrfField(ctx)}
    <div class="field">
      <label for="webhook-url">${t('webhooks.url')}</label>
      <p id="webhook-url-hint" class="muted small">${t('webhooks.url_hint')}</p>
      <input
        id="webhook-url"
        name="url"
        type="url"
        required
        maxlength="2000"
        autocomplete="off"
        spellcheck="false"
        placeholder="https://"
        aria-describedby="webhook-url-hint"
        value="${model.form.url}"
      />
    </div>
    <div class="field">
      <label for="webhook-description">${t('webhooks.description')}</label
      ><input id="webhook-description" name="description" type="text" maxlength="200" autocomplete="off" value="${model.form.description}" />
    </div>
    <p><button type="submit">${t('webhooks.register')}</button></p>
  </form>`;
}

function flashOf(ctx: PortalContext, flash: WebhooksFlash): Html | string {
  const t = memberText(ctx.locale);
  if (flash === null) return '';
  if (flash.kind === 'registered' || flash.kind === 'rotated') return secretPanel(ctx, flash);
  if (flash.kind === 'error') return html`${flash.messages.map((message) => notice('error', message))}`;
  return notice('ok', t(flash.kind === 'enabled' ? 'webhooks.enabled_done' : 'webhooks.deleted_done', { url: flash.url }));
}

export function webhooksBody(ctx: PortalContext, model: WebhooksModel): Html {
  const t = memberText(ctx.locale);
  return html`${flashOf(ctx, model.flash)}
    <p>${t('webhooks.intro')}</p>
    <h2>${t('webhooks.endpoints_title')}</h2>
    <p>${t('webhooks.room', { used: model.endpoints.length, max: model.max })}</p>
    ${model.endpoints.length === 0 ? html`<p>${t('webhooks.none')}</p>` : model.endpoints.map((e) => endpointCard(ctx, e))}
    <h2>${t('webhooks.register_title')}</h2>
    ${registerSection(ctx, model)}`;
}
