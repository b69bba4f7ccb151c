/**
 * The rows a name search from the index of names shows (search.service.ts, namesFromMemory),
 * read by id, and on PostgreSQL their approved reports in the same statement
 * (seam.activeReportsWith): each statement there is a round trip, and sending it and reading its
 * answer was the largest item of the server's CPU per fresh name (issue 28: `writev` 25–30 % of
 * the busy time). SQLite reads the rows alone, as before; the reports come from listActiveReports.
 */
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { Db } from '../db/types.ts';
import { preparedQuery } from '../db/prepared.ts';
import { COMPANY_ROW_COLUMNS } from '../db/schema.ts';
import { findCompaniesById, type CompanyRow } from '../companies/companies.repository.ts';
import { SEARCH_REPORT_COLUMNS, type SearchReportRow } from '../reports/reports.repository.ts';

/** A shown row; `active_reports` when the statement read them (PostgreSQL, the ids asked for): one JSON array per report. */
type ShownRow = CompanyRow & { active_reports?: unknown[][] | null };

const shownRowsQuery = preparedQuery((db, p, seam: DialectSeam) =>
  db
    .selectFrom('companies')
    .select(COMPANY_ROW_COLUMNS)
    .select(seam.activeReportsWith!(p(1), SEARCH_REPORT_COLUMNS).as('active_reports'))
    .where(seam.idInList(p(0))),
);

/**
 * The companies among `ids` (any order, any visibility) and, where the engine reads them in the
 * same statement, the approved reports of those among `withReports` (reportsReadWith).
 */
export async function findShownRows(db: Db, seam: DialectSeam, ids: readonly number[], withReports: readonly number[]): Promise<CompanyRow[]> {
  if (ids.length === 0) return [];
  if (seam.activeReportsWith === null) return findCompaniesById(db, seam, ids);
  return shownRowsQuery(db, [seam.idList(ids), seam.idList(withReports)], seam);
}

/**
 * The approved reports read with a row by findShownRows, newest first as listActiveReports
 * returns them; null when they were not (SQLite, a company not asked for, any other row).
 */
export function reportsReadWith(row: CompanyRow): SearchReportRow[] | null {
  const json = (row as ShownRow).active_reports;
  if (json === undefined || json === null) return null;
  const out = new Array<SearchReportRow>(json.length);
  for (let i = 0; i < json.length; i++) out[i] = toReportRow(json[i]!);
  return out;
}

/** One report's JSON array (SEARCH_REPORT_COLUMNS' order) as the row listActiveReports returns: the same values (bigint as number, integer, text, null). */
function toReportRow(values: readonly unknown[]): SearchReportRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < SEARCH_REPORT_COLUMNS.length; i++) row[SEARCH_REPORT_COLUMNS[i]!] = values[i];
  return row as SearchReportRow;
}
