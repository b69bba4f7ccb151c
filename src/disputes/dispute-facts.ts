/**
 * What the dispute rules read of a dispute (D33): its state and its reports with the filing
 * members' answers. Types only, apart from the rules (dispute-rules.ts) and the deadlines and
 * effects those use, so that each of them imports these and none imports the rules back.
 */
import type { ReportStatus } from '../reports/lifecycle.ts';
import type { DisputeOutcome } from './dispute-input.ts';

export const DISPUTE_STATES = ['open', 'awaiting_member', 'decided'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];

/** A filing member's answer for one report: `not_asked` when the report has no filing member (an official file). */
export type MemberResponse = 'not_asked' | 'awaited' | 'supported' | 'withdrawn' | 'lapsed' | 'unanswered';

export interface DisputedReport {
  readonly reportId: number;
  readonly status: ReportStatus;
  /** The reporting member; null for an official file without one. */
  readonly filingMemberId: number | null;
  readonly response: MemberResponse;
}

export interface DisputeFacts {
  readonly id: number;
  readonly state: DisputeState;
  readonly outcome: DisputeOutcome | null;
  readonly receivedOn: string;
  /** When the filing members were told (at recording); null when none was asked. */
  readonly membersToldAt: number | null;
  readonly reports: readonly DisputedReport[];
}
