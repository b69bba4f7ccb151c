/** The sign-in and link-acceptance pages (markup only; auth.routes.ts decides what to show). */
import type { FastifyRequest } from 'fastify';
import { html, type Html } from './html.ts';
import { csrfField, notice } from './components.ts';
import { renderPage } from './layout.ts';
import { t, type MessageKey } from './messages/index.ts';
import type { LinkInfo } from '../users/users.service.ts';
import type { Locale } from './portal-context.ts';
import { paths } from './paths.ts';

function noticeOf(text: string | null, kind: 'error' | 'ok' = 'error'): Html {
  return text ? notice(kind, text) : html``;
}

export function signInPage(request: FastifyRequest, view: { email?: string; next?: string; error?: MessageKey; info?: MessageKey; wait?: number }): Html {
  const locale = request.portalState.locale;
  const tr = (key: MessageKey) => t(locale, key);
  const error = view.error ? t(locale, view.error, { wait: view.wait === undefined ? '' : waitText(locale, view.wait) }) : null;
  const body = html`${noticeOf(error)}${noticeOf(view.info ? tr(view.info) : null, 'ok')}
    <p>${tr('auth.signIn.intro')}</p>
    <form method="post" action="${paths.signIn.href}" class="stack">
      ${csrfField(request)}
      <input type="hidden" name="next" value="${view.next ?? ''}" />
      <label for="email">${tr('auth.email')}</label>
      <input type="email" id="email" name="email" autocomplete="username" required value="${view.email ?? ''}" />
      <label for="password">${tr('auth.password')}</label>
      <input type="password" id="password" name="password" autocomplete="current-password" required />
      <label for="code">${tr('auth.code')}</label>
      <span class="hint" id="code-hint">${tr('auth.code.hint')}</span>
      <input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" aria-describedby="code-hint" />
      <button type="submit">${tr('auth.signIn.submit')}</button>
    </form>
    <p class="hint">${tr('auth.signIn.forgot')}</p>`;
  return renderPage(request, { title: tr('auth.signIn.title'), body });
}

/** A wait in words: seconds under two minutes, else whole minutes (rounded up). */
export function waitText(locale: Locale, seconds: number): string {
  return seconds < 120 ? t(locale, 'auth.wait.seconds', { n: seconds }) : t(locale, 'auth.wait.minutes', { n: Math.ceil(seconds / 60) });
}

export interface TotpEnrolment {
  secret: string;
  uri: string;
}

export function acceptPage(request: FastifyRequest, view: { token: string; link: LinkInfo; name: string; totp: TotpEnrolment | null; error?: string }): Html {
  const locale = request.portalState.locale;
  const tr = (key: MessageKey) => t(locale, key);
  const totp = view.totp
    ? html`<fieldset>
        <legend>${tr('auth.totp.heading')}</legend>
        <p>${tr('auth.totp.intro')}</p>
        <p>
          <strong>${tr('auth.totp.secret')}</strong> <code class="secret" id="totp-secret">${view.totp.secret}</code>
          <button type="button" class="secondary" data-copy-target="totp-secret" data-copied-label="${tr('auth.copied')}" hidden>${tr('auth.copy')}</button>
        </p>
        <p><strong>${tr('auth.totp.uri')}</strong> <code class="secret" id="totp-uri">${view.totp.uri}</code></p>
        <label for="totp_code">${tr('auth.totp.code')}</label>
        <input type="text" id="totp_code" name="totp_code" inputmode="numeric" autocomplete="one-time-code" required pattern="[0-9 ]{6,7}" />
      </fieldset>`
    : html``;
  const body = html`${noticeOf(view.error ?? null)}
    <p>${t(locale, 'auth.accept.intro', { email: view.link.email })}</p>
    <form method="post" action="${paths.accept.href}" class="stack">
      ${csrfField(request)}
      <input type="hidden" name="token" value="${view.token}" />
      <input type="text" name="username" value="${view.link.email}" autocomplete="username" hidden />
      <label for="name">${tr('auth.accept.name')}</label>
      <input type="text" id="name" name="name" autocomplete="name" required maxlength="100" value="${view.name}" />
      <label for="password">${tr('auth.accept.password')}</label>
      <input type="password" id="password" name="password" autocomplete="new-password" required minlength="12" />
      <label for="password2">${tr('auth.accept.passwordAgain')}</label>
      <input type="password" id="password2" name="password2" autocomplete="new-password" required minlength="12" />
      ${totp}
      <button type="submit">${tr('auth.accept.submit')}</button>
    </form>`;
  const title = tr(view.link.purpose === 'invite' ? 'auth.accept.invite.title' : 'auth.accept.reset.title');
  return renderPage(request, { title, body });
}

export function linkInvalidPage(request: FastifyRequest): Html {
  const locale = request.portalState.locale;
  const body = html`${notice('error', t(locale, 'auth.accept.invalid.text'))}
    <p><a href="${paths.signIn.href}">${t(locale, 'auth.signIn.title')}</a></p>`;
  return renderPage(request, { title: t(locale, 'auth.accept.invalid.title'), body });
}
