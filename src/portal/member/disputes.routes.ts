/**
 * The filing member's side of a dispute (D33): GET /portal/disputes (every dispute over the
 * member's reports), POST /portal/disputes/:id/reports/:report/support (multipart: text and up to
 * 3 documents), POST …/withdraw (a note), and GET /portal/disputes/attachments/:id (the member's
 * own documents). Members' users only; a dispute over another member's reports is a 404.
 */
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { DomainError, statusOf } from '../../lib/errors.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../../reports/attachments.ts';
import { formField } from '../forms.ts';
import { actorOf, portalOf, requireUser } from '../guards.ts';
import { redirectTo, renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { notFoundError } from '../portal-errors.ts';
import { domainErrorTexts } from '../problem-text.ts';
import { fieldOf, multipartBodyOf, uploadsOf } from '../multipart-form.ts';
import { IdParams, idOf } from '../params.ts';
import { paths } from '../paths.ts';
import { portalQueryOf } from '../portal-query.ts';
import { sendDownload } from '../attachment-download.ts';
import { myDisputesBody, type MemberDisputeFlash } from './disputes.page.ts';
import { memberText } from './text.ts';

const MEMBERS = ['member_admin', 'member_user'] as const;
type Deps = Pick<PortalDeps, 'services'>;

const ReportParams = Type.Object({ id: Type.String(), report: Type.String() });

async function showDisputes(request: FastifyRequest, reply: FastifyReply, deps: Deps, flash: MemberDisputeFlash, status = 200) {
  const ctx = portalOf(request);
  const disputes = await deps.services.disputes.listMine(actorOf(request));
  return sendPage(
    reply,
    renderPage(ctx, { title: memberText(ctx.locale)('disputes.mine.title'), body: myDisputesBody(ctx, disputes, flash), active: 'disputes' }),
    status,
  );
}

/** A refused step shown on the page with its words; a dispute the member may not know of is the 404 page. */
async function refused(request: FastifyRequest, reply: FastifyReply, deps: Deps, error: unknown, disputeId: number) {
  if (!(error instanceof DomainError) || error.kind === 'not_found' || error.kind === 'forbidden') {
    if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
    throw error;
  }
  const problems = domainErrorTexts(portalOf(request).locale, error);
  return showDisputes(request, reply, deps, { done: null, disputeId, problems }, statusOf(error));
}

export function registerMemberDisputeRoutes(scope: App, deps: Deps) {
  const guard = { preHandler: requireUser(...MEMBERS) };

  scope.get(paths.disputes.route, guard, async (request, reply) => {
    const done = portalQueryOf(request).done;
    return showDisputes(request, reply, deps, { done: done === 'support' || done === 'withdraw' ? done : null, disputeId: null, problems: [] });
  });

  scope.post(paths.disputeReportWithdraw.route, { ...guard, schema: { params: ReportParams } }, async (request, reply) => {
    const id = idOf(request.params.id);
    try {
      await deps.services.disputes.withdraw(actorOf(request), { disputeId: id, reportId: idOf(request.params.report), note: formField(request.body, 'note') });
    } catch (error) {
      return refused(request, reply, deps, error, id);
    }
    return redirectTo(reply, `${paths.disputes.href}?done=withdraw`);
  });

  scope.get(paths.disputeAttachment.route, { ...guard, schema: { params: IdParams } }, async (request, reply) =>
    sendDownload(reply, () => deps.services.disputes.attachment(actorOf(request), { attachmentId: idOf(request.params.id) })),
  );

  // Support carries documents: multipart, in its own scope (as filing does), refused before the body is read.
  scope.register(async (child) => {
    child.addHook('onRequest', requireUser(...MEMBERS));
    await child.register(multipart, {
      attachFieldsToBody: true,
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: MAX_ATTACHMENTS, fields: 10, fieldSize: 8 * 1024, parts: 20 },
    });
    child
      .withTypeProvider<TypeBoxTypeProvider>()
      .post(
        paths.disputeReportSupport.route,
        { ...guard, bodyLimit: (MAX_ATTACHMENT_BYTES + 64 * 1024) * MAX_ATTACHMENTS, schema: { params: ReportParams } },
        async (request, reply) => {
          const id = idOf(request.params.id);
          const body = multipartBodyOf(request);
          try {
            await deps.services.disputes.support(actorOf(request), {
              disputeId: id,
              reportId: idOf(request.params.report),
              text: fieldOf(body, 'text'),
              uploads: await uploadsOf(body),
            });
          } catch (error) {
            return refused(request, reply, deps, error, id);
          }
          return redirectTo(reply, `${paths.disputes.href}?done=support`);
        },
      );
  });
}
