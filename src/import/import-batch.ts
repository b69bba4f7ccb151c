/**
 * Writes one batch of checked import lines (D24) with a handful of statements: look up the
 * batch's companies, reports and members at once, insert new rows many at a time, and take
 * the rare paths (a changed company, a report updated by ref) one row at a time.
 *
 * Retention (D34): every report is written with its anchor (import-line.ts, the daily job's
 * rule), so the job's next run has nothing to work out. A report already past its retention end
 * at the import's instant is written `expired` (expired now, with a history row saying why,
 * kept for the operators like one the job expired, never counted as visible): it never appears
 * in search, not even until the job's next run, and the import stays one transaction.
 */
import type { Insertable } from 'kysely';
import type { CompaniesTable, ReportsTable, ReportStatusChangesTable } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { findMemberIdsByRefs } from '../members/members.repository.ts';
import { checkTransition, type ReportStatus } from '../reports/lifecycle.ts';
import { findReportsByRefs, updateReport, type ReportRow } from '../reports/reports.repository.ts';
import { applyStatus, refreshVisibleCount } from '../reports/reports.service.ts';
import { visibleReports } from '../reports/visibility.ts';
import { findCompaniesByTaxIds, updateCompany, type CompanyRow } from '../companies/companies.repository.ts';
import type { WriteSession } from '../db/write-session.ts';
import type { ImportCompany, ImportReport } from './import-line.ts';
import type { WrittenFilter } from './written-filter.ts';
import { newCompanyRow, renamedCompany } from '../companies/company-row.ts';
import type { ReportType } from '../reports/report-types.ts';
import { EXPIRY_BY, EXPIRY_REASON, expiryCutoffOf, retentionAnchorOf } from '../retention/retention-rules.ts';
import type { RetentionSettings } from '../retention/retention-settings.ts';
import { nextTurn } from '../lib/next-turn.ts';

/** Lines between two turns of the event loop while an import reads and writes (~1 ms of work). */
export const TURN_EVERY_LINES = 100;

export interface ImportSummary {
  lines: number;
  companiesAdded: number;
  companiesUpdated: number;
  reportsAdded: number;
  reportsUpdated: number;
  /** Of the reports added or updated, those already past their retention end (D34): written `expired`. */
  reportsExpired: number;
}

export interface BatchContext {
  session: WriteSession;
  clock: Clock;
  changedBy: string;
  /** D34's settings: which reports are already past their retention end. */
  retention: RetentionSettings;
  /** Member ref → id, filled as refs are met; kept across batches. */
  memberIds: Map<string, number>;
  summary: ImportSummary;
  /** `line N: reason` for every bad line. */
  problems: string[];
  /**
   * Into an empty database: the tax IDs and report refs this import wrote, so that only those
   * that may exist are looked up (written-filter.ts). Null: every one is looked up.
   */
  written: { taxIds: WrittenFilter; refs: WrittenFilter } | null;
}

export interface BatchLine {
  lineNo: number;
  company: ImportCompany;
}

export const companyKey = (country: string, taxIdNorm: string) => `${country}:${taxIdNorm}`;

async function resolveMembers(ctx: BatchContext, batch: readonly BatchLine[]): Promise<void> {
  const missing = new Set<string>();
  for (const { company } of batch) {
    for (const r of company.reports) if (r.reportedBy !== null && !ctx.memberIds.has(r.reportedBy)) missing.add(r.reportedBy);
  }
  for (const [ref, id] of await findMemberIdsByRefs(ctx.session.trx, [...missing])) ctx.memberIds.set(ref, id);
}

function reportFields(r: ImportReport, reportedBy: number | null) {
  return {
    type: r.type,
    filed_at: r.filedAt,
    description: r.description,
    amount_minor: r.amountMinor,
    currency: r.currency,
    court_decision_date: r.courtDecisionDate,
    concordat_start: r.concordatStart,
    concordat_end: r.concordatEnd,
    case_json: r.caseJson,
    reported_by: reportedBy,
  };
}

/**
 * Whether an imported report is past its retention end at `now` (the job's own test: its anchor
 * at or before the type's cutoff), per type once per batch.
 */
function pastRetention(settings: RetentionSettings, now: number): (type: ReportType, anchor: string) => boolean {
  const cutoffs = new Map<ReportType, string>();
  return (type, anchor) => {
    let cutoff = cutoffs.get(type);
    if (cutoff === undefined) cutoffs.set(type, (cutoff = expiryCutoffOf(type, now, settings)));
    return anchor <= cutoff;
  };
}

/** A whole new report row, written out rather than spread: this runs once per imported report. */
function newReportRow(r: ImportReport, companyId: number, reportedBy: number | null, now: number, expired: boolean): Insertable<ReportsTable> {
  return {
    company_id: companyId,
    ref: r.ref,
    type: r.type,
    status: expired ? 'expired' : r.status,
    filed_at: r.filedAt,
    description: r.description,
    amount_minor: r.amountMinor,
    currency: r.currency,
    court_decision_date: r.courtDecisionDate,
    concordat_start: r.concordatStart,
    concordat_end: r.concordatEnd,
    case_json: r.caseJson,
    reported_by: reportedBy,
    created_at: now,
    updated_at: now,
    retention_anchor: r.retentionAnchor,
    expired_at: expired ? now : null,
  };
}

/** A line's problems before anything is written: unknown members, refs that clash or may not step. */
function checkLine(ctx: BatchContext, line: BatchLine, existingCompany: CompanyRow | undefined, reportsByRef: Map<string, ReportRow>): string[] {
  const problems: string[] = [];
  line.company.reports.forEach((r, i) => {
    if (r.reportedBy !== null && !ctx.memberIds.has(r.reportedBy)) problems.push(`reports[${i}].reported_by: no member with ref '${r.reportedBy}'`);
    const existing = r.ref === null ? undefined : reportsByRef.get(r.ref);
    if (!existing) return;
    if (!existingCompany || Number(existing.company_id) !== Number(existingCompany.id)) {
      problems.push(`reports[${i}].ref '${r.ref}' belongs to a report on another company`);
    } else if (existing.status !== r.status) {
      const refusal = checkTransition(existing.status as ReportStatus, r.status);
      if (refusal) problems.push(`reports[${i}] (ref '${r.ref}'): ${refusal}`);
    }
  });
  return problems;
}

/** The visible count of a new company, from its own reports (D12), without a query; an expired one never counts. */
function visibleCountOf(ctx: BatchContext, company: ImportCompany, expired: (r: ImportReport) => boolean): number {
  return visibleReports(
    company.reports
      // An expired report is not active: it counts neither itself nor towards a consensus.
      .filter((r) => !expired(r))
      .map((r) => ({ type: r.type, status: r.status, reportedBy: r.reportedBy === null ? null : ctx.memberIds.get(r.reportedBy)! })),
  ).length;
}

async function updateExisting(
  ctx: BatchContext,
  row: CompanyRow,
  line: BatchLine,
  reportsByRef: Map<string, ReportRow>,
  past: (type: ReportType, anchor: string) => boolean,
) {
  const c = line.company;
  const now = ctx.clock.now();
  if (row.company_name !== c.companyName || row.city !== c.city || row.tax_id !== c.taxId) {
    ctx.summary.companiesUpdated++;
    await updateCompany(ctx.session.trx, Number(row.id), renamedCompany(c, c.city, now, c.taxId));
  }
  for (const r of c.reports) {
    const existing = r.ref === null ? undefined : reportsByRef.get(r.ref);
    if (!existing) continue;
    const reportedBy = r.reportedBy === null ? null : ctx.memberIds.get(r.reportedBy)!;
    // The line's dates replace the stored ones; a report filed in the portal keeps its event date.
    const anchor =
      existing.event_date === null
        ? r.retentionAnchor
        : retentionAnchorOf({
            type: r.type,
            eventDate: existing.event_date,
            caseFields: r.caseJson === null ? null : (JSON.parse(r.caseJson) as Record<string, string>),
            courtDecisionDate: r.courtDecisionDate,
            concordatEnd: r.concordatEnd,
            filedAt: r.filedAt,
          }).date;
    await updateReport(ctx.session.trx, Number(existing.id), { ...reportFields(r, reportedBy), retention_anchor: anchor, updated_at: now });
    if (existing.status !== r.status) await applyStatus(ctx.session.trx, ctx.clock, existing, r.status, ctx.changedBy);
    if (past(r.type, anchor)) {
      await updateReport(ctx.session.trx, Number(existing.id), { status: 'expired', expired_at: now, updated_at: now });
      await ctx.session.insertStatusChanges([
        { report_id: Number(existing.id), from_status: r.status, to_status: 'expired', changed_at: now, changed_by: EXPIRY_BY, reason: EXPIRY_REASON },
      ]);
      ctx.summary.reportsExpired++;
    }
    ctx.summary.reportsUpdated++;
  }
}

export async function writeBatch(ctx: BatchContext, batch: readonly BatchLine[]): Promise<void> {
  if (batch.length === 0) return;
  await resolveMembers(ctx, batch);
  const companies = new Map<string, CompanyRow>();
  const written = ctx.written;
  const taxIds = [...new Set(batch.map((l) => l.company.taxIdNorm))].filter((t) => !written || written.taxIds.mayHave(t));
  for (const row of await findCompaniesByTaxIds(ctx.session.trx, taxIds)) {
    companies.set(companyKey(row.country, row.tax_id_norm), row);
  }
  const refs = batch
    .flatMap((l) => l.company.reports.map((r) => r.ref).filter((r): r is string => r !== null))
    .filter((r) => !written || written.refs.mayHave(r));
  const reportsByRef = new Map((await findReportsByRefs(ctx.session.trx, refs)).map((r) => [r.ref!, r]));

  const now = ctx.clock.now();
  const past = pastRetention(ctx.retention, now);
  const expired = (r: ImportReport) => past(r.type, r.retentionAnchor);
  const newCompanies: Array<Insertable<CompaniesTable>> = [];
  const newReports: Array<{ key: string; report: ImportReport }> = [];
  const touched = new Set<number>();
  for (let n = 0; n < batch.length; n++) {
    const line = batch[n]!;
    // A turn of the event loop now and then: PostgreSQL's COPYs of the batch before go on meanwhile (import.service.ts).
    if (n > 0 && n % TURN_EVERY_LINES === 0) await nextTurn();
    const c = line.company;
    const key = companyKey(c.country, c.taxIdNorm);
    const existing = companies.get(key);
    const problems = checkLine(ctx, line, existing, reportsByRef);
    if (problems.length > 0) {
      for (const p of problems) ctx.problems.push(`line ${line.lineNo}: ${p}`);
      continue;
    }
    if (existing) {
      await updateExisting(ctx, existing, line, reportsByRef, past);
      touched.add(Number(existing.id));
    } else {
      newCompanies.push(newCompanyRow(c, now, visibleCountOf(ctx, c, expired)));
    }
    for (const r of c.reports) if (r.ref === null || !reportsByRef.has(r.ref)) newReports.push({ key, report: r });
  }

  const ids = new Map([...companies].map(([k, row]) => [k, Number(row.id)]));
  for (const row of await ctx.session.insertCompanies(newCompanies)) {
    ids.set(companyKey(row.country, row.taxIdNorm), row.id);
  }
  ctx.summary.companiesAdded += newCompanies.length;
  if (written) for (const c of newCompanies) written.taxIds.add(c.tax_id_norm);

  const pastEnd = newReports.map(({ report }) => expired(report));
  const reportRows = newReports.map(({ key, report: r }, i) =>
    newReportRow(r, ids.get(key)!, r.reportedBy === null ? null : ctx.memberIds.get(r.reportedBy)!, now, pastEnd[i]!),
  );
  const inserted = await ctx.session.insertReports(reportRows);
  if (written) for (const { report } of newReports) if (report.ref !== null) written.refs.add(report.ref);
  // Its history as the file gives it, then (past its retention end) its expiry, as the job writes it.
  const history: Array<Insertable<ReportStatusChangesTable>> = [];
  inserted.forEach((r, i) => {
    const status = newReports[i]!.report.status;
    history.push({ report_id: r.id, from_status: null, to_status: status, changed_at: now, changed_by: ctx.changedBy });
    if (pastEnd[i]) history.push({ report_id: r.id, from_status: status, to_status: 'expired', changed_at: now, changed_by: EXPIRY_BY, reason: EXPIRY_REASON });
  });
  await ctx.session.insertStatusChanges(history);
  ctx.summary.reportsAdded += inserted.length;
  ctx.summary.reportsExpired += pastEnd.filter(Boolean).length;
  // Companies that existed before: their count depends on reports outside this batch too.
  for (const { key } of newReports) {
    const id = ids.get(key)!;
    if (companies.has(key)) touched.add(id);
  }
  for (const id of touched) await refreshVisibleCount(ctx.session.trx, id);
}
