/**
 * The deadlines of a dispute (D33), in calendar days on Turkey's clock (D4), the first day not
 * counted (TBK art. 92/1-1): the filing member answers within 15 days of being told (DAT/Ansonia's
 * courtesy to a contributor); the operator decides within 30 days of receipt (KVKK art. 13/2: "en
 * geç otuz gün içinde"). A deadline's day is the last day on which the step is still in time.
 * No holiday moves a deadline: D33 counts calendar days and the service keeps no holiday calendar.
 */
import { addDays, daysFromTo, turkeyDateOf, type CalendarDate } from '../lib/calendar-date.ts';
import type { DisputeState } from './dispute-facts.ts';

export const MEMBER_ANSWER_DAYS = 15;
export const DECISION_DAYS = 30;

/** The last day the filing member may support its report (told at `toldAt`, an instant). */
export function memberDueOn(toldAt: number): CalendarDate {
  return addDays(turkeyDateOf(toldAt), MEMBER_ANSWER_DAYS);
}

/** The last day the operator may decide (`receivedOn`: the day the company's request reached the bureau). */
export function decisionDueOn(receivedOn: CalendarDate): CalendarDate {
  return addDays(receivedOn, DECISION_DAYS);
}

/** Days left until `dueOn` at `now`: 0 on the last day, negative when late (−1 the day after). */
export function daysLeft(dueOn: CalendarDate, now: number): number {
  return daysFromTo(turkeyDateOf(now), dueOn);
}

export interface Deadline {
  readonly dueOn: CalendarDate;
  readonly daysLeft: number;
}

/** What the console's queue shows of one dispute. */
export interface DisputeDeadlines {
  /** Null once decided: nothing is owed. */
  readonly decision: Deadline | null;
  /** While a filing member is asked (awaiting_member); null otherwise. */
  readonly member: Deadline | null;
}

export function deadlinesOf(
  dispute: { readonly state: DisputeState; readonly receivedOn: CalendarDate; readonly membersToldAt: number | null },
  now: number,
): DisputeDeadlines {
  if (dispute.state === 'decided') return { decision: null, member: null };
  const decision = decisionDueOn(dispute.receivedOn);
  const member = dispute.state === 'awaiting_member' && dispute.membersToldAt !== null ? memberDueOn(dispute.membersToldAt) : null;
  return {
    decision: { dueOn: decision, daysLeft: daysLeft(decision, now) },
    member: member === null ? null : { dueOn: member, daysLeft: daysLeft(member, now) },
  };
}

/**
 * The console's queue order: undecided disputes first, fewest days left for the decision first
 * (the late ones, most late first), then the member's deadline, then the oldest receipt, then id.
 */
export function compareByDaysLeft(
  a: { readonly id: number; readonly receivedOn: CalendarDate; readonly deadlines: DisputeDeadlines },
  b: { readonly id: number; readonly receivedOn: CalendarDate; readonly deadlines: DisputeDeadlines },
): number {
  const left = (d: Deadline | null) => d?.daysLeft ?? Number.POSITIVE_INFINITY;
  return (
    compareNumbers(left(a.deadlines.decision), left(b.deadlines.decision)) ||
    compareNumbers(left(a.deadlines.member), left(b.deadlines.member)) ||
    (a.receivedOn < b.receivedOn ? -1 : a.receivedOn > b.receivedOn ? 1 : 0) ||
    a.id - b.id
  );
}

function compareNumbers(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
