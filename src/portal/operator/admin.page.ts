/**
 * The operator console's administration pages (D30), pure page bodies: members (add, status,
 * tier, agreement, key daily limit, portal daily limit, revoke key), users (invite, reset link,
 * disable) and the one-time link an invitation or a reset shows once. Routes:
 * ../operator-admin.routes.ts.
 */
import { csrfField, dataTable, hiddenField, notice, selectField } from '../components.ts';
import { html, type Html } from '../html.ts';
import { translator, type MessageKey } from '../messages/index.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalQuery } from '../portal-query.ts';
import { paths } from '../paths.ts';
import { MEMBER_STATUSES, TIERS } from '../../members/members.service.ts';
import type { MemberState } from '../../operator/member-admin.service.ts';
import { USER_ROLES, type UserView } from '../../users/users.service.ts';

/** The console's actions that redirect with a notice (`?done=ACTION&target=…`). */
export const MEMBER_ACTIONS = [
  'member.add',
  'member.status',
  'member.tier',
  'member.agreement',
  'member.limit',
  'member.portal-limit',
  'member.watchlist-cap',
  'member.revoke-key',
] as const;
export const USER_ACTIONS = ['user.disable'] as const;

/** Where an action returns to, with what it did (doneNotice reads it back). */
export function donePath(path: string, action: string, target: string): string {
  return `${path}?done=${encodeURIComponent(action)}&target=${encodeURIComponent(target)}`;
}

/** A one-button form posting to `action`, `inner` its fields. */
function actionForm(ctx: PortalContext, action: string, inner: Html, button: string): Html {
  return html`<form method="post" action="${action}" class="inline">${csrfField(ctx)}${inner}<button type="submit">${button}</button></form>`;
}

/**
 * "Done: ACTION on TARGET" only for an action of this page's closed list and a target the page
 * lists (a member's ref, a user's email): a link cannot put other words in a trusted notice.
 */
function doneNotice(ctx: PortalContext, query: PortalQuery, actions: readonly string[], targets: readonly string[]): Html | '' {
  if (query.done === undefined || query.target === undefined || !actions.includes(query.done) || !targets.includes(query.target)) return '';
  const t = translator(ctx.locale);
  return notice('ok', t('console.done', { action: t(`console.action.${query.done}` as MessageKey), target: query.target }));
}

/** The server's defaults a member's own setting overrides (null: the default). */
export interface MemberDefaults {
  portalDailyLimit: number;
  watchlistCap: number;
}

/** `watching`: how many companies each member (by ref) watches now. */
export function membersBody(
  ctx: PortalContext,
  members: readonly MemberState[],
  watching: ReadonlyMap<string, number>,
  defaults: MemberDefaults,
  query: PortalQuery,
): Html {
  const tr = translator(ctx.locale);
  const save = tr('console.save');
  const rows = members.map((m) => {
    const at = (what: string) => paths.operatorMemberAction.href(m.ref, what);
    return html`<tr>
      <td>${m.ref}</td>
      <td>${m.name}</td>
      <td>${actionForm(ctx, at('status'), selectField({ name: 'status', options: MEMBER_STATUSES, current: m.status, label: 'status' }), save)}</td>
      <td>${actionForm(ctx, at('tier'), selectField({ name: 'tier', options: TIERS, current: m.tier, label: 'tier' }), save)}</td>
      <td>
        ${m.agreement_signed_on ?? '—'}
        ${actionForm(ctx, at('agreement'), hiddenField('signed', m.agreement_signed_on ? 'no' : 'yes'), tr(m.agreement_signed_on ? 'console.unsign' : 'console.sign'))}
      </td>
      <td>
        ${actionForm(ctx, at('limit'), html`<input name="daily_limit" inputmode="numeric" size="6" value="${m.key_daily_limit ?? m.active_key?.daily_limit ?? ''}" aria-label="daily_limit" />`, save)}
      </td>
      <td>
        ${actionForm(ctx, at('portal-limit'), html`<input name="portal_daily_limit" inputmode="numeric" size="6" value="${m.portal_daily_limit ?? defaults.portalDailyLimit}" aria-label="portal_daily_limit" />`, save)}
      </td>
      <td>
        ${actionForm(ctx, at('watchlist-cap'), html`<input name="watchlist_cap" size="7" value="${m.watchlist_cap ?? 'default'}" aria-label="watchlist_cap" />`, save)}
        <span class="muted small"
          >${m.watchlist_cap === null ? `${tr('console.default_is', { value: defaults.watchlistCap })} · ` : ''}${tr('console.watching', { count: watching.get(m.ref) ?? 0 })}</span
        >
      </td>
      <td>${m.active_key ? html`${m.active_key.prefix}… ${actionForm(ctx, at('revoke-key'), html``, tr('console.revoke'))}` : '—'}</td>
    </tr>`;
  });
  const add = actionForm(
    ctx,
    paths.operatorMembers.href,
    html`<input name="ref" required aria-label="ref" placeholder="${tr('console.ref')}" />
      <input name="name" required aria-label="name" placeholder="${tr('console.name')}" /> ${selectField({ name: 'tier', options: TIERS, current: 'full', label: 'tier' })}`,
    tr('console.add'),
  );
  return html`${doneNotice(
    ctx,
    query,
    MEMBER_ACTIONS,
    members.map((m) => m.ref),
  )}
    <p>${add}</p>
    ${dataTable({
      columns: [
        tr('console.ref'),
        tr('console.name'),
        tr('console.status'),
        tr('console.tier'),
        tr('console.agreement'),
        tr('console.limit'),
        tr('console.portal_limit'),
        tr('console.watchlist_cap'),
        tr('console.key'),
      ],
      rows,
      className: 'console-members',
    })}`;
}

export function usersBody(ctx: PortalContext, users: readonly UserView[], query: PortalQuery): Html {
  const tr = translator(ctx.locale);
  const byEmail = (what: string, email: string, label: MessageKey) =>
    actionForm(ctx, paths.operatorUserAction.href(what), hiddenField('email', email), tr(label));
  const rows = users.map(
    (u) =>
      html`<tr>
        <td>${u.email}</td>
        <td>${u.name}</td>
        <td>${u.role}</td>
        <td>${u.member ?? '—'}</td>
        <td>${u.status}</td>
        <td>${u.status === 'disabled' ? '' : html`${byEmail('reset', u.email, 'console.reset')} ${byEmail('disable', u.email, 'console.disable')}`}</td>
      </tr>`,
  );
  const invite = actionForm(
    ctx,
    paths.operatorUserAction.href('invite'),
    html`<input name="email" type="email" required aria-label="email" placeholder="${tr('console.email')}" />
      ${selectField({ name: 'role', options: USER_ROLES, current: 'member_user', label: 'role' })}
      <input name="member" aria-label="member" placeholder="${tr('console.member')}" />`,
    tr('console.invite'),
  );
  return html`${doneNotice(
    ctx,
    query,
    USER_ACTIONS,
    users.map((u) => u.email),
  )}
    <p>${invite}</p>
    ${dataTable({ columns: [tr('console.email'), tr('console.name'), tr('console.role'), tr('console.member'), tr('console.status'), ''], rows })}`;
}

/** The one-time link of an invitation or a reset, shown once (`url`: the whole link). */
export function linkBody(ctx: PortalContext, email: string, url: string): Html {
  const tr = translator(ctx.locale);
  return html`<p class="notice ok">${tr('console.link', { email })}</p>
    <p><code id="link">${url}</code> <button type="button" data-copy-target="link">⧉</button></p>
    <p><a href="${paths.operatorUsers.href}">${tr('console.users.title')}</a></p>`;
}
