/**
 * Ageing and retention (D34), pure: from which date a report ages (its anchor), when it leaves
 * search (its retention end), when an expired report is deleted with its history, and how old an
 * audit record may get. The daily job and the migration of existing reports ask these; they call
 * nothing. Every date is a Turkey-time calendar date (D4, lib/calendar-date.ts).
 *
 * - A report's **anchor**: `concordat` its `concordat_end`, `court_decision` its
 *   `court_decision_date`, every other type its event date. Imported reports (D24) have no event
 *   date: the date the public record carries stands for it — the enforcement file's `case.date`,
 *   the debt's `case.assignment_date`, then the `court_decision_date`, and only then the Turkey
 *   date of `filed_at`. C-26/22 (SCHUFA): a bureau may not keep negative data longer than the
 *   public register it came from, and that register's clock starts with its own entry, not with
 *   the day the record reached us. An event cannot postdate its report: an event-like date after
 *   `filed_at` (a typo in imported data) is read as `filed_at`'s date, so a wrong year never
 *   keeps a report longer.
 * - The **retention end** is the anchor plus the type's months (TBK art. 92: 2024-02-29 plus 3
 *   years is 2027-02-28). From 00:00 Turkey time that day the report is past retention: the
 *   next run of the daily job expires it (out of search, attachments deleted, kept as `expired`).
 * - An expired report is **deleted** with its history `expiredKeptMonths` after the day it was
 *   actually expired (not after its retention end): every record spends the full period in the
 *   operators' view, also one expired late by a missed day or by the first run after the upgrade.
 * - **Audit records** (D21) older than `auditKeptDays` days are deleted.
 */
import { addDays, addMonths, earlierOf, startOfTurkeyDay, turkeyDateOf, type CalendarDate } from '../lib/calendar-date.ts';
import { isCalendarDate } from '../lib/turkey-time.ts';
import type { ReportType } from '../reports/report-types.ts';
import type { RetentionSettings } from './retention-settings.ts';

const DAY_MS = 86_400_000;

/** What a report's age is read from (plain values of its row; `caseFields` is `case_json` parsed). */
export interface RetentionFacts {
  readonly type: ReportType;
  /** D29's date of the underlying event; null for imported reports. */
  readonly eventDate: string | null;
  readonly caseFields: Readonly<Record<string, string>> | null;
  readonly courtDecisionDate: string | null;
  readonly concordatEnd: string | null;
  /** Epoch milliseconds. */
  readonly filedAt: number;
}

/** Which of the report's dates its age is counted from. */
export type AnchorSource = 'concordat_end' | 'court_decision_date' | 'event_date' | 'case.date' | 'case.assignment_date' | 'filed_at';

export interface RetentionAnchor {
  readonly date: CalendarDate;
  readonly source: AnchorSource;
}

/** The candidates in order of preference, for an event-dated type (every type but the two below). */
const EVENT_CHAIN: readonly AnchorSource[] = ['event_date', 'case.date', 'case.assignment_date', 'court_decision_date'];
/** `concordat` and `court_decision` age from their own date; the event chain is their fallback for incomplete old rows. */
const OWN_DATE: Partial<Record<ReportType, AnchorSource>> = { concordat: 'concordat_end', court_decision: 'court_decision_date' };

function candidate(facts: RetentionFacts, source: AnchorSource): string | null | undefined {
  switch (source) {
    case 'concordat_end':
      return facts.concordatEnd;
    case 'court_decision_date':
      return facts.courtDecisionDate;
    case 'event_date':
      return facts.eventDate;
    case 'case.date':
      return facts.caseFields?.date;
    case 'case.assignment_date':
      return facts.caseFields?.assignment_date;
    case 'filed_at':
      return turkeyDateOf(facts.filedAt);
  }
}

/** The date a report ages from, and which of its dates that is (shown to the operator and in the disclosure). */
export function retentionAnchorOf(facts: RetentionFacts): RetentionAnchor {
  const filedOn = turkeyDateOf(facts.filedAt);
  const own = OWN_DATE[facts.type];
  if (own) {
    const date = candidate(facts, own);
    // A concordat ends after it is reported: its end date is not capped by the filing.
    if (date && isCalendarDate(date)) return { date: own === 'concordat_end' ? date : earlierOf(date, filedOn), source: own };
  }
  for (const source of EVENT_CHAIN) {
    const date = candidate(facts, source);
    if (date && isCalendarDate(date)) return { date: earlierOf(date, filedOn), source };
  }
  return { date: filedOn, source: 'filed_at' };
}

export interface RetentionEnd {
  readonly anchor: RetentionAnchor;
  /** From 00:00 Turkey time of this day the report is past retention. */
  readonly endsOn: CalendarDate;
}

export function retentionEndOf(facts: RetentionFacts, settings: RetentionSettings): RetentionEnd {
  const anchor = retentionAnchorOf(facts);
  return { anchor, endsOn: addMonths(anchor.date, settings.keptMonths[facts.type]) };
}

/** Whether `endsOn` has come (in Turkey time) at instant `now`. */
export function hasComeBy(date: CalendarDate, now: number): boolean {
  return turkeyDateOf(now) >= date;
}

/**
 * The latest anchor date of a `type` report that is past retention at `now`: a report is due to
 * expire exactly when its stored anchor is at or before this date. Lets the job select with an
 * index on (type, anchor) and lets a changed setting apply at once, with nothing recomputed.
 * (Adding months never goes back, so the reports past retention are those up to one date; where
 * several anchors end on one day — 29, 30, 31 January plus a month — the latest counts.)
 */
export function expiryCutoffOf(type: ReportType, now: number, settings: RetentionSettings): CalendarDate {
  const today = turkeyDateOf(now);
  const months = settings.keptMonths[type];
  let cutoff = addMonths(today, -months);
  while (addMonths(addDays(cutoff, 1), months) <= today) cutoff = addDays(cutoff, 1);
  return cutoff;
}

/** The day an expired report is deleted with its history (`expiredAt`: when the job expired it). */
export function deletionDueOn(expiredAt: number, settings: RetentionSettings): CalendarDate {
  return addMonths(turkeyDateOf(expiredAt), settings.expiredKeptMonths);
}

/**
 * Expired reports whose `expired_at` is before this instant are due for deletion at `now`: the
 * start of the Turkey day after the last expiry day whose deletion day has come.
 */
export function deleteExpiredBefore(now: number, settings: RetentionSettings): number {
  const today = turkeyDateOf(now);
  let lastDay = addMonths(today, -settings.expiredKeptMonths);
  while (addMonths(addDays(lastDay, 1), settings.expiredKeptMonths) <= today) lastDay = addDays(lastDay, 1);
  return startOfTurkeyDay(addDays(lastDay, 1));
}

/** Audit records (D21) before this instant are deleted. */
export function auditPurgeBefore(now: number, settings: RetentionSettings): number {
  return now - settings.auditKeptDays * DAY_MS;
}

/** The reason a report's expiry gives in its history (the job's and an import's alike). */
export const EXPIRY_REASON = 'retention period ended (D34)';
/**
 * Who an expiry by the rule is by, in the history: the service by itself (the disclosure says so),
 * whether the daily job found it due or an import wrote it already past its end.
 */
export const EXPIRY_BY = 'system:retention';

export type RetentionStep = 'keep' | 'expire' | 'delete';

/**
 * What the daily job does to one report at `now`: every status but `expired` expires once its
 * retention end has come (a withdrawn or rejected record is held too, and ages the same way); an
 * expired one is deleted once its deletion day has come.
 */
export function retentionStepOf(
  report: RetentionFacts & { readonly status: string; readonly expiredAt: number | null },
  now: number,
  settings: RetentionSettings,
): RetentionStep {
  if (report.status === 'expired') {
    if (report.expiredAt === null) throw new Error('an expired report without the time it expired');
    return hasComeBy(deletionDueOn(report.expiredAt, settings), now) ? 'delete' : 'keep';
  }
  return hasComeBy(retentionEndOf(report, settings).endsOn, now) ? 'expire' : 'keep';
}
