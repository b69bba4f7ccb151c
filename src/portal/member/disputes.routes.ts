/**
 * The filing member's side of a dispute (D33): GET /portal/disputes (every dispute over the
 * member's reports), POST /portal/disputes/:id/reports/:report/support (multipart: text and up to
 * 3 documents), POST …/withdraw (a note), and GET /portal/disputes/attachments/:id (the member's
 * own documents). Members' users only; a dispute over another member's reports is a 404.
 */
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { DomainError, statusOf } from '../../lib/errors.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../../reports/attachments.ts';
import { fetchDisputeAttachment, listDisputesForMember } from '../../disputes/dispute-queries.ts';
import { formField } from '../forms.ts';
import { actorOf, memberOf, portalOf, requireUser } from '../guards.ts';
import { redirectTo, renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { notFoundError } from '../portal-errors.ts';
import { domainErrorTexts } from '../problem-text.ts';
import { idParam } from '../report-view.ts';
import { fieldOf, uploadsOf, type MultipartField } from '../reports.routes.ts';
import { myDisputesBody, type MemberDisputeFlash } from './disputes.page.ts';
import { memberText } from './text.ts';

const MEMBERS = ['member_admin', 'member_user'] as const;
type Deps = Pick<PortalDeps, 'db' | 'clock' | 'services'>;

function reportParam(request: FastifyRequest): number {
  const raw = (request.params as { report?: string }).report ?? '';
  if (!/^[0-9]{1,15}$/.test(raw)) throw notFoundError();
  return Number(raw);
}

async function showDisputes(request: FastifyRequest, reply: FastifyReply, deps: Deps, flash: MemberDisputeFlash, status = 200) {
  const ctx = portalOf(request);
  const disputes = await listDisputesForMember(deps.db, memberOf(request).id, deps.clock.now());
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

  scope.get('/disputes', guard, async (request, reply) => {
    const done = (request.query as { done?: string }).done;
    return showDisputes(request, reply, deps, { done: done === 'support' || done === 'withdraw' ? done : null, disputeId: null, problems: [] });
  });

  scope.post('/disputes/:id/reports/:report/withdraw', guard, async (request, reply) => {
    const id = idParam(request);
    try {
      await deps.services.disputes.withdraw(actorOf(request), { disputeId: id, reportId: reportParam(request), note: formField(request.body, 'note') });
    } catch (error) {
      return refused(request, reply, deps, error, id);
    }
    return redirectTo(reply, `/portal/disputes?done=withdraw`);
  });

  scope.get('/disputes/attachments/:id', guard, async (request, reply) => {
    let file;
    try {
      file = await fetchDisputeAttachment(deps.db, { kind: 'member', memberId: memberOf(request).id }, idParam(request));
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
      throw error;
    }
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', file.disposition)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(file.content);
  });

  // Support carries documents: multipart, in its own scope (as filing does), refused before the body is read.
  scope.register(async (child) => {
    child.addHook('onRequest', requireUser(...MEMBERS));
    await child.register(multipart, {
      attachFieldsToBody: true,
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: MAX_ATTACHMENTS, fields: 10, fieldSize: 8 * 1024, parts: 20 },
    });
    child.post(
      '/disputes/:id/reports/:report/support',
      { ...guard, bodyLimit: (MAX_ATTACHMENT_BYTES + 64 * 1024) * MAX_ATTACHMENTS },
      async (request, reply) => {
        const id = idParam(request);
        const body = (request.body ?? {}) as Record<string, MultipartField | MultipartField[] | undefined>;
        try {
          await deps.services.disputes.support(actorOf(request), {
            disputeId: id,
            reportId: reportParam(request),
            text: fieldOf(body, 'text'),
            uploads: await uploadsOf(body),
          });
        } catch (error) {
          return refused(request, reply, deps, error, id);
        }
        return redirectTo(reply, `/portal/disputes?done=support`);
      },
    );
  });
}
