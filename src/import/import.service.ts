/**
 * `risklookup import FILE` (D24): streams JSON Lines, writes everything in one transaction,
 * and commits only when every line is good; otherwise it rolls back and lists every bad line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { findMemberIdsByRefs } from '../members/members.repository.ts';
import { checkTransition, type ReportStatus } from '../reports/lifecycle.ts';
import { findReportByRef, insertReport, insertStatusChange, updateReport } from '../reports/reports.repository.ts';
import { applyStatus, refreshVisibleCount } from '../reports/reports.service.ts';
import { findCompanyByTaxId, insertCompany, updateCompany } from '../search/companies.repository.ts';
import { parseImportLine, type ImportCompany, type ImportReport } from './import-line.ts';

export interface ImportSummary {
  lines: number;
  companiesAdded: number;
  companiesUpdated: number;
  reportsAdded: number;
  reportsUpdated: number;
}

export class ImportFailed extends Error {
  constructor(readonly problems: string[], readonly lines: number) {
    super(`import failed: ${problems.length} bad line(s); nothing was written`);
    this.name = 'ImportFailed';
  }
}

interface ImportContext {
  trx: Db;
  clock: Clock;
  changedBy: string;
  memberIds: Map<string, number>;
  summary: ImportSummary;
}

async function memberIdOf(ctx: ImportContext, ref: string | null): Promise<number | null | undefined> {
  if (ref === null) return null;
  if (!ctx.memberIds.has(ref)) {
    const found = await findMemberIdsByRefs(ctx.trx, [ref]);
    if (!found.has(ref)) return undefined;
    ctx.memberIds.set(ref, found.get(ref)!);
  }
  return ctx.memberIds.get(ref);
}

async function upsertCompany(ctx: ImportContext, c: ImportCompany): Promise<number> {
  const now = ctx.clock.now();
  const existing = await findCompanyByTaxId(ctx.trx, c.country, c.taxIdNorm);
  if (!existing) {
    ctx.summary.companiesAdded++;
    return insertCompany(ctx.trx, {
      company_name: c.companyName, tax_id: c.taxId, tax_id_norm: c.taxIdNorm, country: c.country, city: c.city,
      name_key: c.nameKey, name_core: c.nameCore, updated_at: now,
    });
  }
  if (existing.company_name !== c.companyName || existing.city !== c.city || existing.tax_id !== c.taxId) {
    ctx.summary.companiesUpdated++;
    await updateCompany(ctx.trx, Number(existing.id), {
      company_name: c.companyName, tax_id: c.taxId, city: c.city, name_key: c.nameKey, name_core: c.nameCore, updated_at: now,
    });
  }
  return Number(existing.id);
}

function reportFields(r: ImportReport, reportedBy: number | null) {
  return {
    type: r.type, filed_at: r.filedAt, description: r.description, amount_minor: r.amountMinor, currency: r.currency,
    court_decision_date: r.courtDecisionDate, concordat_start: r.concordatStart, concordat_end: r.concordatEnd,
    case_json: r.caseJson, reported_by: reportedBy,
  };
}

/** Writes one report; returns a problem for the line, or null. */
async function writeReport(ctx: ImportContext, companyId: number, r: ImportReport, index: number): Promise<string | null> {
  const reportedBy = await memberIdOf(ctx, r.reportedBy);
  if (reportedBy === undefined) return `reports[${index}].reported_by: no member with ref '${r.reportedBy}'`;
  const now = ctx.clock.now();
  const existing = r.ref === null ? undefined : await findReportByRef(ctx.trx, r.ref);
  if (!existing) {
    const id = await insertReport(ctx.trx, {
      ...reportFields(r, reportedBy), company_id: companyId, ref: r.ref, status: r.status, created_at: now, updated_at: now,
    });
    await insertStatusChange(ctx.trx, { report_id: id, from_status: null, to_status: r.status, changed_at: now, changed_by: ctx.changedBy });
    ctx.summary.reportsAdded++;
    return null;
  }
  if (Number(existing.company_id) !== companyId) {
    return `reports[${index}].ref '${r.ref}' belongs to a report on another company`;
  }
  if (existing.status !== r.status) {
    const refusal = checkTransition(existing.status as ReportStatus, r.status);
    if (refusal) return `reports[${index}] (ref '${r.ref}'): ${refusal}`;
  }
  await updateReport(ctx.trx, Number(existing.id), { ...reportFields(r, reportedBy), updated_at: now });
  if (existing.status !== r.status) await applyStatus(ctx.trx, ctx.clock, existing, r.status, ctx.changedBy);
  ctx.summary.reportsUpdated++;
  return null;
}

async function writeCompany(ctx: ImportContext, company: ImportCompany): Promise<string[]> {
  const companyId = await upsertCompany(ctx, company);
  const problems: string[] = [];
  for (const [i, report] of company.reports.entries()) {
    const problem = await writeReport(ctx, companyId, report, i);
    if (problem) problems.push(problem);
  }
  await refreshVisibleCount(ctx.trx, companyId);
  return problems;
}

export interface ImportOptions {
  countries: CountryCatalogue;
  clock: Clock;
  /** Called now and then with the number of lines read so far. */
  onProgress?: (lines: number) => void;
}

/** Imports the file whole or not at all. Throws ImportFailed with every `line N: reason`. */
export async function importFile(db: Kysely<Database>, path: string, options: ImportOptions): Promise<ImportSummary> {
  const input = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  // Take the iterator now: readline emits lines as soon as the file opens, and lines emitted
  // before anyone iterates (while the transaction is still starting) would be lost.
  const lines = input[Symbol.asyncIterator]();
  try {
    return await importLines(db, { [Symbol.asyncIterator]: () => lines }, `import ${path}`, options);
  } finally {
    input.close();
  }
}

class Rollback extends Error {}

/** The import of any sequence of lines (a file, or the demo data), in one transaction. */
export async function importLines(
  db: Kysely<Database>,
  lines: AsyncIterable<string> | Iterable<string>,
  changedBy: string,
  options: ImportOptions,
): Promise<ImportSummary> {
  const summary: ImportSummary = { lines: 0, companiesAdded: 0, companiesUpdated: 0, reportsAdded: 0, reportsUpdated: 0 };
  const problems: string[] = [];
  const seenRefs = new Map<string, number>();
  try {
    await db.transaction().execute(async (trx) => {
      const ctx: ImportContext = { trx, clock: options.clock, changedBy, memberIds: new Map(), summary };
      let lineNo = 0;
      for await (const line of lines) {
        lineNo++;
        if (lineNo % 1000 === 0) options.onProgress?.(lineNo);
        if (line.trim() === '') continue;
        summary.lines++;
        const { company, problems: lineProblems } = parseImportLine(line, options.countries);
        for (const r of company?.reports ?? []) {
          if (r.ref === null) continue;
          const first = seenRefs.get(r.ref);
          if (first !== undefined) lineProblems.push(`report ref '${r.ref}' already appears on line ${first}`);
          else seenRefs.set(r.ref, lineNo);
        }
        if (company && lineProblems.length === 0) lineProblems.push(...(await writeCompany(ctx, company)));
        for (const p of lineProblems) problems.push(`line ${lineNo}: ${p}`);
      }
      options.onProgress?.(lineNo);
      if (problems.length > 0) throw new Rollback();
    });
  } catch (error) {
    if (error instanceof Rollback) throw new ImportFailed(problems, summary.lines);
    throw error;
  }
  return summary;
}
