/**
 * Storage of filed reports (D29) and their attachments, and the conditional status step that
 * moderation takes (D30). Ordinary statements only: the triggers of migration 0003 keep the
 * search cache exact (the write protocol, db/write-session.ts).
 */
import type { Insertable } from 'kysely';
import type { CompaniesTable, ReportAttachmentsTable, ReportsTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { DomainError } from '../lib/errors.ts';
import type { CompanyRow } from '../companies/companies.repository.ts';

/**
 * The company under (country, canonical tax ID), created when unknown. Safe under concurrency:
 * a filing racing another for the same new company waits for it and then finds its row.
 */
export async function findOrCreateCompany(db: Db, company: Insertable<CompaniesTable>): Promise<{ row: CompanyRow; created: boolean }> {
  const inserted = await db
    .insertInto('companies')
    .values(company)
    .onConflict((oc) => oc.columns(['tax_id_norm', 'country']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const row = await db
    .selectFrom('companies')
    .selectAll()
    .where('tax_id_norm', '=', company.tax_id_norm)
    .where('country', '=', company.country)
    .executeTakeFirstOrThrow();
  return { row, created: false };
}

/** A pending or approved claim of the member on the company (imported ones included), if any. */
export async function findOpenClaim(db: Db, memberId: number, companyId: number): Promise<{ id: number } | undefined> {
  const row = await db
    .selectFrom('reports')
    .select('id')
    .where('reported_by', '=', memberId)
    .where('company_id', '=', companyId)
    .where('type', '=', 'unpaid_debt')
    .where('status', 'in', ['pending', 'approved'])
    .executeTakeFirst();
  return row && { id: Number(row.id) };
}

/**
 * Takes the member's row lock for the rest of the transaction (a no-op update): filings of one
 * member run one after another, so the checks made before an insert (a replayed filing, the day's
 * limit) hold under concurrency too. SQLite runs one write transaction at a time anyway.
 */
export async function lockMemberForFiling(db: Db, memberId: number): Promise<void> {
  await db
    .updateTable('members')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('id', '=', memberId)
    .execute();
}

/** Reports the member filed through the portal since `since` (any status: a withdrawn one was filed too). */
export async function countFilingsSince(db: Db, memberId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('reported_by', '=', memberId)
    .where('filed_by_user_id', 'is not', null)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member's open (pending or approved) reports of one type and event date on a company, with their case. */
export async function listOpenTwins(db: Db, memberId: number, companyId: number, type: string, eventDate: string) {
  return db
    .selectFrom('reports')
    .select(['id', 'case_json'])
    .where('reported_by', '=', memberId)
    .where('company_id', '=', companyId)
    .where('type', '=', type)
    .where('event_date', '=', eventDate)
    .where('status', 'in', ['pending', 'approved'])
    .execute();
}

export const ONE_OPEN_CLAIM_MESSAGE = 'your member already has a pending or approved unpaid_debt report on this company: withdraw it before filing another';

/** Inserts a filed report; the second open claim of a member on a company is a conflict (migration 0005). */
export async function insertFiledReport(db: Db, report: Insertable<ReportsTable>): Promise<number> {
  try {
    const row = await db.insertInto('reports').values(report).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('conflict', ONE_OPEN_CLAIM_MESSAGE, { code: 'filing.open_claim_exists' });
    throw error;
  }
}

export async function insertAttachments(db: Db, rows: ReadonlyArray<Insertable<ReportAttachmentsTable>>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('report_attachments')
    .values([...rows])
    .execute();
}

export interface AttachmentMeta {
  id: number;
  reportId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/** Attachment names, types and sizes (not the content) of the given reports. */
export async function listAttachmentMeta(db: Db, reportIds: readonly number[]): Promise<AttachmentMeta[]> {
  if (reportIds.length === 0) return [];
  const rows = await db
    .selectFrom('report_attachments')
    .select(['id', 'report_id', 'file_name', 'content_type', 'size_bytes', 'sha256'])
    .where('report_id', 'in', [...reportIds])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    reportId: Number(r.report_id),
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: Number(r.size_bytes),
    sha256: r.sha256,
  }));
}

/** One attachment with its content and the member its report belongs to. */
export async function findAttachmentWithReport(db: Db, id: number) {
  return db
    .selectFrom('report_attachments')
    .innerJoin('reports', 'reports.id', 'report_attachments.report_id')
    .select([
      'report_attachments.id as id',
      'report_attachments.report_id as reportId',
      'report_attachments.file_name as fileName',
      'report_attachments.content_type as contentType',
      'report_attachments.size_bytes as sizeBytes',
      'report_attachments.sha256 as sha256',
      'report_attachments.content as content',
      'reports.reported_by as reportedBy',
    ])
    .where('report_attachments.id', '=', id)
    .executeTakeFirst();
}

/**
 * Whether anything of the company has ever been public or came from an import: an imported
 * report (no filing user), or any report of it that was ever approved (its history says so,
 * withdrawn and deactivated ones included).
 */
export async function companyHasPublicHistory(db: Db, companyId: number): Promise<boolean> {
  const imported = await db
    .selectFrom('reports')
    .select('id')
    .where('company_id', '=', companyId)
    .where('filed_by_user_id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (imported) return true;
  const approved = await db
    .selectFrom('report_status_changes')
    .innerJoin('reports', 'reports.id', 'report_status_changes.report_id')
    .select('report_status_changes.id')
    .where('reports.company_id', '=', companyId)
    .where('report_status_changes.to_status', '=', 'approved')
    .limit(1)
    .executeTakeFirst();
  return approved !== undefined;
}

/**
 * Moves a report from `from` to `to` only if it is still `from`: of two moderators acting at
 * once, exactly one changes the row (PostgreSQL re-checks the condition after the other's
 * commit; SQLite runs one write transaction at a time). False when the report had moved on.
 */
export async function updateReportStatusIf(db: Db, id: number, from: string, to: string, at: number): Promise<boolean> {
  const result = await db.updateTable('reports').set({ status: to, updated_at: at }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
