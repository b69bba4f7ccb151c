/**
 * A member's reports (D29), pure page bodies: "My reports" with the withdraw form, and "File a
 * report" with its refusals. No queries; every value is escaped by the html tag. Routes:
 * ../reports.routes.ts.
 */
import { csrfField, dataTable, inputField, notice, problemsNotice, reportStatusLabel, reportTypeLabel } from '../components.ts';
import { html, type Html } from '../html.ts';
import { translator, type MessageKey } from '../messages/index.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalQuery } from '../portal-query.ts';
import { paths } from '../paths.ts';
import { FILABLE_TYPES } from '../../reports/filing-input.ts';
import type { MyReport } from '../../reports/report-queries.service.ts';
import { CASE_FIELDS, COURT_DECISION_DATE_TYPES } from '../../reports/report-types.ts';

const CASE_INPUTS = [...new Set(Object.values(CASE_FIELDS).flat())];

/** The types that ask for a case field (D14), for the form's script to show only the chosen type's fields. */
const TYPES_OF_CASE_FIELD = (field: string) =>
  Object.entries(CASE_FIELDS)
    .filter(([, fields]) => fields.includes(field))
    .map(([type]) => type)
    .join(' ');

/** The filing form, filled with `values` (a refused filing's) and its refusals. */
export function filingFormBody(
  ctx: PortalContext,
  countryCodes: readonly string[],
  values: Readonly<Record<string, string>>,
  problems: readonly string[],
): Html {
  const tr = translator(ctx.locale);
  const v = (name: string) => values[name] ?? '';
  /** `label`: a catalogue key. */
  const input = (name: string, label: MessageKey, attrs?: Html) => inputField({ name, label: tr(label), value: v(name), ...(attrs ? { attrs } : {}) });
  const country = v('country') || 'TR';
  return html`<p>${tr('reports.new.intro')}</p>
    ${problemsNotice(tr('reports.refused'), problems)}
    <form method="post" action="${paths.reports.href}" enctype="multipart/form-data" class="stack">
      ${csrfField(ctx)} ${input('company_name', 'reports.field.company', html` required maxlength="300"`)}
      ${input('tax_id', 'reports.field.taxId', html` required maxlength="40" autocomplete="off"`)}
      <span class="hint" id="tax-id-hint" aria-live="polite"></span> <label for="f-country">${tr('reports.field.country')}</label
      ><select id="f-country" name="country">
        ${countryCodes.map((c) => html`<option${c === country ? html` selected` : ''}>${c}</option>`)}
      </select>
      ${input('city', 'reports.field.city', html` required maxlength="100"`)}
      <label for="f-type">${tr('reports.field.type')}</label
      ><select id="f-type" name="type">
        ${FILABLE_TYPES.map((t) => html`<option value="${t}"${t === v('type') ? html` selected` : ''}>${reportTypeLabel(tr, t)}</option>`)}
      </select>
      ${input('event_date', 'reports.field.eventDate', html` type="date" required`)} ${input('amount', 'reports.field.amount', html` inputmode="decimal"`)}
      ${input('currency', 'reports.field.currency', html` maxlength="3" placeholder="TRY"`)}
      <fieldset>
        <legend>${tr('reports.field.case')}</legend>
        ${CASE_INPUTS.map((k) => html`<div data-types="${TYPES_OF_CASE_FIELD(k)}">${input(`case_${k}`, `case.${k}` as MessageKey)}</div>`)}
      </fieldset>
      <div data-types="${[...COURT_DECISION_DATE_TYPES].join(' ')}">
        ${input('court_decision_date', 'reports.field.courtDecisionDate', html` type="date"`)}
      </div>
      <label for="f-description">${tr('reports.field.description')}</label
      ><textarea id="f-description" name="description" maxlength="2000" rows="5" required>${v('description')}</textarea>
      <label for="f-attachments">${tr('reports.field.attachments')}</label
      ><input id="f-attachments" type="file" name="attachments" multiple accept="application/pdf,image/png,image/jpeg" />
      <button type="submit">${tr('reports.submit')}</button>
    </form>
    <script src="${paths.taxIdCheckScript.href}" defer></script>`;
}

/**
 * "My reports". `?filed=ID` / `?withdrawn=ID` say what was just done, only for a report of this
 * member in the state it claims: a link cannot put words in the notice.
 */
export function myReportsBody(ctx: PortalContext, reports: readonly MyReport[], query: PortalQuery): Html {
  const tr = translator(ctx.locale);
  const mine = (id: string | undefined) => (id !== undefined && /^\d+$/.test(id) ? reports.find((r) => r.report_id === Number(id)) : undefined);
  const filed = mine(query.filed);
  const withdrawn = mine(query.withdrawn);
  const done = filed
    ? tr('reports.mine.filed', { id: filed.report_id })
    : withdrawn?.status === 'withdrawn'
      ? tr('reports.mine.withdrawn', { id: withdrawn.report_id })
      : null;
  const rows = reports.map(
    (r) =>
      html`<tr>
        <td>${r.report_id}</td>
        <td>${r.company.name}<br /><small>${r.company.country} ${r.company.taxId}</small></td>
        <td>${r.type}</td>
        <td>
          ${reportStatusLabel(tr, r.status)}${r.disputed ? html`<br /><a class="badge" href="${paths.disputes.href}">${tr('disputes.mine.badge')}</a>` : ''}
        </td>
        <td>${r.filed_at}</td>
        <td>${r.latest.reason ?? ''}</td>
        <td>${r.attachments.map((a) => html`<a href="${paths.reportAttachment.href(a.id)}">${a.fileName}</a> `)}</td>
        <td>
          ${
            r.status === 'pending' || r.status === 'approved'
              ? html`<form method="post" action="${paths.reportWithdraw.href(r.report_id)}" class="inline">
                  ${csrfField(ctx)}<label>${tr('reports.withdraw.note')} <input name="note" required maxlength="1000" /></label
                  ><button type="submit">${tr('reports.withdraw')}</button>
                </form>`
              : ''
          }
        </td>
      </tr>`,
  );
  return html`${done ? notice('ok', done) : ''}
    <p><a href="${paths.reportsNew.href}">${tr('reports.new.title')}</a></p>
    ${
      reports.length === 0
        ? html`<p>${tr('reports.mine.empty')}</p>`
        : dataTable({
            columns: [
              tr('reports.col.id'),
              tr('reports.col.company'),
              tr('reports.col.type'),
              tr('reports.col.status'),
              tr('reports.col.filed'),
              tr('reports.col.reason'),
              tr('reports.col.attachments'),
              tr('reports.col.actions'),
            ],
            rows,
          })
    }`;
}
