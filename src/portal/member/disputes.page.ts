/**
 * GET /portal/disputes: the disputes over the member's own reports (D33), with the 15-day
 * deadline and, while it runs, the forms to support a report (text, documents) or withdraw it.
 * Only the member's own reports, answers and documents are shown (dispute-queries.ts).
 */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import type { MessageKey } from '../messages/index.ts';
import type { DisputeView } from '../../disputes/dispute-queries.ts';
import { LIMITS } from '../../disputes/dispute-input.ts';
import { deadlineText, disputeProblems, reportsTable, stepLine } from '../operator/disputes.page.ts';
import { csrfField, notice } from '../components.ts';
import { memberText } from './text.ts';
import { paths } from '../paths.ts';

export interface MemberDisputeFlash {
  readonly done: 'support' | 'withdraw' | null;
  /** The dispute the problems are about. */
  readonly disputeId: number | null;
  readonly problems: readonly string[];
}

function answerForms(ctx: PortalContext, d: DisputeView, r: DisputeView['reports'][number]): Html {
  const t = memberText(ctx.locale);
  if (d.state === 'decided' || r.response !== 'awaited') return html``;
  const late = d.deadlines.member !== null && d.deadlines.member.daysLeft < 0;
  return html`${
    late
      ? ''
      : html`<form method="post" action="${paths.disputeReportSupport.href(d.id, r.reportId)}" enctype="multipart/form-data" class="stack">
          ${csrfField(ctx)}
          <h3>${t('disputes.support.title', { id: r.reportId })}</h3>
          <label for="s-${d.id}-${r.reportId}">${t('disputes.support.text')}</label
          ><textarea id="s-${d.id}-${r.reportId}" name="text" rows="4" maxlength="${LIMITS.supportText}" required></textarea>
          <label for="a-${d.id}-${r.reportId}">${t('disputes.support.attachments')}</label
          ><input id="a-${d.id}-${r.reportId}" type="file" name="attachments" multiple accept="application/pdf,image/png,image/jpeg" />
          <button type="submit">${t('disputes.support.submit')}</button>
        </form>`
  }
    <form method="post" action="${paths.disputeReportWithdraw.href(d.id, r.reportId)}" class="stack">
      ${csrfField(ctx)}
      <h3>${t('disputes.withdraw.title', { id: r.reportId })}</h3>
      <label for="w-${d.id}-${r.reportId}">${t('disputes.withdraw.note')}</label
      ><input id="w-${d.id}-${r.reportId}" name="note" maxlength="${LIMITS.note}" />
      <button type="submit" class="danger">${t('disputes.withdraw.submit')}</button>
    </form>`;
}

function disputeSection(ctx: PortalContext, d: DisputeView, flash: MemberDisputeFlash): Html {
  const t = memberText(ctx.locale);
  // The member's turn only while one of its own reports is awaited; once it answered, the bureau's.
  const asked = d.state !== 'decided' && d.reports.some((r) => r.response === 'awaited');
  const state = d.state === 'awaiting_member' && !asked ? 'open' : d.state;
  const documents = d.attachments.map((a) => html`<li><a href="${paths.disputeAttachment.href(a.id)}">${a.fileName}</a></li>`);
  return html`<section class="panel" id="dispute-${d.id}" aria-labelledby="dispute-${d.id}-h">
    <h2 id="dispute-${d.id}-h">${t('disputes.view.title', { id: d.id, company: d.company.name })}</h2>
    ${flash.disputeId === d.id ? disputeProblems(t, flash.problems) : ''}
    <p>
      ${d.company.country} ${d.company.taxId} · ${t(`disputes.state.${state}` as MessageKey)} ·
      ${t('disputes.view.recorded', { at: d.recordedAt, date: d.receivedOn })}
    </p>
    ${asked && d.deadlines.member ? notice('info', html`<strong>${t('disputes.mine.due', { date: deadlineText(t, d.deadlines.member) })}</strong>`) : ''}
    <h3>${t('disputes.view.grounds')}</h3>
    <p class="free-text">${d.grounds}</p>
    ${reportsTable(t, d, asked ? (r) => answerForms(ctx, d, r) : undefined)}
    ${
      documents.length > 0
        ? html`<h3>${t('disputes.view.documents')}</h3>
            <ul>
              ${documents}
            </ul>`
        : ''
    }
    ${
      d.state === 'decided'
        ? html`<h3>${t('disputes.view.decision')}</h3>
            <p>${t('disputes.view.decidedAt', { at: d.decidedAt ?? '', outcome: t(`disputes.outcome.${d.outcome ?? 'upheld'}` as MessageKey) })}</p>
            <p class="free-text">${d.decisionReason ?? ''}</p>`
        : ''
    }
    <details>
      <summary>${t('disputes.view.history')}</summary>
      <ol>
        ${d.steps.map((s) => stepLine(t, s))}
      </ol>
    </details>
  </section>`;
}

export function myDisputesBody(ctx: PortalContext, disputes: readonly DisputeView[], flash: MemberDisputeFlash): Html {
  const t = memberText(ctx.locale);
  return html`${flash.done ? notice('ok', t(`disputes.done.${flash.done}`)) : ''}
    <p>${t('disputes.mine.intro')}</p>
    ${disputes.length === 0 ? html`<p>${t('disputes.mine.empty')}</p>` : disputes.map((d) => disputeSection(ctx, d, flash))}`;
}
