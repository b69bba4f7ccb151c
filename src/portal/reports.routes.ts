/**
 * A member's reports (D29): "My reports" (GET /portal/reports), "File a report"
 * (GET /portal/reports/new, POST /portal/reports as multipart with up to 3 files), withdrawing
 * (POST /portal/reports/:id/withdraw) and its attachments (GET /portal/reports/attachments/:id).
 * The services decide everything; these pages only read forms and show answers.
 */
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { DomainError, statusOf } from '../lib/errors.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, type AttachmentUpload } from '../reports/attachments.ts';
import { FILABLE_TYPES, type FilingInput } from '../reports/filing-input.ts';
import { CASE_FIELDS, COURT_DECISION_DATE_TYPES } from '../reports/report-types.ts';
import { listMyReports } from '../reports/report-queries.service.ts';
import { withdrawReport } from '../reports/moderation.service.ts';
import { sendAttachment } from './attachment-download.ts';
import { formField } from './forms.ts';
import { actorOf, memberOf, portalOf, requireUser } from './guards.ts';
import { html, type Html } from './html.ts';
import { redirectTo, renderPage, sendPage, csrfField } from './layout.ts';
import { MESSAGES, translator, type MessageKey } from './messages/index.ts';
import type { PortalDeps } from './portal-deps.ts';
import { idParam, statusLabel } from './report-view.ts';
import { domainErrorTexts } from './problem-text.ts';
import { registerTaxIdCheck } from './tax-id-check.ts';

const MEMBER_ROLES = ['member_admin', 'member_user'] as const;
const CASE_INPUTS = [...new Set(Object.values(CASE_FIELDS).flat())];
/** The types that ask for a case field (D14), for the form's script to show only the chosen type's fields. */
const TYPES_OF_CASE_FIELD = (field: string) =>
  Object.entries(CASE_FIELDS)
    .filter(([, fields]) => fields.includes(field))
    .map(([type]) => type)
    .join(' ');

/** A file part may come without a `filename` (Node's FormData sends an empty file input so). */
export type MultipartField = { type: 'field'; value: unknown } | { type: 'file'; filename?: string; mimetype: string; toBuffer(): Promise<Buffer> };

export function fieldOf(body: Record<string, MultipartField | MultipartField[] | undefined>, name: string): string {
  const part = body[name];
  const one = Array.isArray(part) ? part[0] : part;
  return one?.type === 'field' && typeof one.value === 'string' ? one.value.slice(0, 4000) : '';
}

export async function uploadsOf(body: Record<string, MultipartField | MultipartField[] | undefined>): Promise<AttachmentUpload[]> {
  const parts = [body.attachments].flat().filter((p): p is Extract<MultipartField, { type: 'file' }> => p?.type === 'file');
  const uploads: AttachmentUpload[] = [];
  for (const part of parts) {
    const content = await part.toBuffer();
    const fileName = part.filename ?? '';
    // A file input left empty still sends a part, without a name or content. One with content
    // but no name is checked like any file, and refused: no name can end in .pdf (issue 27, finding 11).
    if (fileName === '' && content.length === 0) continue;
    uploads.push({ fileName, declaredType: part.mimetype, content });
  }
  return uploads;
}

function filingOf(body: Record<string, MultipartField | MultipartField[] | undefined>): FilingInput {
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

/** A report type in the reader's words where the catalogue has them (the search page's), else its API name. */
function typeInWords(tr: ReturnType<typeof translator>, type: string): string {
  const key = `search.type.${type}`;
  return key in MESSAGES ? tr(key as MessageKey) : type;
}

function filingForm(request: FastifyRequest, deps: Pick<PortalDeps, 'countryCodes'>, values: Record<string, string>, problems: string[]): Html {
  const tr = translator(portalOf(request).locale);
  const v = (name: string) => values[name] ?? '';
  /** `label`: a catalogue key, or `{ raw }` for a D14 field name shown as it is. */
  const input = (name: string, label: MessageKey | { raw: string }, attrs: Html = html``) =>
    html`<label for="f-${name}">${typeof label === 'string' ? tr(label) : label.raw}</label
      ><input id="f-${name}" name="${name}" value="${v(name)}" ${attrs} />`;
  const country = v('country') || 'TR';
  return html`<p>${tr('reports.new.intro')}</p>
    ${
      problems.length > 0
        ? html`<div class="notice error" role="alert">
            <p>${tr('reports.refused')}</p>
            <ul>
              ${problems.map((p) => html`<li>${p}</li>`)}
            </ul>
          </div>`
        : ''
    }
    <form method="post" action="/portal/reports" enctype="multipart/form-data" class="stack">
      ${csrfField(request)} ${input('company_name', 'reports.field.company', html` required maxlength="300"`)}
      ${input('tax_id', 'reports.field.taxId', html` required maxlength="40" autocomplete="off"`)}
      <span class="hint" id="tax-id-hint" aria-live="polite"></span> <label for="f-country">${tr('reports.field.country')}</label
      ><select id="f-country" name="country">
        ${deps.countryCodes.map((c) => html`<option${c === country ? html` selected` : ''}>${c}</option>`)}
      </select>
      ${input('city', 'reports.field.city', html` required maxlength="100"`)}
      <label for="f-type">${tr('reports.field.type')}</label
      ><select id="f-type" name="type">
        ${FILABLE_TYPES.map((t) => html`<option value="${t}"${t === v('type') ? html` selected` : ''}>${typeInWords(tr, t)}</option>`)}
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
    <script src="/portal/reports/tax-id-check.js" defer></script>`;
}

function plainValues(body: Record<string, MultipartField | MultipartField[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(body)
      .filter((k) => k !== '_csrf' && k !== 'attachments')
      .map((k) => [k, fieldOf(body, k)]),
  );
}

async function myReportsPage(request: FastifyRequest, reply: FastifyReply, deps: Pick<PortalDeps, 'db'>) {
  const ctx = portalOf(request);
  const tr = translator(ctx.locale);
  const reports = await listMyReports(deps.db, memberOf(request).id);
  const query = request.query as Record<string, string | undefined>;
  // A notice only for a report of this member, in the state it claims: a link cannot put words in it.
  const mine = (id: string | undefined) => (id !== undefined && /^\d+$/.test(id) ? reports.find((r) => r.report_id === Number(id)) : undefined);
  const filed = mine(query.filed);
  const withdrawn = mine(query.withdrawn);
  const notice = filed
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
          ${statusLabel(tr, r.status)}${r.disputed ? html`<br /><a class="badge" href="/portal/disputes">${tr('disputes.mine.badge')}</a>` : ''}
        </td>
        <td>${r.filed_at}</td>
        <td>${r.latest.reason ?? ''}</td>
        <td>${r.attachments.map((a) => html`<a href="/portal/reports/attachments/${a.id}">${a.fileName}</a> `)}</td>
        <td>
          ${
            r.status === 'pending' || r.status === 'approved'
              ? html`<form method="post" action="/portal/reports/${r.report_id}/withdraw" class="inline">
                  ${csrfField(ctx)}<label>${tr('reports.withdraw.note')} <input name="note" required maxlength="1000" /></label
                  ><button type="submit">${tr('reports.withdraw')}</button>
                </form>`
              : ''
          }
        </td>
      </tr>`,
  );
  const body = html`${notice ? html`<p class="notice ok" role="status">${notice}</p>` : ''}
    <p><a href="/portal/reports/new">${tr('reports.new.title')}</a></p>
    ${
      reports.length === 0
        ? html`<p>${tr('reports.mine.empty')}</p>`
        : html`<table>
            <thead>
              <tr>
                <th>${tr('reports.col.id')}</th>
                <th>${tr('reports.col.company')}</th>
                <th>${tr('reports.col.type')}</th>
                <th>${tr('reports.col.status')}</th>
                <th>${tr('reports.col.filed')}</th>
                <th>${tr('reports.col.reason')}</th>
                <th>${tr('reports.col.attachments')}</th>
                <th>${tr('reports.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }`;
  return sendPage(reply, renderPage(ctx, { title: tr('reports.mine.title'), body, active: 'reports' }));
}

export function registerReportRoutes(scope: App, deps: Pick<PortalDeps, 'db' | 'clock' | 'countryCodes' | 'searchUseCase' | 'config' | 'services'>) {
  const guard = { preHandler: requireUser(...MEMBER_ROLES) };
  registerTaxIdCheck(scope, deps.searchUseCase.countries);
  scope.get('/reports', guard, (request, reply) => myReportsPage(request, reply, deps));

  scope.get('/reports/new', guard, async (request, reply) => {
    const ctx = portalOf(request);
    return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('reports.new.title'), body: filingForm(request, deps, {}, []), active: 'reports' }));
  });

  scope.get('/reports/attachments/:id', guard, async (request, reply) => {
    const member = memberOf(request);
    return sendAttachment(reply, deps.db, { kind: 'member', userId: portalOf(request).user.id, memberId: member.id }, idParam(request));
  });

  scope.post('/reports/:id/withdraw', guard, async (request, reply) => {
    const ctx = portalOf(request);
    const id = idParam(request);
    await withdrawReport(deps, { userId: ctx.user.id, memberId: memberOf(request).id }, id, formField(request.body, 'note'));
    return redirectTo(reply, `/portal/reports?withdrawn=${id}`);
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
    child.post('/reports', { ...guard, bodyLimit: (MAX_ATTACHMENT_BYTES + 64 * 1024) * MAX_ATTACHMENTS }, async (request, reply) => {
      const ctx = portalOf(request);
      const body = (request.body ?? {}) as Record<string, MultipartField | MultipartField[] | undefined>;
      try {
        const filed = await deps.services.filing.file(actorOf(request), { ...filingOf(body), attachments: await uploadsOf(body) });
        return redirectTo(reply, `/portal/reports?filed=${filed.reportId}`);
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind === 'not_found') throw error;
        const form = filingForm(request, deps, plainValues(body), domainErrorTexts(ctx.locale, error));
        return sendPage(reply, renderPage(ctx, { title: translator(ctx.locale)('reports.new.title'), body: form, active: 'reports' }), statusOf(error));
      }
    });
  });
}
