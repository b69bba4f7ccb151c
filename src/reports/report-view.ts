/** Turns stored report rows into the API's Report objects (spec 2.3, D4, D14). */
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import type { Selectable } from 'kysely';
import type { ReportsTable } from '../db/schema.ts';
import { CASE_FIELDS, isOfficialType, type ReportType } from './report-types.ts';

export interface ReportView {
  report_id: number;
  type: ReportType;
  filed_at: string;
  description: string;
  official: boolean;
  concordat_start?: string;
  concordat_end?: string;
  amount?: number;
  currency?: string;
  court_decision_date?: string;
  case?: Record<string, string>;
  /** D33: a dispute by the company over this report is open or awaiting a member. */
  disputed: boolean;
  /** D33: the company's statement after a dispute decided `upheld`. */
  statement?: string;
}

/** The columns a report's view is made of (the search reads only these). */
export const REPORT_VIEW_COLUMNS = [
  'id',
  'type',
  'filed_at',
  'description',
  'amount_minor',
  'currency',
  'court_decision_date',
  'concordat_start',
  'concordat_end',
  'case_json',
  'disputed',
  'dispute_statement',
] as const satisfies ReadonlyArray<keyof ReportsTable>;

export function toReportView(row: Pick<Selectable<ReportsTable>, (typeof REPORT_VIEW_COLUMNS)[number]>): ReportView {
  const type = row.type as ReportType;
  const view: ReportView = {
    report_id: Number(row.id),
    type,
    filed_at: formatTurkeyDateTime(Number(row.filed_at)),
    description: row.description,
    official: isOfficialType(type),
    disputed: false,
  };
  if (row.concordat_start !== null) view.concordat_start = row.concordat_start;
  if (row.concordat_end !== null) view.concordat_end = row.concordat_end;
  if (row.amount_minor !== null && row.currency !== null) {
    view.amount = Number(row.amount_minor) / 100;
    view.currency = row.currency;
  }
  if (row.court_decision_date !== null) view.court_decision_date = row.court_decision_date;
  const fields = CASE_FIELDS[type];
  if (row.case_json !== null && fields) view.case = inFieldOrder(JSON.parse(row.case_json) as Record<string, string>, fields);
  view.disputed = Number(row.disputed) === 1;
  if (row.dispute_statement !== null) view.statement = row.dispute_statement;
  return view;
}

/** A case's fields in the order of its type's list (the document's), whatever order they were filed in. */
function inFieldOrder(stored: Record<string, string>, fields: readonly string[]): Record<string, string> {
  const ordered: Record<string, string> = {};
  for (const field of fields) if (stored[field] !== undefined) ordered[field] = stored[field];
  return ordered;
}
