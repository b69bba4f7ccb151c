/** The dispute tables (D33, migration 0017): reads and writes, no rules. */
import type { Insertable, Selectable } from 'kysely';
import type { DisputeAttachmentsTable, DisputesTable, DisputeStepsTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { DisputedReport, DisputeFacts, DisputeState, MemberResponse } from './dispute-rules.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import type { ReportForDispute } from './dispute-record.ts';
import type { DisclosureDisputeRow } from '../disclosure/disclosure-view.ts';

export type DisputeRow = Selectable<DisputesTable>;

export interface DisputeReportRow {
  reportId: number;
  filingMemberId: number | null;
  response: MemberResponse;
  responseText: string | null;
  respondedAt: number | null;
  status: ReportStatus;
  type: string;
  description: string;
  eventDate: string | null;
  filedAt: number;
  amountMinor: number | null;
  currency: string | null;
}

export async function findDispute(db: Db, id: number): Promise<DisputeRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  return db.selectFrom('disputes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listDisputeReports(db: Db, disputeId: number): Promise<DisputeReportRow[]> {
  const rows = await db
    .selectFrom('dispute_reports as d')
    .innerJoin('reports as r', 'r.id', 'd.report_id')
    .select([
      'd.report_id',
      'd.filing_member_id',
      'd.response',
      'd.response_text',
      'd.responded_at',
      'r.status',
      'r.type',
      'r.description',
      'r.event_date',
      'r.filed_at',
      'r.amount_minor',
      'r.currency',
    ])
    .where('d.dispute_id', '=', disputeId)
    .orderBy('d.report_id')
    .execute();
  return rows.map((r) => ({
    reportId: Number(r.report_id),
    filingMemberId: r.filing_member_id === null ? null : Number(r.filing_member_id),
    response: r.response as MemberResponse,
    responseText: r.response_text,
    respondedAt: r.responded_at === null ? null : Number(r.responded_at),
    status: r.status as ReportStatus,
    type: r.type,
    description: r.description,
    eventDate: r.event_date,
    filedAt: Number(r.filed_at),
    amountMinor: r.amount_minor === null ? null : Number(r.amount_minor),
    currency: r.currency,
  }));
}

export function factsOf(row: DisputeRow, reports: readonly DisputeReportRow[]): DisputeFacts {
  return {
    id: Number(row.id),
    state: row.state,
    outcome: row.outcome,
    receivedOn: row.received_on,
    membersToldAt: row.members_told_at === null ? null : Number(row.members_told_at),
    reports: reports.map((r): DisputedReport => ({ reportId: r.reportId, status: r.status, filingMemberId: r.filingMemberId, response: r.response })),
  };
}

/** What `checkRecord` needs of the reports an operator named. */
export async function findReportsForDispute(db: Db, ids: readonly number[]): Promise<ReportForDispute[]> {
  const safe = ids.filter((id) => Number.isSafeInteger(id));
  if (safe.length === 0) return [];
  const rows = await db.selectFrom('reports').select(['id', 'company_id', 'status', 'reported_by']).where('id', 'in', safe).execute();
  const undecided = await db
    .selectFrom('dispute_reports')
    .select(['report_id', 'dispute_id'])
    .where('report_id', 'in', safe)
    .where('undecided', '=', 1)
    .execute();
  const openBy = new Map(undecided.map((u) => [Number(u.report_id), Number(u.dispute_id)]));
  return rows.map((r) => ({
    reportId: Number(r.id),
    companyId: Number(r.company_id),
    status: r.status as ReportStatus,
    filingMemberId: r.reported_by === null ? null : Number(r.reported_by),
    undecidedDisputeId: openBy.get(Number(r.id)) ?? null,
  }));
}

export async function insertDispute(db: Db, row: Insertable<DisputesTable>): Promise<number> {
  const inserted = await db.insertInto('disputes').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function insertDisputeReports(db: Db, disputeId: number, reports: readonly DisputedReport[]): Promise<void> {
  if (reports.length === 0) return;
  await db
    .insertInto('dispute_reports')
    .values(
      reports.map((r) => ({
        dispute_id: disputeId,
        report_id: r.reportId,
        filing_member_id: r.filingMemberId,
        response: r.response,
        undecided: 1,
      })),
    )
    .execute();
}

/** Moves the dispute on only if it is still at `version` (of two steps at once exactly one wins). */
export async function updateDisputeIf(
  db: Db,
  id: number,
  version: number,
  changes: { state: DisputeState; outcome?: DisputesTable['outcome']; decision_reason?: string; decided_at?: number; statement?: string; updated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('disputes')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateDisputeReport(
  db: Db,
  disputeId: number,
  reportId: number,
  changes: { response: MemberResponse; response_text?: string | null; responded_at?: number; responded_by_user_id?: number | null },
): Promise<void> {
  await db.updateTable('dispute_reports').set(changes).where('dispute_id', '=', disputeId).where('report_id', '=', reportId).execute();
}

export async function closeDisputeReports(db: Db, disputeId: number): Promise<void> {
  await db.updateTable('dispute_reports').set({ undecided: null }).where('dispute_id', '=', disputeId).execute();
}

export async function insertDisputeStep(db: Db, row: Insertable<DisputeStepsTable>): Promise<void> {
  await db.insertInto('dispute_steps').values(row).execute();
}

export async function listDisputeSteps(db: Db, disputeId: number) {
  return db.selectFrom('dispute_steps').selectAll().where('dispute_id', '=', disputeId).orderBy('id').execute();
}

export async function insertDisputeAttachments(db: Db, rows: ReadonlyArray<Insertable<DisputeAttachmentsTable>>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('dispute_attachments')
    .values([...rows])
    .execute();
}

export interface DisputeAttachmentMeta {
  id: number;
  reportId: number | null;
  memberId: number | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
}

export async function listDisputeAttachments(db: Db, disputeId: number): Promise<DisputeAttachmentMeta[]> {
  const rows = await db
    .selectFrom('dispute_attachments')
    .select(['id', 'report_id', 'member_id', 'file_name', 'content_type', 'size_bytes'])
    .where('dispute_id', '=', disputeId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    reportId: r.report_id === null ? null : Number(r.report_id),
    memberId: r.member_id === null ? null : Number(r.member_id),
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: Number(r.size_bytes),
  }));
}

export async function findDisputeAttachment(db: Db, id: number) {
  if (!Number.isSafeInteger(id)) return undefined;
  return db.selectFrom('dispute_attachments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Undecided disputes (the console's queue), with their company. */
export async function listUndecidedDisputes(db: Db) {
  return db
    .selectFrom('disputes as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select([
      'd.id',
      'd.state',
      'd.received_on',
      'd.members_told_at',
      'd.identification_method',
      'c.company_name',
      'c.tax_id',
      'c.country',
      'c.id as company_id',
    ])
    .where('d.state', '!=', 'decided')
    .execute();
}

/** The latest decided disputes, newest decision first (the queue's second table). */
export async function listRecentlyDecided(db: Db, limit: number) {
  return db
    .selectFrom('disputes as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select(['d.id', 'd.outcome', 'd.decided_at', 'd.statement', 'c.company_name', 'c.tax_id', 'c.country'])
    .where('d.state', '=', 'decided')
    .orderBy('d.decided_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

/** The disputes waiting for a member, told before `toldBefore` (the daily job asks the rules which are late). */
export async function listAwaitingToldBefore(db: Db, toldBefore: number): Promise<number[]> {
  const rows = await db
    .selectFrom('disputes')
    .select('id')
    .where('state', '=', 'awaiting_member')
    .where('members_told_at', '<', toldBefore)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/** The disputes concerning a member's reports, newest first. */
export async function listDisputeIdsOfMember(db: Db, memberId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('dispute_reports')
    .select('dispute_id')
    .distinct()
    .where('filing_member_id', '=', memberId)
    .orderBy('dispute_id', 'desc')
    .limit(500)
    .execute();
  return rows.map((r) => Number(r.dispute_id));
}

/**
 * The disputes over any of `reportIds`, for the disclosure (D34: what is held on a company,
 * disputes included): one row per dispute with the ids of those of its reports that are asked for.
 */
export async function disputesForDisclosure(db: Db, reportIds: readonly number[]): Promise<DisclosureDisputeRow[]> {
  if (reportIds.length === 0) return [];
  const rows = await db
    .selectFrom('dispute_reports as dr')
    .innerJoin('disputes as d', 'd.id', 'dr.dispute_id')
    .select(['d.id', 'd.state', 'd.outcome', 'd.received_on', 'd.decided_at', 'd.statement', 'dr.report_id'])
    .where('dr.report_id', 'in', [...reportIds])
    .orderBy('d.id')
    .orderBy('dr.report_id')
    .execute();
  const byId = new Map<number, DisclosureDisputeRow & { reportIds: number[] }>();
  for (const r of rows) {
    const id = Number(r.id);
    let dispute = byId.get(id);
    if (!dispute) {
      dispute = {
        id,
        state: r.state,
        outcome: r.outcome,
        receivedOn: r.received_on,
        decidedAt: r.decided_at === null ? null : Number(r.decided_at),
        statement: r.statement,
        reportIds: [],
      };
      byId.set(id, dispute);
    }
    dispute.reportIds.push(Number(r.report_id));
  }
  return [...byId.values()];
}
