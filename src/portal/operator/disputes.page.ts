/**
 * The console's dispute pages (D33), pure page bodies: the queue by days left, the form that
 * records a dispute, and one dispute with its reports, the members' answers, documents, history,
 * the decision and the company's statement. No queries; every value is escaped by the html tag.
 * Routes: ../operator-disputes.routes.ts.
 */
import { html, type Html } from '../html.ts';
import { csrfField, dataTable, notice, problemsNotice, reportStatusLabel, reportTypeLabel, type Tr } from '../components.ts';
import { translator, type MessageKey } from '../messages/index.ts';
import type { PortalContext } from '../portal-context.ts';
import type { Deadline } from '../../disputes/dispute-deadlines.ts';
import { DISPUTE_OUTCOMES, IDENTIFICATION_METHODS, LIMITS } from '../../disputes/dispute-input.ts';
import type { DecidedEntry, DisputeView, QueueEntry } from '../../disputes/dispute-queries.ts';
import type { ReportStatus } from '../../reports/lifecycle.ts';
import { paths } from '../paths.ts';

/** A deadline in words: the day, and how many days are left (or how late). */
export function deadlineText(tr: Tr, d: Deadline | null): string {
  if (d === null) return '—';
  if (d.daysLeft > 0) return tr('disputes.days.left', { date: d.dueOn, days: d.daysLeft });
  if (d.daysLeft === 0) return tr('disputes.days.today', { date: d.dueOn });
  return tr('disputes.days.late', { date: d.dueOn, days: -d.daysLeft });
}

/** The refusals of a dispute form (the members' answer, the decision, the statement). */
export function disputeProblems(tr: Tr, problems: readonly string[]): Html {
  return problemsNotice(tr('disputes.refused'), problems);
}

export function disputeQueueBody(ctx: PortalContext, queue: readonly QueueEntry[], decided: readonly DecidedEntry[] = []): Html {
  const tr = translator(ctx.locale);
  const rows = queue.map(
    (d) => html`<tr${d.deadlines.decision !== null && d.deadlines.decision.daysLeft < 0 ? html` class="late"` : ''}>
      <td><a href="${paths.operatorDispute.href(d.id)}">${d.id}</a></td>
      <td>${d.company.name}<br /><small>${d.company.country} ${d.company.taxId}</small></td>
      <td>${tr(`disputes.state.${d.state}` as MessageKey)}</td>
      <td class="nowrap">${d.receivedOn}</td>
      <td>${deadlineText(tr, d.deadlines.decision)}</td>
      <td>${deadlineText(tr, d.deadlines.member)}</td>
    </tr>`,
  );
  return html`<p>${tr('disputes.queue.intro')}</p>
    <p><a href="${paths.operatorDisputesNew.href}">${tr('disputes.queue.record')}</a></p>
    ${
      queue.length === 0
        ? html`<p>${tr('disputes.queue.empty')}</p>`
        : dataTable({
            columns: [
              tr('disputes.col.id'),
              tr('disputes.col.company'),
              tr('disputes.col.state'),
              tr('disputes.col.received'),
              tr('disputes.col.decisionDue'),
              tr('disputes.col.memberDue'),
            ],
            rows,
          })
    }
    ${
      decided.length > 0
        ? html`<h2>${tr('disputes.queue.decided')}</h2>
            ${dataTable({
              columns: [tr('disputes.col.id'), tr('disputes.col.company'), tr('disputes.decide.outcome'), tr('disputes.col.decided')],
              rows: decided.map(
                (d) => html`<tr>
                    <td><a href="${paths.operatorDispute.href(d.id)}">${d.id}</a></td>
                    <td>${d.company.name}<br /><small>${d.company.country} ${d.company.taxId}</small></td>
                    <td>
                      ${tr(`disputes.outcome.${d.outcome}` as MessageKey)}${
                        d.outcome === 'upheld' && !d.hasStatement ? html`<br /><small>${tr('disputes.queue.noStatement')}</small>` : ''
                      }
                    </td>
                    <td class="nowrap">${d.decidedAt}</td>
                  </tr>`,
              ),
            })}`
        : ''
    }`;
}

/** A report a dispute can name: the company's pending and approved reports. */
export interface DisputableReport {
  readonly id: number;
  readonly type: string;
  readonly status: ReportStatus;
  readonly filedAt: string;
  readonly description: string;
  readonly member: string | null;
  /** The undecided dispute it is in already. */
  readonly inDispute: number | null;
}

export interface NewDisputeForm {
  readonly company: { id: number; name: string; taxId: string; country: string } | null;
  readonly reports: readonly DisputableReport[];
  readonly values: Readonly<Record<string, string>>;
  readonly chosen: readonly number[];
  readonly problems: readonly string[];
  readonly today: string;
}

export function newDisputeBody(ctx: PortalContext, form: NewDisputeForm): Html {
  const tr = translator(ctx.locale);
  const v = (name: string) => form.values[name] ?? '';
  const finder = html`<form method="get" action="${paths.operatorDisputesNew.href}" class="inline">
    <label>${tr('reports.field.country')} <input name="country" value="${form.company?.country ?? (v('country') || 'TR')}" maxlength="2" size="3" /></label>
    <label>${tr('reports.field.taxId')} <input name="tax_id" value="${form.company?.taxId ?? v('tax_id')}" required maxlength="40" /></label
    ><button type="submit">${tr('disputes.new.open')}</button>
  </form>`;
  if (form.company === null) {
    return html`<p>${tr('disputes.new.intro')}</p>
      ${disputeProblems(tr, form.problems)}
      <h2>${tr('disputes.new.find')}</h2>
      ${finder}`;
  }
  const open = form.reports.filter((r) => r.status === 'pending' || r.status === 'approved');
  const reportBoxes = open.map(
    (r) => html`<p class="check">
      <input type="checkbox" id="r-${r.id}" name="report_ids" value="${r.id}"${form.chosen.includes(r.id) ? html` checked` : ''}${
        r.inDispute !== null ? html` disabled` : ''
      } /><label for="r-${r.id}"
        >${r.id} · ${r.type} · ${tr(`reports.status.${r.status}` as MessageKey)} · ${r.filedAt}${r.member ? html` · ${r.member}` : ''}${
          r.inDispute !== null ? html` · <strong>${tr('disputes.new.inDispute', { id: r.inDispute })}</strong>` : ''
        }<br /><small>${r.description.slice(0, 200)}</small></label
      >
    </p>`,
  );
  const method = v('identification_method');
  return html`<p>${tr('disputes.new.intro')}</p>
    ${disputeProblems(tr, form.problems)} ${finder}
    <h2>${form.company.name} <small>${form.company.country} ${form.company.taxId}</small></h2>
    ${
      open.length === 0
        ? html`<p>${tr('disputes.new.noReports')}</p>`
        : html`<form method="post" action="${paths.operatorDisputes.href}" enctype="multipart/form-data" class="stack">
            ${csrfField(ctx)}<input type="hidden" name="company_id" value="${form.company.id}" />
            <fieldset>
              <legend>${tr('disputes.field.reports')}</legend>
              ${reportBoxes}
            </fieldset>
            <label for="d-method">${tr('disputes.field.method')}</label
            ><select id="d-method" name="identification_method" required>
              ${IDENTIFICATION_METHODS.map(
                (m) => html`<option value="${m}"${m === method ? html` selected` : ''}>${tr(`disputes.method.${m}` as MessageKey)}</option>`,
              )}
            </select>
            <label for="d-reference">${tr('disputes.field.reference')}</label
            ><input id="d-reference" name="identification_reference" value="${v('identification_reference')}" required maxlength="${LIMITS.identificationReference}" />
            <label for="d-received">${tr('disputes.field.receivedOn')}</label
            ><input id="d-received" type="date" name="received_on" value="${v('received_on') || form.today}" max="${form.today}" required />
            <label for="d-grounds">${tr('disputes.field.grounds')}</label
            ><textarea id="d-grounds" name="grounds" rows="5" maxlength="${LIMITS.grounds}" required>${v('grounds')}</textarea>
            <label for="d-attachments">${tr('disputes.field.attachments')}</label
            ><input id="d-attachments" type="file" name="attachments" multiple accept="application/pdf,image/png,image/jpeg" />
            <button type="submit">${tr('disputes.new.submit')}</button>
          </form>`
    }`;
}

export function stepLine(tr: Tr, s: DisputeView['steps'][number]): Html {
  return html`<li>
    ${s.at}: ${tr(`disputes.step.${s.step}` as MessageKey)}${s.reportId !== null ? html` (${tr('disputes.col.report')} ${s.reportId})` : ''}${
      s.by ? html` · ${s.by}` : ''
    }${s.text ? html`<br /><span class="free-text">“${s.text}”</span>` : ''}
  </li>`;
}

export function reportsTable(tr: Tr, view: DisputeView, actions?: (r: DisputeView['reports'][number]) => Html): Html {
  const columns = [
    tr('disputes.col.report'),
    tr('reports.col.type'),
    tr('reports.col.status'),
    tr('disputes.col.response'),
    ...(actions ? [tr('reports.col.actions')] : []),
  ];
  const rows = view.reports.map(
    (r) => html`<tr>
      <td>${r.reportId}</td>
      <td>
        ${reportTypeLabel(tr, r.type)} <small class="mono">${r.type}</small>${r.amountMinor !== null && r.currency ? html`<br /><small>${(r.amountMinor / 100).toFixed(2)} ${r.currency}</small>` : ''}${
          r.eventDate ? html`<br /><small>${r.eventDate}</small>` : ''
        }
        <p class="free-text">${r.description}</p>
      </td>
      <td>${reportStatusLabel(tr, r.status)}</td>
      <td>${tr(`disputes.response.${r.response}` as MessageKey)}${r.responseText ? html`<br /><span class="free-text">“${r.responseText}”</span>` : ''}</td>
      ${actions ? html`<td>${actions(r)}</td>` : ''}
    </tr>`,
  );
  return dataTable({ columns, rows });
}

function correctionFields(tr: Tr, reportId: number): Html {
  const input = (field: string, label: MessageKey, attrs: Html = html``) =>
    html`<label for="c-${reportId}-${field}">${tr(label)}</label><input id="c-${reportId}-${field}" name="correct_${reportId}_${field}" ${attrs} />`;
  return html`<fieldset>
    <legend>${tr('disputes.decide.correction', { id: reportId })}</legend>
    ${input('amount', 'disputes.field.amount', html` inputmode="decimal"`)} ${input('currency', 'disputes.field.currency', html` maxlength="3"`)}
    ${input('event_date', 'disputes.field.eventDate', html` type="date"`)}
    <label for="c-${reportId}-description">${tr('disputes.field.description')}</label
    ><textarea id="c-${reportId}-description" name="correct_${reportId}_description" rows="3" maxlength="2000"></textarea>
  </fieldset>`;
}

export function disputeBody(ctx: PortalContext, view: DisputeView, flash: { done: string | null; problems: readonly string[] }): Html {
  const tr = translator(ctx.locale);
  const decided = view.state === 'decided';
  const documents = view.attachments.map(
    (a) =>
      html`<li>
        <a href="${paths.operatorDisputeAttachment.href(a.id)}">${a.fileName}</a> <small>(${Math.ceil(a.sizeBytes / 1024)} KB ·
        ${a.reportId === null ? tr('disputes.view.companyDocument') : tr('disputes.view.memberDocument', { report: a.reportId })})</small>
      </li>`,
  );
  const decideForm = decided
    ? html``
    : html`<h2>${tr('disputes.decide.title')}</h2>
        ${view.state === 'awaiting_member' ? notice('info', tr('disputes.decide.early')) : ''}
        <form method="post" action="${paths.operatorDisputeDecide.href(view.id)}" class="stack">
          ${csrfField(ctx)}
          <fieldset>
            <legend>${tr('disputes.decide.outcome')}</legend>
            ${DISPUTE_OUTCOMES.map(
              (o) => html`<p class="check">
                <input type="radio" id="o-${o}" name="outcome" value="${o}" required /><label for="o-${o}">${tr(`disputes.outcome.${o}` as MessageKey)}</label>
              </p>`,
            )}
          </fieldset>
          <label for="d-reason">${tr('disputes.decide.reason')}</label
          ><textarea id="d-reason" name="reason" rows="4" maxlength="${LIMITS.decisionReason}" required></textarea>
          ${view.reports.filter((r) => r.status === 'pending' || r.status === 'approved').map((r) => correctionFields(tr, r.reportId))}
          <button type="submit">${tr('disputes.decide.submit')}</button>
        </form>`;
  const statementForm =
    decided && view.outcome === 'upheld'
      ? html`<form method="post" action="${paths.operatorDisputeStatement.href(view.id)}" class="stack">
          ${csrfField(ctx)}<label for="d-statement">${tr('disputes.statement.label')}</label
          ><textarea id="d-statement" name="statement" rows="3" maxlength="${LIMITS.statement}" required>${view.statement ?? ''}</textarea>
          <button type="submit">${tr('disputes.statement.submit')}</button>
        </form>`
      : html``;
  return html`${flash.done ? notice('ok', flash.done) : ''}${disputeProblems(tr, flash.problems)}
    <p>
      ${tr(`disputes.state.${view.state}` as MessageKey)} · ${tr('disputes.view.recorded', { at: view.recordedAt, date: view.receivedOn })} ·
      <a href="${paths.operatorCompany.href(view.company.id)}">${tr('disputes.view.company')}</a>
    </p>
    <dl class="facts">
      <dt>${tr('disputes.col.decisionDue')}</dt>
      <dd>${deadlineText(tr, view.deadlines.decision)}</dd>
      <dt>${tr('disputes.col.memberDue')}</dt>
      <dd>${deadlineText(tr, view.deadlines.member)}</dd>
      ${
        view.identification
          ? html`<dt>${tr('disputes.view.identification')}</dt>
              <dd>${tr(`disputes.method.${view.identification.method}` as MessageKey)} · ${view.identification.reference}</dd>`
          : ''
      }
    </dl>
    <h2>${tr('disputes.view.grounds')}</h2>
    <p class="free-text">${view.grounds}</p>
    <h2>${tr('disputes.view.reports')}</h2>
    ${reportsTable(tr, view)}
    ${
      documents.length > 0
        ? html`<h2>${tr('disputes.view.documents')}</h2>
            <ul>
              ${documents}
            </ul>`
        : ''
    }
    ${
      decided
        ? html`<h2>${tr('disputes.view.decision')}</h2>
            <p>${tr('disputes.view.decidedAt', { at: view.decidedAt ?? '', outcome: tr(`disputes.outcome.${view.outcome ?? 'upheld'}` as MessageKey) })}</p>
            <p class="free-text">${view.decisionReason ?? ''}</p>
            ${view.statement ? html`<h3>${tr('disputes.view.statement')}</h3><p class="free-text">${view.statement}</p>` : ''}`
        : ''
    }
    ${statementForm} ${decideForm}
    <h2>${tr('disputes.view.history')}</h2>
    <ol>
      ${view.steps.map((s) => stepLine(tr, s))}
    </ol>`;
}
