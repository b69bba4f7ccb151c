/**
 * The operator's report console (D30), pure page bodies: the console's front page, the queue of
 * pending reports and a company with all its reports and their histories, with the moderation
 * forms. No queries; every value is escaped by the html tag. Routes: ../operator-reports.routes.ts.
 */
import { csrfField, dataTable, hiddenField, notice, reportStatusLabel, type Tr } from '../components.ts';
import { html, type Html } from '../html.ts';
import { translator, type MessageKey } from '../messages/index.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalQuery } from '../portal-query.ts';
import { paths, withQuery } from '../paths.ts';
import { REPORT_STATUSES } from '../../reports/lifecycle.ts';
import type { ModerationStep } from '../../reports/filing-rules.ts';
import type { CompanyFile, ConsoleReport } from '../../reports/report-queries.service.ts';
import { operatorAdminLinks } from './records.page.ts';

export function stepForm(ctx: PortalContext, reportId: number, step: ModerationStep, returnTo: string): Html {
  const tr = translator(ctx.locale);
  const needsReason = step !== 'approve';
  return html`<form method="post" action="${paths.operatorReportStep.href(reportId, step)}" class="inline">
    ${csrfField(ctx)}${hiddenField('return_to', returnTo)}
    <label>${tr('operator.reason')} <input name="reason" maxlength="1000" ${needsReason ? html` required` : ''} /></label
    ><button type="submit">${tr(`operator.${step}` as MessageKey)}</button>
  </form>`;
}

function reportCells(tr: Tr, r: ConsoleReport): Html {
  const details = [
    r.amount !== undefined ? `${r.amount} ${r.currency}` : '',
    r.case
      ? Object.entries(r.case)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')
      : '',
  ]
    .filter((s) => s !== '')
    .join(' · ');
  return html`<td>${r.report_id}</td>
    <td>
      <a href="${paths.operatorCompany.href(r.company.id)}">${r.company.name}</a><br /><small>${r.company.country} ${r.company.taxId} · ${r.company.city}</small>
      ${r.filed ? html`<br /><small class="filed-as">${tr('operator.report.filedAs', { name: r.filed.companyName, city: r.filed.city })}</small>` : ''}
    </td>
    <td>
      ${r.type}${details ? html`<br /><small>${details}</small>` : ''}<br /><small>${r.eventDate ?? ''}</small>
      <p>${r.description}</p>
    </td>
    <td>${reportStatusLabel(tr, r.status)}</td>
    <td>${r.member ? `${r.member.ref} (${r.member.name})` : ''}<br /><small>${r.filedBy?.email ?? ''}</small></td>
    <td>${r.filed_at}</td>
    <td>
      ${r.attachments.map((a) => html`<a href="${paths.operatorAttachment.href(a.id)}">${a.fileName}</a> <small>(${Math.ceil(a.sizeBytes / 1024)} KB)</small><br />`)}
    </td>`;
}

function reportColumns(tr: Tr): string[] {
  return [
    tr('reports.col.id'),
    tr('reports.col.company'),
    tr('reports.col.type'),
    tr('reports.col.status'),
    tr('reports.col.member'),
    tr('reports.col.filed'),
    tr('reports.col.attachments'),
  ];
}

/** What a moderation step redirects with: a report id and two statuses; anything else, no notice. */
export function moderationDoneNotice(tr: Tr, query: PortalQuery): Html | '' {
  const isStatus = (v: string | undefined): v is string => v !== undefined && (REPORT_STATUSES as readonly string[]).includes(v);
  if (query.done === undefined || !/^\d+$/.test(query.done) || !isStatus(query.from) || !isStatus(query.to)) return '';
  return notice('ok', tr('operator.done', { id: query.done, from: query.from, to: query.to }));
}

export function queueBody(ctx: PortalContext, queue: readonly ConsoleReport[], query: PortalQuery): Html {
  const tr = translator(ctx.locale);
  const back = paths.operatorQueue.href;
  const rows = queue.map(
    (r) =>
      html`<tr>
        ${reportCells(tr, r)}
        <td>${stepForm(ctx, r.report_id, 'approve', back)}${stepForm(ctx, r.report_id, 'reject', back)}</td>
      </tr>`,
  );
  return html`${moderationDoneNotice(tr, query)}${
    queue.length === 0
      ? html`<p>${tr('operator.queue.empty')}</p>`
      : dataTable({ columns: [...reportColumns(tr), tr('reports.col.actions')], rows, className: 'reports' })
  }`;
}

export function companyTitle(ctx: PortalContext, file: CompanyFile): string {
  return translator(ctx.locale)('operator.company.title', { name: file.company.name });
}

export function companyBody(ctx: PortalContext, file: CompanyFile, query: PortalQuery): Html {
  const tr = translator(ctx.locale);
  const back = paths.operatorCompany.href(file.company.id);
  const rows = file.reports.map((r) => {
    const history = html`<ol>
      ${r.history.map((h) => html`<li>${h.at}: ${h.from ?? '—'} → ${h.to} · ${h.by}${h.reason ? html` · “${h.reason}”` : ''}</li>`)}
    </ol>`;
    const actions =
      r.status === 'pending'
        ? html`${stepForm(ctx, r.report_id, 'approve', back)}${stepForm(ctx, r.report_id, 'reject', back)}`
        : r.status === 'approved'
          ? stepForm(ctx, r.report_id, 'deactivate', back)
          : html``;
    return html`<tr>
      ${reportCells(tr, r)}
      <td>${history}</td>
      <td>${actions}</td>
    </tr>`;
  });
  const { country, taxId, city } = file.company;
  const disclosure = withQuery(paths.operatorDisclosure.href, { country, tax_id: taxId });
  return html`${moderationDoneNotice(tr, query)}
    <p>${country} ${taxId} · ${city} · <a href="${disclosure}">${tr('disclosure.form.open')}</a></p>
    <p>${tr('operator.company.visible', { count: file.company.visibleReportCount })}</p>
    <p><a href="${withQuery(paths.operatorDisputesNew.href, { country, tax_id: taxId })}">${tr('disputes.queue.record')}</a></p>
    ${dataTable({ columns: [...reportColumns(tr), tr('reports.col.history'), tr('reports.col.actions')], rows, className: 'reports' })}`;
}

/** The console's front page: the queues, a company look-up and the administration pages. */
export function operatorConsoleBody(ctx: PortalContext): Html {
  const tr = translator(ctx.locale);
  return html`<p>${tr('operator.console.intro')}</p>
    <p><a href="${paths.operatorQueue.href}">${tr('operator.queue.title')}</a></p>
    <p><a href="${paths.operatorDisputes.href}">${tr('disputes.queue.title')}</a></p>
    <form method="get" action="${paths.operatorCompanies.href}" class="inline">
      <label>${tr('reports.field.country')} <input name="country" value="TR" maxlength="2" size="3" /></label>
      <label>${tr('reports.field.taxId')} <input name="tax_id" required maxlength="40" /></label><button type="submit">${tr('operator.company.open')}</button>
    </form>
    ${operatorAdminLinks(ctx)}`;
}
