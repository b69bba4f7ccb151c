/**
 * What the console and the filing member's portal show of disputes (D33). Operators see
 * everything; a member sees only disputes over its own reports, and of them only its own reports,
 * its own answers and documents (never another member's report, nor the company's identification
 * or documents: D13, and the representative's personal data stay with the bureau).
 */
import type { Db } from '../db/types.ts';
import { DomainError } from '../lib/errors.ts';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import { attachmentDisposition } from '../reports/attachments.ts';
import { compareByDaysLeft, deadlinesOf, type DisputeDeadlines } from './dispute-deadlines.ts';
import type { DisputeState } from './dispute-rules.ts';
import {
  findDispute,
  findDisputeAttachment,
  listDisputeAttachments,
  listDisputeIdsOfMember,
  listDisputeReports,
  listDisputeSteps,
  listRecentlyDecided,
  listUndecidedDisputes,
  type DisputeAttachmentMeta,
  type DisputeReportRow,
  type DisputeRow,
} from './disputes.repository.ts';

export interface QueueEntry {
  id: number;
  state: DisputeState;
  receivedOn: string;
  company: { id: number; name: string; taxId: string; country: string };
  deadlines: DisputeDeadlines;
}

/** The console's queue: undecided disputes, fewest days left first. */
export async function listDisputeQueue(db: Db, now: number): Promise<QueueEntry[]> {
  const rows = await listUndecidedDisputes(db);
  return rows
    .map((r) => {
      const state = r.state;
      const receivedOn = r.received_on;
      const membersToldAt = r.members_told_at === null ? null : Number(r.members_told_at);
      return {
        id: Number(r.id),
        state,
        receivedOn,
        company: { id: Number(r.company_id), name: r.company_name, taxId: r.tax_id, country: r.country },
        deadlines: deadlinesOf({ state, receivedOn, membersToldAt }, now),
      };
    })
    .sort(compareByDaysLeft);
}

export interface DecidedEntry {
  id: number;
  outcome: 'upheld' | 'corrected' | 'removed';
  decidedAt: string;
  hasStatement: boolean;
  company: { name: string; taxId: string; country: string };
}

/** The latest 50 decided disputes, for adding an upheld one's statement later. */
export async function listDecidedDisputes(db: Db): Promise<DecidedEntry[]> {
  return (await listRecentlyDecided(db, 50)).map((r) => ({
    id: Number(r.id),
    outcome: r.outcome ?? 'upheld',
    decidedAt: formatTurkeyDateTime(Number(r.decided_at)),
    hasStatement: r.statement !== null,
    company: { name: r.company_name, taxId: r.tax_id, country: r.country },
  }));
}

export interface DisputeStepView {
  step: string;
  reportId: number | null;
  at: string;
  by: string;
  from: string | null;
  to: string;
  text: string | null;
}

export interface DisputeView {
  id: number;
  state: DisputeState;
  outcome: DisputeRow['outcome'];
  receivedOn: string;
  grounds: string;
  identification: { method: string; reference: string } | null;
  decisionReason: string | null;
  decidedAt: string | null;
  statement: string | null;
  recordedAt: string;
  company: { id: number; name: string; taxId: string; country: string; city: string };
  deadlines: DisputeDeadlines;
  reports: DisputeReportRow[];
  attachments: DisputeAttachmentMeta[];
  steps: DisputeStepView[];
}

async function viewOf(db: Db, row: DisputeRow, now: number, memberId: number | null): Promise<DisputeView> {
  const id = Number(row.id);
  const company = await db.selectFrom('companies').selectAll().where('id', '=', Number(row.company_id)).executeTakeFirstOrThrow();
  const all = await listDisputeReports(db, id);
  const reports = memberId === null ? all : all.filter((r) => r.filingMemberId === memberId);
  const mine = new Set(reports.map((r) => r.reportId));
  const attachments = (await listDisputeAttachments(db, id)).filter((a) => memberId === null || a.memberId === memberId);
  const steps = (await listDisputeSteps(db, id))
    // A member sees the steps on the whole dispute and on its own reports.
    .filter((s) => memberId === null || s.report_id === null || mine.has(Number(s.report_id)))
    .map((s) => ({
      step: s.step,
      reportId: s.report_id === null ? null : Number(s.report_id),
      at: formatTurkeyDateTime(Number(s.at)),
      // Who acted, for a member: its own users by name, the bureau as the bureau.
      by: memberId === null ? s.by_label : s.step === 'support' || s.step === 'withdraw' ? s.by_label : '',
      from: s.from_state,
      to: s.to_state,
      // The company's grounds are shown apart; a member sees its own texts and the decision's.
      text: memberId === null || s.step !== 'record' ? s.text : null,
    }));
  const membersToldAt = row.members_told_at === null ? null : Number(row.members_told_at);
  return {
    id,
    state: row.state,
    outcome: row.outcome,
    receivedOn: row.received_on,
    grounds: row.grounds,
    identification: memberId === null ? { method: row.identification_method, reference: row.identification_reference } : null,
    decisionReason: row.decision_reason,
    decidedAt: row.decided_at === null ? null : formatTurkeyDateTime(Number(row.decided_at)),
    statement: row.statement,
    recordedAt: formatTurkeyDateTime(Number(row.created_at)),
    company: { id: Number(company.id), name: company.company_name, taxId: company.tax_id, country: company.country, city: company.city },
    deadlines: deadlinesOf({ state: row.state, receivedOn: row.received_on, membersToldAt }, now),
    reports,
    attachments,
    steps,
  };
}

/** The whole dispute, for an operator. */
export async function getDisputeForOperator(db: Db, id: number, now: number): Promise<DisputeView> {
  const row = await findDispute(db, id);
  if (!row) throw new DomainError('not_found', `there is no dispute ${id}`, { code: 'dispute.not_found', params: { id } });
  return viewOf(db, row, now, null);
}

/** A dispute over the member's reports, as that member sees it; not_found for any other (never a hint). */
export async function getDisputeForMember(db: Db, id: number, memberId: number, now: number): Promise<DisputeView> {
  const row = await findDispute(db, id);
  const view = row ? await viewOf(db, row, now, memberId) : null;
  if (!view || view.reports.length === 0) {
    throw new DomainError('not_found', `no dispute ${id} concerns your member's reports`, { code: 'dispute.not_found_for_member', params: { id } });
  }
  return view;
}

/** Every dispute over the member's reports, newest first. */
export async function listDisputesForMember(db: Db, memberId: number, now: number): Promise<DisputeView[]> {
  const views: DisputeView[] = [];
  for (const id of await listDisputeIdsOfMember(db, memberId)) views.push(await getDisputeForMember(db, id, memberId, now));
  return views;
}

/** Every dispute of a company (console), newest first. */
export async function listDisputesOfCompanyForOperator(db: Db, companyId: number, now: number): Promise<DisputeView[]> {
  const rows = await db.selectFrom('disputes').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute();
  return Promise.all(rows.map((r) => viewOf(db, r, now, null)));
}

export interface DisputeAttachmentDownload {
  fileName: string;
  contentType: string;
  content: Buffer;
  disposition: string;
}

/** A dispute's document: operators get every one; a member's users only their member's. */
export async function fetchDisputeAttachment(
  db: Db,
  viewer: { kind: 'operator' } | { kind: 'member'; memberId: number },
  id: number,
): Promise<DisputeAttachmentDownload> {
  const row = await findDisputeAttachment(db, id);
  const allowed = row !== undefined && (viewer.kind === 'operator' || (row.member_id !== null && Number(row.member_id) === viewer.memberId));
  if (!row || !allowed) throw new DomainError('not_found', `no attachment ${id}`, { code: 'attachment.not_found', params: { id } });
  return { fileName: row.file_name, contentType: row.content_type, content: Buffer.from(row.content), disposition: attachmentDisposition(row.file_name) };
}
