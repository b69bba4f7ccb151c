/**
 * The operator's report console (D30): the queue of pending reports (GET /portal/operator/queue),
 * approve / reject / deactivate (POST /portal/operator/reports/:id/:step), any company with all
 * its reports and their histories (GET /portal/operator/companies/:id, or by tax ID), and
 * attachment downloads. Operators only: every route is guarded by role. Pages: operator/reports.page.ts.
 */
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { DomainError } from '../lib/errors.ts';
import type { ModerationStep } from '../reports/filing-rules.ts';
import { sendAttachment } from './attachment-download.ts';
import { formField, portalPathOr } from './forms.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { redirectTo, renderPage, sendPage } from './layout.ts';
import { translator } from './messages/index.ts';
import { companyBody, companyTitle, queueBody } from './operator/reports.page.ts';
import { IdParams, idOf } from './params.ts';
import { paths } from './paths.ts';
import type { PortalDeps } from './portal-deps.ts';
import { notFoundError } from './portal-errors.ts';
import { portalQueryOf } from './portal-query.ts';

const STEPS: readonly ModerationStep[] = ['approve', 'reject', 'deactivate'];

const StepParams = Type.Object({ id: Type.String(), step: Type.String() });
const CompanyQuery = Type.Object({ country: Type.Optional(Type.String()), tax_id: Type.Optional(Type.String()) });

export function registerOperatorReportRoutes(scope: App, deps: Pick<PortalDeps, 'services'>) {
  const { reports, moderation } = deps.services;
  const guard = { preHandler: requireUser('operator') };
  const withId = { ...guard, schema: { params: IdParams } };

  scope.get(paths.operatorQueue.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const body = queueBody(ctx, await reports.pendingQueue(actorOf(request)), portalQueryOf(request));
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('operator.queue.title'), body, active: 'operator' }));
  });

  scope.post(paths.operatorReportStep.route, { ...guard, schema: { params: StepParams } }, async (request, reply) => {
    const step = request.params.step as ModerationStep;
    if (!STEPS.includes(step)) throw notFoundError();
    const result = await moderation.moderate(actorOf(request), { reportId: idOf(request.params.id), step, reason: formField(request.body, 'reason') });
    const back = portalPathOr(formField(request.body, 'return_to'), paths.operatorQueue.href);
    return redirectTo(reply, `${back}?done=${result.reportId}&from=${result.from}&to=${result.to}`);
  });

  scope.get(paths.operatorCompanies.route, { ...guard, schema: { querystring: CompanyQuery } }, async (request, reply) => {
    const q = request.query;
    const id = await reports.findCompanyId(actorOf(request), { country: q.country ?? 'TR', taxId: q.tax_id ?? '' });
    return redirectTo(reply, paths.operatorCompany.href(id));
  });

  scope.get(paths.operatorCompany.route, withId, async (request, reply) => {
    const ctx = portalOf(request);
    let file;
    try {
      file = await reports.companyFile(actorOf(request), { companyId: idOf(request.params.id) });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
      throw error;
    }
    const body = companyBody(ctx, file, portalQueryOf(request));
    return sendPage(reply, renderPage(ctx, { title: companyTitle(ctx, file), body, active: 'operator' }));
  });

  scope.get(paths.operatorAttachment.route, withId, async (request, reply) =>
    sendAttachment(reply, () => reports.attachment(actorOf(request), { attachmentId: idOf(request.params.id) })),
  );
}
