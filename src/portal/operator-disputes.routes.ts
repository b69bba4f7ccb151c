/**
 * The console's disputes (D33), operators only: the queue by days left (GET
 * /portal/operator/disputes), recording one (GET …/disputes/new, POST …/disputes as multipart
 * with up to 3 of the company's documents), one dispute (GET …/disputes/:id), the decision (POST
 * …/disputes/:id/decide), the company's statement (POST …/disputes/:id/statement) and the
 * documents (GET …/disputes/attachments/:id). The services decide; these read forms and show.
 */
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { turkeyDateOf } from '../lib/calendar-date.ts';
import { DomainError, statusOf } from '../lib/errors.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../reports/attachments.ts';
import type { ReportCorrection } from '../disputes/dispute-input.ts';
import type { Actor } from '../actors/actor.ts';
import { formField } from './forms.ts';
import { actorOf, portalOf, requireUser } from './guards.ts';
import { redirectTo, renderPage, sendPage } from './layout.ts';
import { translator, type MessageKey } from './messages/index.ts';
import { disputeBody, disputeQueueBody, newDisputeBody, type DisputableReport, type NewDisputeForm } from './operator/disputes.page.ts';
import type { PortalDeps } from './portal-deps.ts';
import { notFoundError } from './portal-errors.ts';
import { domainErrorTexts } from './problem-text.ts';
import { allFieldsOf, fieldOf, multipartBodyOf, uploadsOf } from './multipart-form.ts';
import { IdParams, idOf } from './params.ts';
import { paths } from './paths.ts';
import { portalQueryOf } from './portal-query.ts';
import { sendDownload } from './attachment-download.ts';

type Deps = Pick<PortalDeps, 'clock' | 'services'>;

const CompanyQuery = Type.Object({ country: Type.Optional(Type.String()), tax_id: Type.Optional(Type.String()) });

const DONE_STEPS = ['record', 'decide', 'set_statement'] as const;

async function companyForm(deps: Deps, actor: Actor, companyId: number, now: number, extra: Partial<NewDisputeForm>): Promise<NewDisputeForm> {
  const file = await deps.services.reports.companyFile(actor, { companyId });
  const found = await deps.services.disputes.reportsForDispute(actor, { reportIds: file.reports.map((r) => r.report_id) });
  const inDispute = new Map(found.map((r) => [r.reportId, r.undecidedDisputeId]));
  const reports: DisputableReport[] = file.reports.map((r) => ({
    id: r.report_id,
    type: r.type,
    status: r.status,
    filedAt: r.filed_at,
    description: r.description,
    member: r.member ? `${r.member.ref} (${r.member.name})` : null,
    inDispute: inDispute.get(r.report_id) ?? null,
  }));
  const { id, name, taxId, country } = file.company;
  return { company: { id, name, taxId, country }, reports, values: {}, chosen: [], problems: [], today: turkeyDateOf(now), ...extra };
}

async function showDispute(request: FastifyRequest, reply: FastifyReply, deps: Deps, id: number, problems: readonly string[] = [], status = 200) {
  const ctx = portalOf(request);
  const tr = translator(ctx.locale);
  let view;
  try {
    view = await deps.services.disputes.forOperator(actorOf(request), { disputeId: id });
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
    throw error;
  }
  const done = portalQueryOf(request).done;
  const doneText = (DONE_STEPS as readonly string[]).includes(done ?? '') ? tr(`disputes.done.${done}` as MessageKey, { id: view.id }) : null;
  const body = disputeBody(ctx, view, { done: doneText, problems });
  return sendPage(reply, renderPage(ctx, { title: tr('disputes.view.title', { id: view.id, company: view.company.name }), body, active: 'operator' }), status);
}

/** The corrections typed into the decision form: `correct_<report>_<field>`, empty ones left out. */
function correctionsOf(body: unknown): ReportCorrection[] {
  const byReport = new Map<number, Record<string, unknown>>();
  for (const [name, raw] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    const m = /^correct_(\d{1,15})_(amount|currency|event_date|description)$/.exec(name);
    if (!m || typeof raw !== 'string' || raw.trim() === '') continue;
    const fields = byReport.get(Number(m[1])) ?? {};
    const value = raw.trim().slice(0, 2000);
    // The amount as a number when it reads as one; otherwise as typed, so the check names it.
    fields[m[2]!] = m[2] === 'amount' && /^\d+(\.\d+)?$/.test(value.replace(',', '.')) ? Number(value.replace(',', '.')) : value;
    byReport.set(Number(m[1]), fields);
  }
  return [...byReport].map(([reportId, fields]) => ({ reportId, fields }));
}

export function registerOperatorDisputeRoutes(scope: App, deps: Deps) {
  const guard = { preHandler: requireUser('operator') };
  const withId = { ...guard, schema: { params: IdParams } };

  scope.get(paths.operatorDisputes.route, guard, async (request, reply) => {
    const ctx = portalOf(request);
    const queue = await deps.services.disputes.queue(actorOf(request));
    const decided = await deps.services.disputes.decided(actorOf(request));
    const body = disputeQueueBody(ctx, queue, decided);
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('disputes.queue.title'), body, active: 'operator' }));
  });

  scope.get(paths.operatorDisputesNew.route, { ...guard, schema: { querystring: CompanyQuery } }, async (request, reply) => {
    const ctx = portalOf(request);
    const tr = translator(ctx.locale);
    const q = request.query;
    const now = deps.clock.now();
    let form: NewDisputeForm = { company: null, reports: [], values: {}, chosen: [], problems: [], today: turkeyDateOf(now) };
    let status = 200;
    if (q.tax_id !== undefined) {
      try {
        const companyId = await deps.services.reports.findCompanyId(actorOf(request), { country: q.country ?? 'TR', taxId: q.tax_id });
        form = await companyForm(deps, actorOf(request), companyId, now, {});
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        form = { ...form, values: { country: (q.country ?? '').slice(0, 2), tax_id: q.tax_id.slice(0, 40) }, problems: domainErrorTexts(ctx.locale, error) };
        status = statusOf(error);
      }
    }
    return sendPage(reply, renderPage(ctx, { title: tr('disputes.new.title'), body: newDisputeBody(ctx, form), active: 'operator' }), status);
  });

  scope.get(paths.operatorDispute.route, withId, async (request, reply) => showDispute(request, reply, deps, idOf(request.params.id)));

  scope.post(paths.operatorDisputeDecide.route, withId, async (request, reply) => {
    const ctx = portalOf(request);
    const id = idOf(request.params.id);
    try {
      await deps.services.disputes.decide(actorOf(request), {
        disputeId: id,
        outcome: formField(request.body, 'outcome', 50),
        reason: formField(request.body, 'reason', 4000),
        corrections: formField(request.body, 'outcome', 50) === 'corrected' ? correctionsOf(request.body) : [],
      });
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'not_found' || error.kind === 'forbidden') throw error;
      return showDispute(request, reply, deps, id, domainErrorTexts(ctx.locale, error), statusOf(error));
    }
    return redirectTo(reply, `${paths.operatorDispute.href(id)}?done=decide`);
  });

  scope.post(paths.operatorDisputeStatement.route, withId, async (request, reply) => {
    const ctx = portalOf(request);
    const id = idOf(request.params.id);
    try {
      await deps.services.disputes.setStatement(actorOf(request), { disputeId: id, text: formField(request.body, 'statement', 2000) });
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'not_found' || error.kind === 'forbidden') throw error;
      return showDispute(request, reply, deps, id, domainErrorTexts(ctx.locale, error), statusOf(error));
    }
    return redirectTo(reply, `${paths.operatorDispute.href(id)}?done=set_statement`);
  });

  scope.get(paths.operatorDisputeAttachment.route, withId, async (request, reply) =>
    sendDownload(reply, () => deps.services.disputes.attachment(actorOf(request), { attachmentId: idOf(request.params.id) })),
  );

  // Recording carries the company's documents: multipart, in its own scope (as filing does).
  scope.register(async (child) => {
    child.addHook('onRequest', requireUser('operator'));
    await child.register(multipart, {
      attachFieldsToBody: true,
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: MAX_ATTACHMENTS, fields: 80, fieldSize: 8 * 1024, parts: 100 },
    });
    child.post(paths.operatorDisputes.route, { ...guard, bodyLimit: (MAX_ATTACHMENT_BYTES + 64 * 1024) * MAX_ATTACHMENTS }, async (request, reply) => {
      const ctx = portalOf(request);
      const body = multipartBodyOf(request);
      const chosen = allFieldsOf(body, 'report_ids')
        .filter((v) => /^\d{1,15}$/.test(v))
        .map(Number);
      const values = Object.fromEntries(['identification_method', 'identification_reference', 'received_on', 'grounds'].map((k) => [k, fieldOf(body, k)]));
      try {
        const { disputeId } = await deps.services.disputes.record(actorOf(request), {
          identificationMethod: values.identification_method ?? '',
          identificationReference: values.identification_reference ?? '',
          receivedOn: values.received_on ?? '',
          grounds: values.grounds ?? '',
          reportIds: chosen,
          uploads: await uploadsOf(body),
        });
        return redirectTo(reply, `${paths.operatorDispute.href(disputeId)}?done=record`);
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind === 'forbidden') throw error;
        const companyId = Number(fieldOf(body, 'company_id'));
        if (!Number.isSafeInteger(companyId) || companyId <= 0) throw error;
        const problems = domainErrorTexts(ctx.locale, error);
        const form = await companyForm(deps, actorOf(request), companyId, deps.clock.now(), { values, chosen, problems }).catch(() => {
          throw error;
        });
        const tr = translator(ctx.locale);
        return sendPage(reply, renderPage(ctx, { title: tr('disputes.new.title'), body: newDisputeBody(ctx, form), active: 'operator' }), statusOf(error));
      }
    });
  });
}
