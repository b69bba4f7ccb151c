/**
 * The console's disclosure page (D34): what is held on a company, laid out from the worded
 * document (disclosure-document.ts). A pure page body, no queries; every value is escaped by the
 * html tag. The route (after issue 29) renders it with `renderPage(ctx, { title, body })`.
 */
import { html, type Html } from '../html.ts';
import { notice } from '../member/page-parts.ts';
import { t } from '../messages/index.ts';
import type { DisclosureView } from '../../disclosure/disclosure-view.ts';
import type { Locale } from '../portal-context.ts';
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
    <table class="data">
      <caption>
        ${history.heading}
      </caption>
      <thead>
        <tr>
          ${history.columns.map((c) => html`<th scope="col">${c}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${history.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}
      </tbody>
    </table>
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
      <table class="data">
        <thead>
          <tr>
            <th scope="col">${lookups.columns[0]}</th>
            <th scope="col">${lookups.columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          ${lookups.rows.map(([month, count]) => html`<tr><th scope="row">${month}</th><td>${count}</td></tr>`)}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">${lookups.total[0]}</th>
            <td>${lookups.total[1]}</td>
          </tr>
        </tfoot>
      </table>
    </section>`;
}
