/**
 * Reads for the operator console (D30) and a member's "My reports" (D29): reports with their
 * company, reporting member and filing user; histories; the search audit by member and day.
 */
import { sql } from 'kysely';
import type { Db } from '../db/types.ts';
import { TURKEY_OFFSET_MS } from '../lib/turkey-time.ts';

const DAY_MS = 86_400_000;

/** Reports joined with what the console shows beside them. */
function reportsWithParties(db: Db) {
  return db
    .selectFrom('reports')
    .innerJoin('companies', 'companies.id', 'reports.company_id')
    .leftJoin('members', 'members.id', 'reports.reported_by')
    .leftJoin('users', 'users.id', 'reports.filed_by_user_id')
    .selectAll('reports')
    .select([
      'companies.company_name as companyName',
      'companies.tax_id as companyTaxId',
      'companies.country as companyCountry',
      'companies.city as companyCity',
      'members.ref as memberRef',
      'members.name as memberName',
      'users.name as filerName',
      'users.email as filerEmail',
    ]);
}

export type ReportWithParties = Awaited<ReturnType<typeof listPendingReports>>[number];

/** Pending reports, oldest first (the moderation queue). */
export async function listPendingReports(db: Db, limit: number) {
  return reportsWithParties(db).where('reports.status', '=', 'pending').orderBy('reports.created_at').orderBy('reports.id').limit(limit).execute();
}

/** Every report of a company, in every status, newest first. */
export async function listCompanyReports(db: Db, companyId: number) {
  return reportsWithParties(db).where('reports.company_id', '=', companyId).orderBy('reports.filed_at', 'desc').orderBy('reports.id', 'desc').execute();
}

/** The reports a member reported, newest first. */
export async function listReportsOfMember(db: Db, memberId: number) {
  // An expired report (D34) is the operators' only, kept for them until it is deleted.
  return reportsWithParties(db)
    .where('reports.reported_by', '=', memberId)
    .where('reports.status', '<>', 'expired')
    .orderBy('reports.created_at', 'desc')
    .orderBy('reports.id', 'desc')
    .execute();
}

/** The status histories of the given reports, oldest step first. */
export async function listHistories(db: Db, reportIds: readonly number[]) {
  if (reportIds.length === 0) return [];
  return db
    .selectFrom('report_status_changes')
    .selectAll()
    .where('report_id', 'in', [...reportIds])
    .orderBy('id')
    .execute();
}

export async function findCompanyById(db: Db, id: number) {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findCompanyByTaxId(db: Db, country: string, taxIdNorm: string) {
  return db.selectFrom('companies').selectAll().where('tax_id_norm', '=', taxIdNorm).where('country', '=', country).executeTakeFirst();
}

/**
 * Search requests (D21) counted per member, Turkey day (D19) and channel, between two instants.
 * The day is a whole number of days since the epoch in Turkey time, computed by the database.
 */
export async function countAuditByMemberAndDay(db: Db, fromMs: number, toMs: number) {
  const dayNumber = sql<number>`(audit_log.at + ${sql.lit(TURKEY_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;
  const rows = await db
    .selectFrom('audit_log')
    .leftJoin('members', 'members.id', 'audit_log.member_id')
    .select([
      dayNumber.as('dayNumber'),
      'members.ref as memberRef',
      'members.name as memberName',
      'audit_log.channel as channel',
      (eb) => eb.fn.countAll<number>().as('searches'),
      (eb) => eb.fn.sum<number>(sql`CASE WHEN audit_log.status = 200 THEN 1 ELSE 0 END`).as('answered'),
      (eb) => eb.fn.sum<number>(sql`COALESCE(audit_log.result_count, 0)`).as('results'),
    ])
    .where('audit_log.at', '>=', fromMs)
    .where('audit_log.at', '<', toMs)
    .groupBy([dayNumber, 'members.ref', 'members.name', 'audit_log.channel'])
    .orderBy(dayNumber, 'desc')
    .orderBy('members.ref')
    .orderBy('audit_log.channel')
    .execute();
  return rows.map((r) => ({
    day: new Date(Number(r.dayNumber) * DAY_MS).toISOString().slice(0, 10),
    memberRef: r.memberRef,
    memberName: r.memberName,
    channel: r.channel,
    searches: Number(r.searches),
    answered: Number(r.answered),
    results: Number(r.results),
  }));
}
