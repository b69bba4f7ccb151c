/**
 * The console's disclosure page (D34): what is held on a company, laid out from the worded
 * document (disclosure-document.ts). A pure page body, no queries; every value is escaped by the
 * html tag. The route (after issue 29) renders it with `renderPage(ctx, { title, body })`.
 */
import { html, type Html } from '../html.ts';
import { dataTable, notice } from '../components.ts';
import { t, translator } from '../messages/index.ts';
import { paths } from '../paths.ts';
import type { DisclosureView } from '../../disclosure/disclosure-view.ts';
import type { Locale, PortalContext } from '../portal-context.ts';
import { wordDisclosure, type WordedFact, type WordedReport } from './disclosure-document.ts';

function facts(list: readonly WordedFact[]): Html {
  return html`<dl class="facts">
    ${list.map(
      (f) => html`<dt>${f.label}</dt>
        <dd>${f.value}</dd>`,
    )}
  </dl>`;
}

function reportSection(r: WordedReport): Html {
  const { history } = r;
  return html`<section class="held-report" aria-labelledby="held-${r.id}">
    <h2 id="held-${r.id}">${r.heading}</h2>
    ${facts(r.facts)}
    ${
      r.description &&
      html`<h3>${r.description.label}</h3>
      <p class="free-text">${r.description.value}</p>`
    }
    ${dataTable({
      caption: history.heading,
      columns: history.columns,
      rows: history.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`),
    })}
    ${r.disputes.map(
      (d) => html`<h3>${d.heading}</h3>
        ${facts(d.facts)}`,
    )}
  </section>`;
}

export function disclosureTitle(view: DisclosureView, locale: Locale): string {
  return t(locale, 'disclosure.title', { name: view.company.name });
}

/** The page body; `pdfHref`: where the same document downloads as a PDF (null: no link). */
export function disclosureBody(view: DisclosureView, locale: Locale, pdfHref: string | null): Html {
  const doc = wordDisclosure(view, locale);
  const { lookups } = doc;
  return html`${notice('info', t(locale, 'disclosure.review'))}
    <p>${doc.intro}</p>
    <p>${doc.printed}</p>
    ${pdfHref && html`<p><a href="${pdfHref}" download>${t(locale, 'disclosure.pdf')}</a></p>`} ${facts(doc.company)}
    <p><strong>${doc.summary}</strong></p>
    ${doc.none && html`<p>${doc.none}</p>`} ${doc.reports.map(reportSection)}
    <section aria-labelledby="held-lookups">
      <h2 id="held-lookups">${lookups.heading}</h2>
      <p>${lookups.note}</p>
      ${dataTable({
        columns: lookups.columns,
        rows: lookups.rows.map(([month, count]) => html`<tr><th scope="row">${month}</th><td>${count}</td></tr>`),
        foot: html`<tr>
          <th scope="row">${lookups.total[0]}</th>
          <td>${lookups.total[1]}</td>
        </tr>`,
      })}
    </section>`;
}

/** The form that asks for the company (GET, so that the page can be linked to). */
export function disclosureForm(ctx: PortalContext, value = { country: 'TR', taxId: '' }): Html {
  const tr = translator(ctx.locale);
  return html`<form method="get" action="${paths.operatorDisclosure.href}" class="inline">
    <label>${tr('reports.field.country')} <input name="country" value="${value.country}" maxlength="2" size="3" /></label>
    <label>${tr('reports.field.taxId')} <input name="tax_id" value="${value.taxId}" required maxlength="40" /></label
    ><button type="submit">${tr('disclosure.form.open')}</button>
  </form>`;
}

/** The page without a company: what it is for, and the form. */
export function disclosureAskBody(ctx: PortalContext): Html {
  return html`<p>${translator(ctx.locale)('disclosure.form.intro')}</p>
    ${disclosureForm(ctx)}`;
}
