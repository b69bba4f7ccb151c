/**
 * The disclosure (D34; KVKK art. 11 for sole traders, the same courtesy to every company): what
 * the service holds on one company, built from plain rows, pure. Every report in every state with
 * its history and disputes, each report's retention end, and per month of the last 12 how many
 * lookups found the company. The page and the PDF word and lay out this view; they decide nothing.
 *
 * What it never holds: who filed a report or took a step. A filing member is "a member", an
 * operator, the CLI or the import "the bureau", the daily job "the service" (D13, D34). The
 * member's id comes in only to work out what members see today (D12) and is dropped here.
 */
import { addMonths, startOfTurkeyDay, turkeyDateOf, type CalendarDate } from '../lib/calendar-date.ts';
import { formatTurkeyDateTime } from '../lib/turkey-time.ts';
import type { DisputeState } from '../disputes/dispute-rules.ts';
import type { DisputeOutcome } from '../disputes/dispute-input.ts';
import { isReportStatus, type ReportStatus } from '../reports/lifecycle.ts';
import { CASE_FIELDS, isOfficialType, type ReportType } from '../reports/report-types.ts';
import { visibleReports } from '../reports/visibility.ts';
import { deletionDueOn, retentionEndOf, type RetentionAnchor } from '../retention/retention-rules.ts';
import type { RetentionSettings } from '../retention/retention-settings.ts';

export type HeldStatus = ReportStatus | 'expired';

export interface DisclosureReportRow {
  readonly id: number;
  readonly type: ReportType;
  readonly status: HeldStatus;
  readonly filedAt: number;
  readonly eventDate: string | null;
  readonly amountMinor: number | null;
  readonly currency: string | null;
  readonly courtDecisionDate: string | null;
  readonly concordatStart: string | null;
  readonly concordatEnd: string | null;
  readonly caseJson: string | null;
  readonly description: string;
  /** The reporting member's id, for D12's consensus only; never shown. */
  readonly reportedBy: number | null;
  readonly expiredAt: number | null;
}

/** One step of a report's history; `by` as the repository classifies the user who took it. */
export interface DisclosureHistoryRow {
  readonly reportId: number;
  readonly from: HeldStatus | null;
  readonly to: HeldStatus;
  readonly at: number;
  readonly by: 'member' | 'operator' | 'system';
  readonly reason: string | null;
}

export interface DisclosureDisputeRow {
  readonly id: number;
  readonly state: DisputeState;
  readonly outcome: DisputeOutcome | null;
  readonly receivedOn: CalendarDate;
  readonly decidedAt: number | null;
  readonly reportIds: readonly number[];
  readonly statement: string | null;
}

export interface DisclosureInput {
  readonly company: { readonly name: string; readonly taxId: string; readonly country: string; readonly city: string };
  readonly reports: readonly DisclosureReportRow[];
  readonly history: readonly DisclosureHistoryRow[];
  readonly disputes: readonly DisclosureDisputeRow[];
  /** Lookups that found the company, counted per Turkey-time month `YYYY-MM` (the windows of `disclosureMonths`). */
  readonly lookups: readonly { readonly month: string; readonly count: number }[];
  readonly now: number;
  readonly retention: RetentionSettings;
}

export interface DisclosureReport {
  readonly id: number;
  readonly type: ReportType;
  readonly official: boolean;
  readonly status: HeldStatus;
  /** Shown to members in a search today (D12). */
  readonly shown: boolean;
  /** D33: a dispute over it is open or awaiting a member. */
  readonly disputed: boolean;
  /** Who it came from, as far as the company may know: a member, or an official register through the bureau. */
  readonly source: 'member' | 'bureau';
  readonly filedOn: CalendarDate;
  readonly eventDate: CalendarDate | null;
  readonly amount: { readonly minor: number; readonly currency: string } | null;
  readonly courtDecisionDate: CalendarDate | null;
  readonly concordat: { readonly start: CalendarDate | null; readonly end: CalendarDate | null } | null;
  /** D14's case fields in the type's order. */
  readonly caseFields: readonly { readonly field: string; readonly value: string }[];
  readonly description: string;
  readonly retention: { readonly anchor: RetentionAnchor; readonly endsOn: CalendarDate; readonly deleteOn: CalendarDate | null };
  readonly history: readonly {
    readonly at: string;
    readonly from: HeldStatus | null;
    readonly to: HeldStatus;
    readonly by: 'member' | 'bureau' | 'system';
    readonly reason: string | null;
  }[];
  readonly disputes: readonly {
    readonly id: number;
    readonly state: DisputeState;
    readonly outcome: DisputeOutcome | null;
    readonly receivedOn: CalendarDate;
    readonly decidedOn: CalendarDate | null;
    readonly statement: string | null;
  }[];
}

export interface DisclosureView {
  readonly company: DisclosureInput['company'];
  /** `YYYY-MM-DD HH:MM:SS`, Turkey time (D4). */
  readonly printedAt: string;
  readonly reports: readonly DisclosureReport[];
  readonly shownCount: number;
  /** The 12 months, oldest first, the current (partial) month last. */
  readonly lookups: readonly { readonly month: string; readonly count: number }[];
  readonly lookupsTotal: number;
}

/**
 * The month `YYYY-MM` (Turkey time) a lookup at `ms` counts in: the one rule for whatever counts
 * lookups per company and month (the search writes them; the disclosure reads them).
 */
export function lookupMonthOf(ms: number): string {
  return turkeyDateOf(ms).slice(0, 7);
}

/**
 * The 12 Turkey-time months the disclosure counts: the current one (up to now) and the 11 before,
 * oldest first, each with the instants it runs from and until. Inside D34's one year of audit.
 */
export function disclosureMonths(now: number): { month: string; from: number; until: number }[] {
  const first = `${lookupMonthOf(now)}-01`;
  return Array.from({ length: 12 }, (_, i) => {
    const start = addMonths(first, i - 11);
    return { month: start.slice(0, 7), from: startOfTurkeyDay(start), until: startOfTurkeyDay(addMonths(start, 1)) };
  });
}

export function buildDisclosure(input: DisclosureInput): DisclosureView {
  const lifecycleRows = input.reports.filter((r): r is DisclosureReportRow & { status: ReportStatus } => isReportStatus(r.status));
  const shown = new Set(visibleReports(lifecycleRows).map((r) => r.id));
  const counts = new Map(input.lookups.map((l) => [l.month, l.count]));
  const lookups = disclosureMonths(input.now).map(({ month }) => ({ month, count: counts.get(month) ?? 0 }));
  const reports = [...input.reports].sort((a, b) => b.filedAt - a.filedAt || b.id - a.id).map((row) => reportOf(row, shown.has(row.id), input));
  return {
    company: input.company,
    printedAt: formatTurkeyDateTime(input.now),
    reports,
    shownCount: shown.size,
    lookups,
    lookupsTotal: lookups.reduce((sum, l) => sum + l.count, 0),
  };
}

function reportOf(row: DisclosureReportRow, shown: boolean, input: DisclosureInput): DisclosureReport {
  const caseFields = row.caseJson === null ? {} : (JSON.parse(row.caseJson) as Record<string, string>);
  const { anchor, endsOn } = retentionEndOf(
    { type: row.type, eventDate: row.eventDate, caseFields, courtDecisionDate: row.courtDecisionDate, concordatEnd: row.concordatEnd, filedAt: row.filedAt },
    input.retention,
  );
  const disputes = input.disputes.filter((d) => d.reportIds.includes(row.id)).sort((a, b) => a.id - b.id);
  return {
    id: row.id,
    type: row.type,
    official: isOfficialType(row.type),
    status: row.status,
    shown,
    disputed: disputes.some((d) => d.state !== 'decided'),
    source: row.reportedBy === null ? 'bureau' : 'member',
    filedOn: turkeyDateOf(row.filedAt),
    eventDate: row.eventDate,
    amount: row.amountMinor === null || row.currency === null ? null : { minor: row.amountMinor, currency: row.currency },
    courtDecisionDate: row.courtDecisionDate,
    concordat: row.concordatStart === null && row.concordatEnd === null ? null : { start: row.concordatStart, end: row.concordatEnd },
    caseFields: (CASE_FIELDS[row.type] ?? []).flatMap((field) => {
      const value = caseFields[field];
      return value === undefined ? [] : [{ field, value }];
    }),
    description: row.description,
    retention: { anchor, endsOn, deleteOn: row.status === 'expired' && row.expiredAt !== null ? deletionDueOn(row.expiredAt, input.retention) : null },
    history: input.history
      .filter((h) => h.reportId === row.id)
      .sort((a, b) => a.at - b.at)
      .map((h) => ({ at: formatTurkeyDateTime(h.at).slice(0, 16), from: h.from, to: h.to, by: h.by === 'operator' ? 'bureau' : h.by, reason: h.reason })),
    disputes: disputes.map((d) => ({
      id: d.id,
      state: d.state,
      outcome: d.outcome,
      receivedOn: d.receivedOn,
      decidedOn: d.decidedAt === null ? null : turkeyDateOf(d.decidedAt),
      statement: d.outcome === 'upheld' ? d.statement : null,
    })),
  };
}
