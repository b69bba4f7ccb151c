/**
 * The portal's shared pieces of markup, each written once (issue 29): the CSRF field every form
 * carries, a labelled form field, a hidden field, a select, a notice, a list of refusals, a data
 * table, a copy button, and a report type or status in the reader's words. Pure functions of
 * their arguments; every value is escaped by the html tag unless it is already `Html`.
 */
import type { FastifyRequest } from 'fastify';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import { html, type Html, type HtmlValue } from './html.ts';
import { MESSAGES, type MessageKey, type translator } from './messages/index.ts';

/** The catalogue bound to a page's language (messages/index.ts). */
export type Tr = ReturnType<typeof translator>;

/** Anything that knows the page's CSRF token: a signed-in page's context or the request itself. */
export type CsrfSource = FastifyRequest | { readonly csrfToken: string };

function csrfTokenOf(source: CsrfSource): string {
  return 'raw' in source ? source.portalState.csrfToken : source.csrfToken;
}

/** The hidden field every form carries; the portal checks it on every POST (D27, sessions.hooks.ts). */
export function csrfField(source: CsrfSource): Html {
  return html`<input type="hidden" name="_csrf" value="${csrfTokenOf(source)}" />`;
}

export function hiddenField(name: string, value: string | number): Html {
  return html`<input type="hidden" name="${name}" value="${value}" />`;
}

/**
 * A labelled input: `<label for="ID">LABEL</label><input id="ID" name="NAME" value="VALUE" …>`.
 * `attrs`: further attributes as fixed markup (`html\` required maxlength="40"\``).
 */
export function inputField(spec: { name: string; label: HtmlValue; value?: string; id?: string; attrs?: Html }): Html {
  const id = spec.id ?? `f-${spec.name}`;
  return html`<label for="${id}">${spec.label}</label
    ><input id="${id}" name="${spec.name}" value="${spec.value ?? ''}" ${spec.attrs ?? ''} />`;
}

/** A select of fixed options (their values shown as they are), the current one selected. */
export function selectField(spec: { name: string; options: readonly string[]; current: string; id?: string; label?: string }): Html {
  return html`<select ${spec.id ? html`id="${spec.id}" ` : ''}name="${spec.name}"${spec.label !== undefined ? html` aria-label="${spec.label}"` : ''}>
    ${spec.options.map((o) => html`<option${o === spec.current ? html` selected` : ''}>${o}</option>`)}
  </select>`;
}

/** A status line for the outcome of an action: a polite live region (an error: an alert), so screen readers hear it. */
export function notice(kind: 'ok' | 'error' | 'info', text: string | Html): Html {
  return html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

/** A form's refusals: a heading line and one item a problem; nothing when there are none. */
export function problemsNotice(heading: string, problems: readonly string[]): Html {
  if (problems.length === 0) return html``;
  return html`<div class="notice error" role="alert">
    <p>${heading}</p>
    <ul>
      ${problems.map((p) => html`<li>${p}</li>`)}
    </ul>
  </div>`;
}

/** A column heading (a string or markup), optionally with a class. */
export type Column = HtmlValue | { label: HtmlValue; className: string };

export interface TableSpec {
  columns: readonly Column[];
  /** The body rows, each a `<tr>` (a page writes its own cells: ids, classes, actions). */
  rows: readonly Html[];
  /** Classes beside `data`. */
  className?: string;
  /** A caption shown above the table; or one for screen readers only. */
  caption?: HtmlValue;
  hiddenCaption?: HtmlValue;
  /** Rows of a `<tfoot>` (totals). */
  foot?: Html;
  /** false: not wrapped in the horizontal scroller (a narrow table in a known place). */
  scroll?: boolean;
}

function isLabelled(column: Column): column is { label: HtmlValue; className: string } {
  return typeof column === 'object' && column !== null && !Array.isArray(column) && 'label' in column;
}

/**
 * The one data table: column headings with `scope="col"`, the rows, a caption, a footer; wrapped
 * in `.table-scroll` so that a wide table scrolls on its own instead of widening the page.
 */
export function dataTable(spec: TableSpec): Html {
  const caption =
    spec.caption !== undefined
      ? html`<caption>
          ${spec.caption}
        </caption>`
      : spec.hiddenCaption !== undefined
        ? html`<caption class="visually-hidden">
            ${spec.hiddenCaption}
          </caption>`
        : '';
  const table = html`<table class="data${spec.className ? ` ${spec.className}` : ''}">
    ${caption}
    <thead>
      <tr>
        ${spec.columns.map((c) => (isLabelled(c) ? html`<th scope="col" class="${c.className}">${c.label}</th>` : html`<th scope="col">${c}</th>`))}
      </tr>
    </thead>
    <tbody>
      ${spec.rows}
    </tbody>
    ${spec.foot ? html`<tfoot>${spec.foot}</tfoot>` : ''}
  </table>`;
  return spec.scroll === false ? table : html`<div class="table-scroll">${table}</div>`;
}

/**
 * A copy button for the element with id `targetId` (its text), handled by /portal/assets/portal.js;
 * hidden until that script finds a clipboard, so a page without script shows no dead button.
 */
export function copyButton(targetId: string, label: string, copied: string): Html {
  return html`<button type="button" class="secondary" data-copy-target="${targetId}" data-copied-label="${copied}" hidden>${label}</button>`;
}

/** `YYYY-MM-DD HH:MM` Turkey time (D4). */
export function turkeyMinute(ms: number): string {
  return formatTurkeyDateTime(ms).slice(0, 16);
}

/** A report type in the reader's words where the catalogue has them, else its API name (D14). */
export function reportTypeLabel(tr: Tr, type: string): string {
  const key = `search.type.${type}`;
  return key in MESSAGES ? tr(key as MessageKey) : type;
}

/** A report's status in the reader's words. */
export function reportStatusLabel(tr: Tr, status: ReportStatus): string {
  return tr(`reports.status.${status}`);
}
