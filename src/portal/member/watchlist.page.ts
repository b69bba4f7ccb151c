/**
 * GET /portal/watchlist and the answers of its actions (D31): the member's watched companies by
 * country and tax ID with the time each was added (no threat level, no report count: watching
 * never tells whether a company has records), a remove button per row, the add form, how many
 * of the cap are used, and paging. Also the search page's "Watch" button. Pure: a view model in,
 * HTML out.
 */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { WatchEntry } from '../../watchlist/watchlist.service.ts';
import { csrfField, dataTable, notice } from '../components.ts';
import { memberText } from './text.ts';
import { paths } from '../paths.ts';

export type WatchlistFlash = { kind: 'added' | 'already' | 'removed' | 'not_on'; country: string; taxId: string } | { kind: 'error'; message: string } | null;

export interface WatchlistModel {
  readonly entries: readonly WatchEntry[];
  readonly watchCount: number;
  readonly cap: number;
  /** The cursor of this page (null on the first) and of the next (null on the last). */
  readonly after: string | null;
  readonly nextCursor: string | null;
  readonly flash: WatchlistFlash;
  /** The add form as last typed (kept after a refusal). */
  readonly form: { readonly country: string; readonly taxId: string };
  readonly countries: ReadonlyArray<{ code: string; name: string }>;
}

/** The POST form that adds one company; on a search result it shows the company's name to screen readers. */
export function watchButton(ctx: PortalContext, country: string, taxId: string, name: string): Html {
  const t = memberText(ctx.locale);
  return html`<form method="post" action="${paths.watchlist.href}" class="watch-form">
    ${csrfField(ctx)}<input type="hidden" name="country" value="${country}" /><input type="hidden" name="tax_id" value="${taxId}" /><button
      type="submit"
      class="secondary small"
      aria-label="${t('watchlist.watch_for', { name })}"
    >
      ${t('watchlist.watch')}
    </button>
  </form>`;
}

/** What the search page shows on a result already watched. */
export function watchingMark(ctx: PortalContext): Html {
  return html`<p class="watching"><span class="state state-ok">${memberText(ctx.locale)('watchlist.watching')}</span> · <a href="${paths.watchlist.href}">${memberText(ctx.locale)('watchlist.nav')}</a></p>`;
}

function row(ctx: PortalContext, entry: WatchEntry): Html {
  const t = memberText(ctx.locale);
  return html`<tr>
    <td class="mono">${entry.country}</td>
    <td class="mono">${entry.tax_id}</td>
    <td class="nowrap">${entry.added_at.slice(0, 16)}</td>
    <td>
      <form method="post" action="${paths.watchlistRemove.href}">
        ${csrfField(ctx)}<input type="hidden" name="country" value="${entry.country}" /><input type="hidden" name="tax_id" value="${entry.tax_id}" /><button
          type="submit"
          class="danger small"
          aria-label="${t('watchlist.remove_for', { country: entry.country, tax_id: entry.tax_id })}"
        >
          ${t('watchlist.remove')}
        </button>
      </form>
    </td>
  </tr>`;
}

function addForm(ctx: PortalContext, model: WatchlistModel): Html {
  const t = memberText(ctx.locale);
  if (model.watchCount >= model.cap) return notice('info', t('watchlist.full', { cap: model.cap }));
  return html`<form method="post" action="${paths.watchlist.href}" class="search-form">
    ${csrfField(ctx)}
    <div class="field">
      <label for="watch-country">${t('watchlist.country')}</label
      ><select id="watch-country" name="country">
        ${model.countries.map((c) => html`<option value="${c.code}" ${c.code === (model.form.country || 'TR') ? ' selected' : ''}>${c.code} — ${c.name}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="watch-tax-id">${t('watchlist.tax_id')}</label
      ><input id="watch-tax-id" name="tax_id" type="text" required maxlength="60" autocomplete="off" spellcheck="false" value="${model.form.taxId}" />
    </div>
    <div class="field field-button"><button type="submit">${t('watchlist.add')}</button></div>
  </form>
  <p class="muted small">${t('watchlist.add_hint')}</p>`;
}

function flashOf(ctx: PortalContext, flash: WatchlistFlash): Html | string {
  const t = memberText(ctx.locale);
  if (flash === null) return '';
  if (flash.kind === 'error') return notice('error', flash.message);
  const key = ({ added: 'watchlist.added', already: 'watchlist.already', removed: 'watchlist.removed', not_on: 'watchlist.not_on' } as const)[flash.kind];
  return notice(flash.kind === 'not_on' ? 'info' : 'ok', t(key, { country: flash.country, tax_id: flash.taxId }));
}

function pager(ctx: PortalContext, model: WatchlistModel): Html | string {
  const t = memberText(ctx.locale);
  if (model.after === null && model.nextCursor === null) return '';
  return html`<nav class="pager" aria-label="${t('watchlist.title')}">
    ${model.after !== null ? html`<a href="${paths.watchlist.href}">${t('watchlist.first')}</a>` : ''}
    ${model.nextCursor !== null ? html`<a href="${paths.watchlist.href}?after=${encodeURIComponent(model.nextCursor)}" rel="next">${t('watchlist.next')}</a>` : ''}
  </nav>`;
}

export function watchlistBody(ctx: PortalContext, model: WatchlistModel): Html {
  const t = memberText(ctx.locale);
  return html`${flashOf(ctx, model.flash)}
    <p>${t('watchlist.intro')}</p>
    <p class="watch-room"><strong>${t('watchlist.room', { count: model.watchCount, cap: model.cap })}</strong></p>
    ${
      model.entries.length === 0 && model.after === null
        ? html`<p>${t('watchlist.none')}</p>`
        : dataTable({
            hiddenCaption: t('watchlist.title'),
            columns: [t('watchlist.country'), t('watchlist.tax_id'), t('watchlist.since'), t('watchlist.actions')],
            rows: model.entries.map((e) => row(ctx, e)),
          })
    }
    ${pager(ctx, model)}
    <h2>${t('watchlist.add_title')}</h2>
    ${addForm(ctx, model)}`;
}
