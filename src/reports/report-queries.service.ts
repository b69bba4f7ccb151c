/**
 * What the operator console (D30) and a member's "My reports" (D29) show. Operators see every
 * report with who filed it and its whole history; a member sees only its own reports, with their
 * status and the latest reason, and never another member's identity or an operator's (D13), nor
 * the company name and city another filer typed (a member sees its own typed values).
 */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Db } from '../db/types.ts';
import type { Actor } from '../actors/actor.ts';
import type { Clock } from '../lib/clock.ts';
import { fetchAttachment } from './attachments.ts';
import { listOperatorLog } from '../operator/operator-log.ts';
import type { Actor as AttachmentViewer } from './filing-rules.ts';
import { DomainError } from '../lib/errors.ts';
import { formatTurkeyDateTime, quotaDayOf } from '../lib/turkey-time.ts';
import { checkTaxId } from '../companies/tax-id.ts';
import { listAttachmentMeta, type AttachmentMeta } from './filing.repository.ts';
import {
  countAuditByMemberAndDay,
  findCompanyById,
  findCompanyByTaxId,
  listCompanyReports,
  listHistories,
  listPendingReports,
  listReportsOfMember,
  type ReportWithParties,
} from './report-queries.repository.ts';
import type { ReportStatus } from './lifecycle.ts';
import { toReportView, type ReportView } from './report-view.ts';

export interface ReportDetails extends ReportView {
  status: ReportStatus;
  eventDate: string | null;
  company: { id: number; name: string; taxId: string; country: string; city: string };
  /** The company name and city as the filer typed them (D29); null for imported reports. */
  filed: { companyName: string; city: string } | null;
  attachments: AttachmentMeta[];
}

export interface ConsoleReport extends ReportDetails {
  ref: string | null;
  /** The reporting member; null for an official file entered by the operator. */
  member: { ref: string; name: string } | null;
  /** The portal user who filed it; null for imported reports. */
  filedBy: { userId: number; name: string; email: string } | null;
}

export interface HistoryStep {
  from: ReportStatus | null;
  to: ReportStatus;
  at: string;
  by: string;
  userId: number | null;
  reason: string | null;
}

async function attachmentsByReport(db: Db, reportIds: number[]): Promise<Map<number, AttachmentMeta[]>> {
  const byReport = new Map<number, AttachmentMeta[]>();
  for (const a of await listAttachmentMeta(db, reportIds)) byReport.set(a.reportId, [...(byReport.get(a.reportId) ?? []), a]);
  return byReport;
}

function detailsOf(row: ReportWithParties, attachments: Map<number, AttachmentMeta[]>): ReportDetails {
  return {
    ...toReportView(row),
    status: row.status as ReportStatus,
    eventDate: row.event_date,
    company: { id: Number(row.company_id), name: row.companyName, taxId: row.companyTaxId, country: row.companyCountry, city: row.companyCity },
    filed: row.filed_company_name === null || row.filed_city === null ? null : { companyName: row.filed_company_name, city: row.filed_city },
    attachments: attachments.get(Number(row.id)) ?? [],
  };
}

function consoleReportOf(row: ReportWithParties, attachments: Map<number, AttachmentMeta[]>): ConsoleReport {
  return {
    ...detailsOf(row, attachments),
    ref: row.ref,
    member: row.memberRef === null || row.memberName === null ? null : { ref: row.memberRef, name: row.memberName },
    filedBy:
      row.filed_by_user_id === null || row.filerEmail === null
        ? null
        : { userId: Number(row.filed_by_user_id), name: row.filerName ?? '', email: row.filerEmail },
  };
}

/** The moderation queue: pending reports, oldest first, with their attachments (names, types, sizes). */
export async function listPendingQueue(db: Db, options: { limit?: number } = {}): Promise<ConsoleReport[]> {
  const rows = await listPendingReports(db, Math.min(Math.max(options.limit ?? 100, 1), 500));
  const attachments = await attachmentsByReport(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => consoleReportOf(r, attachments));
}

export interface CompanyFile {
  company: { id: number; name: string; taxId: string; country: string; city: string; visibleReportCount: number };
  reports: Array<ConsoleReport & { history: HistoryStep[] }>;
}

function stepOf(h: Awaited<ReturnType<typeof listHistories>>[number]): HistoryStep {
  return {
    from: h.from_status as ReportStatus | null,
    to: h.to_status as ReportStatus,
    at: formatTurkeyDateTime(Number(h.changed_at)),
    by: h.changed_by,
    userId: h.changed_by_user_id === null ? null : Number(h.changed_by_user_id),
    reason: h.reason,
  };
}

/** A company with all its reports in every status, who filed each, and each one's whole history. */
export async function getCompanyFile(db: Db, companyId: number): Promise<CompanyFile> {
  const company = Number.isSafeInteger(companyId) ? await findCompanyById(db, companyId) : undefined;
  if (!company) throw new DomainError('not_found', `no company ${companyId}`, { code: 'company.not_found', params: { id: companyId } });
  const rows = await listCompanyReports(db, companyId);
  const ids = rows.map((r) => Number(r.id));
  const attachments = await attachmentsByReport(db, ids);
  const histories = new Map<number, HistoryStep[]>();
  for (const h of await listHistories(db, ids)) histories.set(Number(h.report_id), [...(histories.get(Number(h.report_id)) ?? []), stepOf(h)]);
  return {
    company: {
      id: Number(company.id),
      name: company.company_name,
      taxId: company.tax_id,
      country: company.country,
      city: company.city,
      visibleReportCount: Number(company.visible_report_count),
    },
    reports: rows.map((r) => ({ ...consoleReportOf(r, attachments), history: histories.get(Number(r.id)) ?? [] })),
  };
}

/** The console's "open a company" by tax ID (D9, with its country); not_found when unknown. */
export async function findCompanyIdByTaxId(db: Db, countries: Pick<CountryCatalogue, 'get'>, country: string, taxId: string): Promise<number> {
  const c = countries.get(country.trim().toUpperCase());
  if (!c) {
    throw new DomainError('invalid', `country ${JSON.stringify(country)} is not a supported 2-letter country code`, {
      code: 'country.unsupported',
      params: { country },
    });
  }
  const check = checkTaxId(taxId, c);
  if (!check.valid) throw new DomainError('invalid', check.message, check.problem);
  const company = await findCompanyByTaxId(db, c.code, check.canonical);
  if (!company) {
    throw new DomainError('not_found', `no company with tax ID ${check.canonical} in ${c.code}`, {
      code: 'company.not_found_by_tax_id',
      params: { taxId: check.canonical, country: c.code },
    });
  }
  return Number(company.id);
}

export interface MyReport extends ReportDetails {
  /** The latest step: its status, when, and its reason (a rejection's, a deactivation's, the member's own note). */
  latest: { status: ReportStatus; at: string; reason: string | null };
}

/**
 * A member's own reports, newest first, each with its latest step. No reporting member, filing
 * user or operator is named: a member's users see their own reports only, and who moderated them
 * is the bureau's business (D13).
 */
export async function listMyReports(db: Db, memberId: number): Promise<MyReport[]> {
  const rows = await listReportsOfMember(db, memberId);
  const ids = rows.map((r) => Number(r.id));
  const attachments = await attachmentsByReport(db, ids);
  const latest = new Map<number, HistoryStep>();
  for (const h of await listHistories(db, ids)) latest.set(Number(h.report_id), stepOf(h));
  return rows.map((r) => {
    const step = latest.get(Number(r.id));
    const details = detailsOf(r, attachments);
    // The member sees what its own user typed, never another filer's text that the company kept.
    const own = details.filed ? { ...details.company, name: details.filed.companyName, city: details.filed.city } : details.company;
    return {
      ...details,
      company: own,
      latest: step
        ? { status: step.to, at: step.at, reason: step.reason }
        : { status: r.status as ReportStatus, at: formatTurkeyDateTime(Number(r.updated_at)), reason: null },
    };
  });
}

/** Search audit (D21) by member, Turkey day (D19) and channel, newest day first; `days` back from `now`. */
export async function summariseSearchAudit(db: Db, now: number, days = 30) {
  const today = quotaDayOf(now);
  const toMs = Date.parse(`${today}T00:00:00+03:00`) + 86_400_000;
  return countAuditByMemberAndDay(db, toMs - days * 86_400_000, toMs);
}

/** What the reports' query use cases need (composition root, src/services.ts). */
export interface ReportQueriesDeps {
  db: Db;
  clock: Clock;
  countries: Pick<CountryCatalogue, 'get'>;
}

function operatorOnly(actor: Actor): void {
  if (actor.kind !== 'operator' && actor.kind !== 'cli')
    throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
}

function memberIdOf(actor: Actor): number {
  if (actor.kind !== 'member_user')
    throw new DomainError('forbidden', "only an active user of the member may act on the member's reports", { code: 'actor.not_member_user' });
  return actor.memberId;
}

/** Who looks at an attachment, as fetchAttachment checks it: an operator, or a user of the filing member. */
function viewerOf(actor: Actor): AttachmentViewer {
  if (actor.kind === 'operator') return { kind: 'operator', userId: actor.userId };
  return { kind: 'member', userId: actor.kind === 'member_user' ? actor.userId : 0, memberId: memberIdOf(actor) };
}

/**
 * The reports' reads as use cases `(actor, input)`: a member user's own reports and attachments,
 * the operator's queue, company files and search-audit summary (D21, D29, D30).
 */
export function createReportQueries({ db, clock, countries }: ReportQueriesDeps) {
  return {
    /** The reports the actor's member filed, newest first. */
    listMine: (actor: Actor) => listMyReports(db, memberIdOf(actor)),
    /** The reports waiting for a decision (operators). */
    pendingQueue: (actor: Actor) => (operatorOnly(actor), listPendingQueue(db)),
    /** A company with all its reports (operators). */
    companyFile: (actor: Actor, input: { companyId: number }) => (operatorOnly(actor), getCompanyFile(db, input.companyId)),
    /** The company of a tax ID (operators); not_found when none. */
    findCompanyId: (actor: Actor, input: { country: string; taxId: string }) => (
      operatorOnly(actor),
      findCompanyIdByTaxId(db, countries, input.country, input.taxId)
    ),
    /** The search audit's daily summary of the last `days` days (operators). */
    searchAudit: (actor: Actor, input: { days: number }) => (operatorOnly(actor), summariseSearchAudit(db, clock.now(), input.days)),
    /** The operator log (D30), newest first, a page older than `beforeId` (operators). */
    operatorLog: (actor: Actor, input: { limit: number; beforeId?: number }) => (operatorOnly(actor), listOperatorLog(db, input)),
    /** An attachment of a report: an operator's, or the filing member's own; anyone else's is not_found (D29). */
    attachment: (actor: Actor, input: { attachmentId: number }) => fetchAttachment(db, viewerOf(actor), input.attachmentId),
  };
}

export type ReportQueries = ReturnType<typeof createReportQueries>;
