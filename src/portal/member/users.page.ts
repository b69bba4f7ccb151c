/** GET /portal/users (member_admin): the member's users, a new link or disabling for each, inviting a colleague (D27, D28). */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import { REFUSED_INVITATIONS_PER_DAY, type MemberUserView } from '../../members/member-users.service.ts';
import { copyButton, csrfField, dataTable, notice } from '../components.ts';
import { memberText, type MemberTextKey } from './text.ts';
import { paths } from '../paths.ts';

/** What the page says after an action: a one-time link (shown once), a user disabled, a refusal. */
export type UsersFlash =
  { kind: 'invited' | 'reset'; email: string; link: string } | { kind: 'disabled'; name: string } | { kind: 'error'; message: string; code?: string } | null;

export interface InviteForm {
  email: string;
  role: string;
}

/**
 * The member's users that count against its cap (not disabled), the cap
 * (RISKLOOKUP_MAX_USERS_PER_MEMBER), and whether the day's refused invitations are used up.
 */
export interface UserRoom {
  used: number;
  max: number;
  refusalsUsedUp: boolean;
}

export function usersBody(
  ctx: PortalContext,
  users: readonly MemberUserView[],
  flash: UsersFlash,
  room: UserRoom,
  form: InviteForm = { email: '', role: 'member_user' },
): Html {
  const t = memberText(ctx.locale);
  const rows = users.map((u) => {
    const self = u.id === ctx.user.id;
    const action =
      !self && u.status !== 'disabled'
        ? html`<div class="row-actions">
            ${
              // A new link only for an invitation not yet accepted; a password reset is the operator's.
              u.status === 'invited'
                ? html`<form method="post" action="${paths.userLink.href(u.id)}">
                    ${csrfField(ctx)}<button type="submit" class="secondary small" aria-label="${t('users.new_invitation_for', { name: u.name || u.email })}">
                      ${t('users.new_link')}
                    </button>
                  </form>`
                : ''
            }
            <form method="post" action="${paths.userDisable.href(u.id)}">
              ${csrfField(ctx)}<button type="submit" class="danger small" aria-label="${t('users.disable', { name: u.name || u.email })}">
                ${t('users.disable_button')}
              </button>
            </form>
          </div>`
        : '';
    return html`<tr>
      <td>${u.name || '—'}${self ? html` <span class="muted">(${t('users.you')})</span>` : ''}</td>
      <td>${u.email}</td>
      <td>${t(`users.role.${u.role}` as MemberTextKey)}</td>
      <td>${t(`users.status.${u.status}` as MemberTextKey)}</td>
      <td>${action}</td>
    </tr>`;
  });
  const invited =
    flash?.kind === 'invited' || flash?.kind === 'reset'
      ? html`<section class="panel panel-key" aria-labelledby="invite-link-title">
          <h2 id="invite-link-title">${t(flash.kind === 'invited' ? 'users.invite_link_title' : 'users.reset_link_title', { email: flash.email })}</h2>
          <p>${t('users.invite_link')}</p>
          <div class="copy-row">
            <code id="invite-link" class="secret" aria-labelledby="invite-link-title">${flash.link}</code
            >${copyButton('invite-link', t('users.copy'), t('api.copied'))}
          </div>
        </section>`
      : '';
  return html`${invited}${flash?.kind === 'disabled' ? notice('ok', t('users.disabled_done', { name: flash.name })) : ''}${flash?.kind === 'error' ? notice('error', flash.message) : ''}
    <p>${t('users.intro')}</p>
    ${dataTable({
      hiddenCaption: t('users.title'),
      columns: [t('users.name'), t('users.email'), t('users.role'), t('users.status'), t('users.actions')],
      rows,
    })}
    <h2>${t('users.invite_title')}</h2>
    ${inviteSection(ctx, flash, room, form)}`;
}

/**
 * The room left, then the form; or, when any invitation would only be refused (the cap, the
 * day's refusals used up), why, said before the admin types an address (and not said twice
 * when the refusal above says it).
 */
function inviteSection(ctx: PortalContext, flash: UsersFlash, room: UserRoom, form: InviteForm): Html {
  const t = memberText(ctx.locale);
  const saidAbove = (code: string) => flash?.kind === 'error' && flash.code === code;
  if (room.used >= room.max) {
    return saidAbove('member_users.user_cap') ? html`` : notice('info', t('users.room_full', { used: room.used, max: room.max }));
  }
  if (room.refusalsUsedUp) {
    return saidAbove('member_users.invite_refusals_used_up')
      ? html``
      : notice('info', t('problem.member_users.invite_refusals_used_up', { max: REFUSED_INVITATIONS_PER_DAY }));
  }
  return html`<p>${t('users.room', { used: room.used, max: room.max, left: room.max - room.used })}</p>
    ${inviteForm(ctx, form)}`;
}

function inviteForm(ctx: PortalContext, form: InviteForm): Html {
  const t = memberText(ctx.locale);
  return html`<form method="post" action="${paths.usersInvite.href}" class="stack">
      ${csrfField(ctx)}
      <div class="field">
        <label for="invite-email">${t('users.email')}</label
        ><input id="invite-email" name="email" type="email" required maxlength="254" autocomplete="off" value="${form.email}" />
      </div>
      <fieldset class="field">
        <legend>${t('users.role')}</legend>
        <p class="check">
          <input type="radio" id="role-user" name="role" value="member_user" ${form.role !== 'member_admin' ? ' checked' : ''} /><label for="role-user"
            >${t('users.role.member_user')}</label
          >
        </p>
        <p class="check">
          <input type="radio" id="role-admin" name="role" value="member_admin" ${form.role === 'member_admin' ? ' checked' : ''} /><label for="role-admin"
            >${t('users.role.member_admin')}</label
          >
        </p>
      </fieldset>
      <p><button type="submit">${t('users.invite')}</button></p>
    </form>`;
}
