/** GET /portal/agreement: the data agreement, its state, and for a member_admin the form to sign it (D28). */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { AgreementState } from '../../agreement/agreement.service.ts';
import { agreementText } from '../../agreement/agreement-text.ts';
import { csrfField, notice } from '../components.ts';
import { memberText } from './text.ts';
import { paths } from '../paths.ts';

export function agreementBody(ctx: PortalContext, state: AgreementState, flash: 'signed' | 'must_accept' | null): Html {
  const t = memberText(ctx.locale);
  const text = agreementText(ctx.locale);
  const last = state.lastSignature;
  const status =
    state.signedOn === null
      ? notice('info', t('agreement.unsigned'))
      : last
        ? notice('ok', t('agreement.signed', { date: state.signedOn, signer: last.signer ?? '—', version: last.version }))
        : notice('ok', t('agreement.signed_by_operator', { date: state.signedOn }));
  const needsSigning = !state.signedCurrent;
  const isAdmin = ctx.user.role === 'member_admin';
  const form = needsSigning
    ? isAdmin
      ? html`<form method="post" action="${paths.agreementSign.href}" class="stack">
          ${csrfField(ctx)}
          <p class="check">
            <input type="checkbox" id="accept" name="accept" value="yes" required /><label for="accept"
              >${t('agreement.accept', { member: ctx.member?.name ?? '' })}</label
            >
          </p>
          <p><button type="submit">${t('agreement.sign')}</button></p>
        </form>`
      : html`<p>${t('agreement.only_admin')}</p>`
    : '';
  return html`${flash === 'signed' ? notice('ok', t('agreement.just_signed')) : ''}${flash === 'must_accept' ? notice('error', t('agreement.must_accept')) : ''}
    ${status} ${needsSigning && state.signedOn !== null && last ? notice('info', t('agreement.new_version')) : ''}
    <article class="agreement" lang="${ctx.locale}">
      <h2>${text.title}</h2>
      <p class="muted">${t('agreement.version', { version: state.currentVersion })}</p>
      <ol>
        ${text.clauses.map((clause) => html`<li>${clause}</li>`)}
      </ol>
    </article>
    ${form}`;
}
