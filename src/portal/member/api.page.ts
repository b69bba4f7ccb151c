/**
 * GET /portal/api and the answers of its actions (D16, D28): the member's key, and a newly
 * generated key shown this once with a copy button (data-copy-target, /portal/assets/portal.js) and a
 * ready curl.
 */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { MemberKeyView } from '../../keys/member-key.service.ts';
import { copyButton, csrfField, notice, turkeyMinute } from '../components.ts';
import { memberText } from './text.ts';
import { paths } from '../paths.ts';

export interface NewKey {
  key: string;
  /** The search URL of this server, for the curl. */
  searchUrl: string;
  revokedOld: boolean;
}

export type ApiFlash = { kind: 'new_key'; newKey: NewKey } | { kind: 'revoked' } | { kind: 'error'; message: string } | null;

/** A curl that works as pasted; single-quoted, and the key holds only [A-Za-z0-9] (D16). */
export function curlFor(searchUrl: string, key: string): string {
  return `curl -H 'X-API-Key: ${key}' '${searchUrl}?q=Example+Lojistik'`;
}

function newKeyPanel(ctx: PortalContext, newKey: NewKey): Html {
  const t = memberText(ctx.locale);
  return html`<section class="panel panel-key" aria-labelledby="new-key-title">
    <h2 id="new-key-title">${t('api.new_key_title')}</h2>
    ${notice('info', t('api.new_key_once'))} ${newKey.revokedOld ? html`<p>${t('api.old_revoked')}</p>` : ''}
    <p id="new-key-label"><strong>${t('api.new_key_label')}</strong></p>
    <div class="copy-row">
      <code id="new-key" class="secret" aria-labelledby="new-key-label">${newKey.key}</code>${copyButton('new-key', t('api.copy'), t('api.copied'))}
    </div>
    <p id="curl-label">${t('api.try_it')}</p>
    <div class="copy-row">
      <code id="curl" class="secret" aria-labelledby="curl-label">${curlFor(newKey.searchUrl, newKey.key)}</code
      >${copyButton('curl', t('api.copy'), t('api.copied'))}
    </div>
  </section>`;
}

export function apiBody(ctx: PortalContext, view: MemberKeyView, flash: ApiFlash): Html {
  const t = memberText(ctx.locale);
  const key = view.key;
  const details = key
    ? html`<dl class="facts">
        <dt>${t('api.prefix')}</dt>
        <dd class="mono">${key.prefix}…</dd>
        <dt>${t('api.created')}</dt>
        <dd>${turkeyMinute(key.createdAt)}</dd>
        <dt>${t('api.last_use')}</dt>
        <dd>${key.lastUsedDay ?? t('api.never')}</dd>
        <dt>${t('api.daily_limit')}</dt>
        <dd>${key.dailyLimit}</dd>
        <dt>${t('api.used_today')}</dt>
        <dd>${key.usedToday} / ${key.dailyLimit}</dd>
      </dl>`
    : html`<p>${t('api.no_key')}</p>`;
  const unsigned =
    ctx.member?.agreementSignedOn === null
      ? notice('info', html`${t('api.agreement_needed')} <a href="${paths.agreement.href}">${t('agreement.title')}</a>`)
      : '';
  return html`${flash?.kind === 'new_key' ? newKeyPanel(ctx, flash.newKey) : ''}${flash?.kind === 'revoked' ? notice('ok', t('api.revoked')) : ''}${flash?.kind === 'error' ? notice('error', flash.message) : ''}
    <p>${t('api.intro')} <a href="/api/v1/docs">${t('api.docs')}</a></p>
    ${unsigned} ${details}
    <form method="post" action="${paths.apiKey.href}" class="stack">
      ${csrfField(ctx)} ${key ? html`<p class="muted">${t('api.regenerate_warning')}</p>` : ''}
      <p><button type="submit">${key ? t('api.regenerate') : t('api.generate')}</button></p>
    </form>
    ${
      key
        ? html`<form method="post" action="${paths.apiKeyRevoke.href}" class="stack">
            ${csrfField(ctx)}
            <p class="muted">${t('api.revoke_warning')}</p>
            <p><button type="submit" class="danger">${t('api.revoke')}</button></p>
          </form>`
        : ''
    }`;
}
