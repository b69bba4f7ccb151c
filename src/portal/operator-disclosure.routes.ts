/**
 * The disclosure in the console (D34): for a company by country and tax ID, what is held on it,
 * as a page (GET /portal/operator/disclosure) and as a PDF download (GET
 * /portal/operator/disclosure.pdf), in the operator's language. Operators only; every print is in
 * the operator log (disclosure.service.ts). Without a tax ID the page asks for one.
 */
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import type { Services } from '../services.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { disclosureAskBody, disclosureBody, disclosureTitle } from './operator/disclosure.page.ts';
import { renderDisclosurePdf } from './operator/disclosure.pdf.ts';
import { paths, withQuery } from './paths.ts';

const CompanyQuery = Type.Object({ country: Type.Optional(Type.String()), tax_id: Type.Optional(Type.String()) });

function companyOf(query: { country?: string; tax_id?: string }): { country: string; taxId: string } {
  return { country: (query.country ?? 'TR').trim(), taxId: (query.tax_id ?? '').trim() };
}

export function registerOperatorDisclosureRoutes(scope: App, deps: { services: Pick<Services, 'disclosure'> }) {
  const guard = { preHandler: requireUser('operator') };
  const { disclosure } = deps.services;

  const withCompany = { ...guard, schema: { querystring: CompanyQuery } };

  scope.get(paths.operatorDisclosure.route, withCompany, async (request, reply) => {
    const ctx = portalOf(request);
    const company = companyOf(request.query);
    if (company.taxId === '') {
      return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('disclosure.form.title'), body: disclosureAskBody(ctx), active: 'operator' }));
    }
    const view = await disclosure.print(actorOf(request), { ...company, form: 'page' });
    const pdfHref = withQuery(paths.operatorDisclosurePdf.href, { country: company.country, tax_id: company.taxId });
    const body = disclosureBody(view, ctx.locale, pdfHref);
    return sendPage(reply, renderPage(ctx, { title: disclosureTitle(view, ctx.locale), body, active: 'operator' }));
  });

  scope.get(paths.operatorDisclosurePdf.route, withCompany, async (request, reply) => {
    const ctx = portalOf(request);
    const company = companyOf(request.query);
    const view = await disclosure.print(actorOf(request), { ...company, form: 'pdf' });
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
