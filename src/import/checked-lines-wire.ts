/**
 * Checked import lines as they cross from the line checker's thread to the writer's: one flat
 * array of strings, numbers and nulls per chunk instead of an array of nested objects. The
 * structured clone of objects rebuilds each object key by key on the receiving thread, which is
 * the writer's, the import's critical path: the writer's CPU to receive the bench file's first
 * 10^5 lines fell from 0.47 to 0.26 s with the flat array and the objects rebuilt from it by
 * literals (docs/benchmarks.md, import28e); about 2 s of the writer's ~75 s at 10^6.
 */
import type { CheckedLine, ImportCompany, ImportReport } from './import-line.ts';

/** Every field of a report and of a company, in the order they travel (checked complete below). */
const REPORT_KEYS = [
  'ref',
  'type',
  'status',
  'filedAt',
  'description',
  'amountMinor',
  'currency',
  'courtDecisionDate',
  'concordatStart',
  'concordatEnd',
  'caseJson',
  'reportedBy',
  'retentionAnchor',
] as const satisfies ReadonlyArray<keyof ImportReport>;
const COMPANY_KEYS = ['companyName', 'taxId', 'taxIdNorm', 'country', 'city', 'nameKey', 'nameCore'] as const satisfies ReadonlyArray<keyof ImportCompany>;

// A field added to ImportReport or ImportCompany and not to the lists above fails the type check here.
type Unsent<T, K> = Exclude<keyof T, K>;
const allReportFieldsSent: [Unsent<ImportReport, (typeof REPORT_KEYS)[number]>] extends [never] ? true : never = true;
const allCompanyFieldsSent: [Unsent<ImportCompany, (typeof COMPANY_KEYS)[number] | 'reports'>] extends [never] ? true : never = true;
void allReportFieldsSent;
void allCompanyFieldsSent;

/** What a line is: blank, a company, or problems only. */
const BLANK = 0;
const COMPANY = 1;
const PROBLEMS = 2;

type Wire = Array<string | number | null>;

/** The lines as one flat array: per line its number and kind, then its problems, or its company's fields and reports. */
export function encodeCheckedLines(lines: readonly CheckedLine[]): Wire {
  const out: Wire = [];
  for (const line of lines) {
    if (line.blank) {
      out.push(line.lineNo, BLANK);
      continue;
    }
    const c = line.company;
    out.push(line.lineNo, c ? COMPANY : PROBLEMS, line.problems.length, ...line.problems);
    if (!c) continue;
    for (const k of COMPANY_KEYS) out.push(c[k]);
    out.push(c.reports.length);
    for (const r of c.reports) for (const k of REPORT_KEYS) out.push(r[k]);
  }
  return out;
}

/** The lines of encodeCheckedLines, as they were. */
export function decodeCheckedLines(wire: ReadonlyArray<string | number | null>): CheckedLine[] {
  const a = wire as unknown[];
  const lines: CheckedLine[] = [];
  let i = 0;
  while (i < a.length) {
    const lineNo = a[i++] as number;
    const kind = a[i++] as number;
    if (kind === BLANK) {
      lines.push({ lineNo, blank: true, company: null, problems: [] });
      continue;
    }
    const problems = a.slice(i + 1, i + 1 + (a[i] as number)) as string[];
    i += 1 + problems.length;
    if (kind === PROBLEMS) {
      lines.push({ lineNo, blank: false, company: null, problems });
      continue;
    }
    // Object literals of one shape each (written out: the order of COMPANY_KEYS and REPORT_KEYS).
    const company: ImportCompany = {
      companyName: a[i++] as string,
      taxId: a[i++] as string,
      taxIdNorm: a[i++] as string,
      country: a[i++] as string,
      city: a[i++] as string,
      nameKey: a[i++] as string,
      nameCore: a[i++] as string,
      reports: [],
    };
    const count = a[i++] as number;
    for (let n = 0; n < count; n++) {
      company.reports.push({
        ref: a[i++] as ImportReport['ref'],
        type: a[i++] as ImportReport['type'],
        status: a[i++] as ImportReport['status'],
        filedAt: a[i++] as ImportReport['filedAt'],
        description: a[i++] as ImportReport['description'],
        amountMinor: a[i++] as ImportReport['amountMinor'],
        currency: a[i++] as ImportReport['currency'],
        courtDecisionDate: a[i++] as ImportReport['courtDecisionDate'],
        concordatStart: a[i++] as ImportReport['concordatStart'],
        concordatEnd: a[i++] as ImportReport['concordatEnd'],
        caseJson: a[i++] as ImportReport['caseJson'],
        reportedBy: a[i++] as ImportReport['reportedBy'],
        retentionAnchor: a[i++] as ImportReport['retentionAnchor'],
      });
    }
    lines.push({ lineNo, blank: false, company, problems });
  }
  return lines;
}
