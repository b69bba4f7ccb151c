/**
 * The operator's report console (D30): the queue of pending reports (GET /portal/operator/queue),
 * approve / reject / deactivate (POST /portal/operator/reports/:id/:step), any company with all
 * its reports and their histories (GET /portal/operator/companies/:id, or by tax ID), and
 * attachment downloads. Operators only: every route is guarded by role.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { DomainError } from '../lib/errors.ts';
import type { ModerationStep } from '../reports/filing-rules.ts';
import { REPORT_STATUSES } from '../reports/lifecycle.ts';
import { moderateReport } from '../reports/moderation.service.ts';
import { findCompanyIdByTaxId, getCompanyFile, listPendingQueue, type ConsoleReport } from '../reports/report-queries.service.ts';
import { sendAttachment } from './attachment-download.ts';
import { formField, portalPathOr } from './forms.ts';
import { portalOf, requireUser } from './guards.ts';
import { html, type Html } from './html.ts';
import { csrfField, redirectTo, renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import type { PortalContext } from './portal-context.ts';
import type { PortalDeps } from './portal-deps.ts';
import { notFoundError } from './portal-errors.ts';
import { idParam, statusLabel } from './report-view.ts';
import { operatorAdminLinks } from './operator-records.routes.ts';

const STEPS: readonly ModerationStep[] = ['approve', 'reject', 'deactivate'];

function stepForm(ctx: PortalContext, reportId: number, step: ModerationStep, returnTo: string): Html {
  const tr = translator(ctx.locale);
  const needsReason = step !== 'approve';
  return html`<form method="post" action="/portal/operator/reports/${reportId}/${step}" class="inline">
    ${csrfField(ctx)}<input type="hidden" name="return_to" value="${returnTo}" />
    <label>${tr('operator.reason')} <input name="reason" maxlength="1000" ${needsReason ? html` required` : ''} /></label
    ><button type="submit">${tr(`operator.${step}` as 'operator.approve')}</button>
  </form>`;
}

function reportCells(ctx: PortalContext, r: ConsoleReport): Html {
  const tr = translator(ctx.locale);
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
      <a href="/portal/operator/companies/${r.company.id}">${r.company.name}</a><br /><small>${r.company.country} ${r.company.taxId} · ${r.company.city}</small>
      ${r.filed ? html`<br /><small class="filed-as">${tr('operator.report.filedAs', { name: r.filed.companyName, city: r.filed.city })}</small>` : ''}
    </td>
    <td>
      ${r.type}${details ? html`<br /><small>${details}</small>` : ''}<br /><small>${r.eventDate ?? ''}</small>
      <p>${r.description}</p>
    </td>
    <td>${statusLabel(tr, r.status)}</td>
    <td>${r.member ? `${r.member.ref} (${r.member.name})` : ''}<br /><small>${r.filedBy?.email ?? ''}</small></td>
    <td>${r.filed_at}</td>
    <td>
      ${r.attachments.map((a) => html`<a href="/portal/operator/attachments/${a.id}">${a.fileName}</a> <small>(${Math.ceil(a.sizeBytes / 1024)} KB)</small><br />`)}
    </td>`;
}

function header(ctx: PortalContext, extra: Html = html``): Html {
  const tr = translator(ctx.locale);
  return html`<thead>
    <tr>
      <th>${tr('reports.col.id')}</th>
      <th>${tr('reports.col.company')}</th>
      <th>${tr('reports.col.type')}</th>
      <th>${tr('reports.col.status')}</th>
      <th>${tr('reports.col.member')}</th>
      <th>${tr('reports.col.filed')}</th>
      <th>${tr('reports.col.attachments')}</th>
      ${extra}
    </tr>
  </thead>`;
}

function doneNotice(ctx: PortalContext, request: FastifyRequest): Html {
  const q = request.query as Record<string, string | undefined>;
  // Only what a moderation step redirects with: a report id and two statuses; anything else, no notice.
  const isStatus = (v: string | undefined): v is string => v !== undefined && (REPORT_STATUSES as readonly string[]).includes(v);
  if (q.done === undefined || !/^\d+$/.test(q.done) || !isStatus(q.from) || !isStatus(q.to)) return html``;
  return html`<p class="notice ok" role="status">${translator(ctx.locale)('operator.done', { id: q.done, from: q.from, to: q.to })}</p>`;
}

export function registerOperatorReportRoutes(scope: App, deps: Pick<PortalDeps, 'db' | 'clock' | 'searchUseCase'>) {
  const guard = { preHandler: requireUser('operator') };

  scope.get('/operator/queue', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const queue = await listPendingQueue(deps.db);
    const rows = queue.map(
      (r) =>
        html`<tr>
          ${reportCells(ctx, r)}
          <td>${stepForm(ctx, r.report_id, 'approve', '/portal/operator/queue')}${stepForm(ctx, r.report_id, 'reject', '/portal/operator/queue')}</td>
        </tr>`,
    );
    const body = html`${doneNotice(ctx, request)}${
      queue.length === 0
        ? html`<p>${tr('operator.queue.empty')}</p>`
        : html`<table>
            ${header(ctx, html`<th>${tr('reports.col.actions')}</th>`)}
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }`;
    return sendPage(reply, renderPage(ctx, { title: tr('operator.queue.title'), body, active: 'operator' }));
  });

  scope.post('/operator/reports/:id/:step', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const step = (request.params as { step?: string }).step as ModerationStep;
    if (!STEPS.includes(step)) throw notFoundError();
    const result = await moderateReport(deps, { kind: 'operator', userId: ctx.user.id }, idParam(request), step, formField(request.body, 'reason'));
    const back = portalPathOr(formField(request.body, 'return_to'), '/portal/operator/queue');
    return redirectTo(reply, `${back}?done=${result.reportId}&from=${result.from}&to=${result.to}`);
  });

  scope.get('/operator/companies', guard, async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const id = await findCompanyIdByTaxId(deps.db, deps.searchUseCase.countries, q.country ?? 'TR', q.tax_id ?? '');
    return redirectTo(reply, `/portal/operator/companies/${id}`);
  });

  scope.get('/operator/companies/:id', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    let file;
    try {
      file = await getCompanyFile(deps.db, idParam(request));
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
      throw error;
    }
    const path = `/portal/operator/companies/${file.company.id}`;
    const rows = file.reports.map((r) => {
      const history = html`<ol>
        ${r.history.map((h) => html`<li>${h.at}: ${h.from ?? '—'} → ${h.to} · ${h.by}${h.reason ? html` · “${h.reason}”` : ''}</li>`)}
      </ol>`;
      const actions =
        r.status === 'pending'
          ? html`${stepForm(ctx, r.report_id, 'approve', path)}${stepForm(ctx, r.report_id, 'reject', path)}`
          : r.status === 'approved'
            ? stepForm(ctx, r.report_id, 'deactivate', path)
            : html``;
      return html`<tr>
        ${reportCells(ctx, r)}
        <td>${history}</td>
        <td>${actions}</td>
      </tr>`;
    });
    const disclosure = `/portal/operator/disclosure?${new URLSearchParams({ country: file.company.country, tax_id: file.company.taxId }).toString()}`;
    const body = html`${doneNotice(ctx, request)}
      <p>${file.company.country} ${file.company.taxId} · ${file.company.city} · <a href="${disclosure}">${tr('disclosure.form.open')}</a></p>
      <p>${tr('operator.company.visible', { count: file.company.visibleReportCount })}</p>
      <p><a href="/portal/operator/disputes/new?country=${file.company.country}&tax_id=${file.company.taxId}">${tr('disputes.queue.record')}</a></p>
      <table>
        ${header(
          ctx,
          html`<th>${tr('reports.col.history')}</th>
            <th>${tr('reports.col.actions')}</th>`,
        )}
        <tbody>
          ${rows}
        </tbody>
      </table>`;
    return sendPage(reply, renderPage(ctx, { title: tr('operator.company.title', { name: file.company.name }), body, active: 'operator' }));
  });

  scope.get('/operator/attachments/:id', guard, async (request, reply) =>
    sendAttachment(reply, deps.db, { kind: 'operator', userId: portalOf(request).user.id }, idParam(request)),
  );
}

/** The console's front page: the queue and a company look-up. */
export function operatorConsoleBody(ctx: PortalContext): Html {
  const tr = translator(ctx.locale);
  return html`<p>${tr('operator.console.intro')}</p>
    <p><a href="/portal/operator/queue">${tr('operator.queue.title')}</a></p>
    <p><a href="/portal/operator/disputes">${tr('disputes.queue.title')}</a></p>
    <form method="get" action="/portal/operator/companies" class="inline">
      <label>${tr('reports.field.country')} <input name="country" value="TR" maxlength="2" size="3" /></label>
      <label>${tr('reports.field.taxId')} <input name="tax_id" required maxlength="40" /></label><button type="submit">${tr('operator.company.open')}</button>
    </form>
    ${operatorAdminLinks(ctx)}`;
}
