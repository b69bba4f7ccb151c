/**
 * The disclosure in the console (D34): for a company by country and tax ID, what is held on it,
 * as a page (GET /portal/operator/disclosure) and as a PDF download (GET
 * /portal/operator/disclosure.pdf), in the operator's language. Operators only; every print is in
 * the operator log (disclosure.service.ts). Without a tax ID the page asks for one.
 */
import type { FastifyRequest } from 'fastify';
import { printDisclosure } from '../disclosure/disclosure.service.ts';
import { disputesForDisclosure } from '../disputes/disputes.repository.ts';
import type { App } from '../http/app-type.ts';
import { portalOf, requireUser } from './guards.ts';
import { html } from './html.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { disclosureBody, disclosureTitle } from './operator/disclosure.page.ts';
import { renderDisclosurePdf } from './operator/disclosure.pdf.ts';
import type { PortalContext } from './portal-context.ts';
import type { PortalDeps } from './portal-deps.ts';

export const DISCLOSURE_PATH = '/portal/operator/disclosure';

function companyOf(request: FastifyRequest): { country: string; taxId: string } {
  const q = request.query as Record<string, string | undefined>;
  return { country: (q.country ?? 'TR').trim(), taxId: (q.tax_id ?? '').trim() };
}

/** The form that asks for the company (the console's front page shows it too). */
export function disclosureForm(ctx: PortalContext, value = { country: 'TR', taxId: '' }) {
  const tr = translator(ctx.locale);
  return html`<form method="get" action="${DISCLOSURE_PATH}" class="inline">
    <label>${tr('reports.field.country')} <input name="country" value="${value.country}" maxlength="2" size="3" /></label>
    <label>${tr('reports.field.taxId')} <input name="tax_id" value="${value.taxId}" required maxlength="40" /></label
    ><button type="submit">${tr('disclosure.form.open')}</button>
  </form>`;
}

export function registerOperatorDisclosureRoutes(scope: App, deps: Pick<PortalDeps, 'db' | 'clock' | 'config' | 'searchUseCase'>) {
  const guard = { preHandler: requireUser('operator') };
  const serviceDeps = {
    db: deps.db,
    clock: deps.clock,
    countries: deps.searchUseCase.countries,
    retention: deps.config.retention,
    disputes: disputesForDisclosure,
  };

  scope.get('/operator/disclosure', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const company = companyOf(request);
    if (company.taxId === '') {
      const body = html`<p>${tr('disclosure.form.intro')}</p>
        ${disclosureForm(ctx)}`;
      return sendPage(reply, renderPage(ctx, { title: tr('disclosure.form.title'), body, active: 'operator' }));
    }
    const view = await printDisclosure(serviceDeps, { userId: ctx.user.id }, company, 'page');
    const pdfHref = `${DISCLOSURE_PATH}.pdf?${new URLSearchParams({ country: company.country, tax_id: company.taxId }).toString()}`;
    const body = disclosureBody(view, ctx.locale, pdfHref);
    return sendPage(reply, renderPage(ctx, { title: disclosureTitle(view, ctx.locale), body, active: 'operator' }));
  });

  scope.get('/operator/disclosure.pdf', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const company = companyOf(request);
    const view = await printDisclosure(serviceDeps, { userId: ctx.user.id }, company, 'pdf');
    const pdf = await renderDisclosurePdf(view, ctx.locale);
    const name = `disclosure-${view.company.country}-${view.company.taxId}-${view.printedAt.slice(0, 10)}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
