/**
 * A member's reports (D29): "My reports" (GET /portal/reports), "File a report"
 * (GET /portal/reports/new, POST /portal/reports as multipart with up to 3 files), withdrawing
 * (POST /portal/reports/:id/withdraw) and its attachments (GET /portal/reports/attachments/:id).
 * The services decide everything; these pages only read forms and show answers.
 */
import multipart from '@fastify/multipart';
import type { App } from '../http/app-type.ts';
import type { Html } from './html.ts';
import type { PortalContext } from './portal-context.ts';
import { DomainError, statusOf } from '../lib/errors.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../reports/attachments.ts';
import type { FilingInput } from '../reports/filing-input.ts';
import { CASE_FIELDS } from '../reports/report-types.ts';
import { sendAttachment } from './attachment-download.ts';
import { formField } from './forms.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { redirectTo, renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { filingFormBody, myReportsBody } from './member/reports.page.ts';
import { fieldOf, multipartBodyOf, uploadsOf, type MultipartBody } from './multipart-form.ts';
import { IdParams, idOf } from './params.ts';
import { paths } from './paths.ts';
import type { PortalDeps } from './portal-deps.ts';
import { portalQueryOf } from './portal-query.ts';
import { domainErrorTexts } from './problem-text.ts';
import { registerTaxIdCheck } from './tax-id-check.ts';

const MEMBER_ROLES = ['member_admin', 'member_user'] as const;

function filingOf(body: MultipartBody): FilingInput {
  const f = (name: string) => fieldOf(body, name);
  const type = f('type');
  const caseFields = CASE_FIELDS[type as keyof typeof CASE_FIELDS];
  return {
    companyName: f('company_name'),
    taxId: f('tax_id'),
    country: f('country'),
    city: f('city'),
    type,
    eventDate: f('event_date'),
    amount: f('amount'),
    currency: f('currency'),
    description: f('description'),
    courtDecisionDate: f('court_decision_date'),
    case: caseFields ? Object.fromEntries(caseFields.map((k) => [k, f(`case_${k}`)])) : null,
  };
}

function plainValues(body: MultipartBody): Record<string, string> {
  return Object.fromEntries(
    Object.keys(body)
      .filter((k) => k !== '_csrf' && k !== 'attachments')
      .map((k) => [k, fieldOf(body, k)]),
  );
}

export function registerReportRoutes(scope: App, deps: Pick<PortalDeps, 'countryCodes' | 'searchUseCase' | 'services'>) {
  const guard = { preHandler: requireUser(...MEMBER_ROLES) };
  registerTaxIdCheck(scope, deps.searchUseCase.countries);
  const withId = { ...guard, schema: { params: IdParams } };
  const filingPage = (ctx: PortalContext, body: Html) => renderPage(ctx, { title: translator(ctx.locale)('reports.new.title'), body, active: 'reports' });

  scope.get(paths.reports.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const body = myReportsBody(ctx, await deps.services.reports.listMine(actorOf(request)), portalQueryOf(request));
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('reports.mine.title'), body, active: 'reports' }));
  });

  scope.get(paths.reportsNew.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    return sendPage(reply, filingPage(ctx, filingFormBody(ctx, deps.countryCodes, {}, [])));
  });

  scope.get(paths.reportAttachment.route, withId, async (request, reply) => {
    return sendAttachment(reply, () => deps.services.reports.attachment(actorOf(request), { attachmentId: idOf(request.params.id) }));
  });

  scope.post(paths.reportWithdraw.route, withId, async (request, reply) => {
    const id = idOf(request.params.id);
    await deps.services.moderation.withdraw(actorOf(request), { reportId: id, note: formField(request.body, 'note') });
    return redirectTo(reply, `${paths.reports.href}?withdrawn=${id}`);
  });

  // The filing form is multipart (files): its own scope, so that only this route parses it.
  scope.register(async (child) => {
    // Refuse before the body is read: up to 15 MB of files are parsed before any preHandler runs.
    child.addHook('onRequest', requireUser(...MEMBER_ROLES));
    await child.register(multipart, {
      attachFieldsToBody: true,
      throwFileSizeLimit: false,
      // One byte over the limit is enough for the service to refuse the file by name.
      limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: MAX_ATTACHMENTS, fields: 40, fieldSize: 8 * 1024, parts: 50 },
    });
    child.post(paths.reports.route, { ...guard, bodyLimit: (MAX_ATTACHMENT_BYTES + 64 * 1024) * MAX_ATTACHMENTS }, async (request, reply) => {
      const ctx = portalOf(request);
      const body = multipartBodyOf(request);
      try {
        const filed = await deps.services.filing.file(actorOf(request), { ...filingOf(body), attachments: await uploadsOf(body) });
        return redirectTo(reply, `${paths.reports.href}?filed=${filed.reportId}`);
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind === 'not_found') throw error;
        const form = filingFormBody(ctx, deps.countryCodes, plainValues(body), domainErrorTexts(ctx.locale, error));
        return sendPage(reply, filingPage(ctx, form), statusOf(error));
      }
    });
  });
}
