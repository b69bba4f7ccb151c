/**
 * Report lifecycle (D11): pending → approved | rejected; approved → withdrawn | deactivated.
 * These are the steps of the operator's CLI (`report status`) and the import (D24). The portal's
 * steps (D29: who may take which, with a reason) are in filing-rules.ts; D29 adds one step that
 * only the filing member may take, pending → withdrawn, which the CLI and the import still refuse.
 */

export const REPORT_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn', 'deactivated'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

const NEXT: Record<ReportStatus, readonly ReportStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['withdrawn', 'deactivated'],
  rejected: [],
  withdrawn: [],
  deactivated: [],
};

export function isReportStatus(value: unknown): value is ReportStatus {
  return typeof value === 'string' && (REPORT_STATUSES as readonly string[]).includes(value);
}

/** Active = approved (D11). */
export function isActive(status: ReportStatus): boolean {
  return status === 'approved';
}

/** Null when the step is allowed, else a message naming the allowed steps. */
export function checkTransition(from: ReportStatus, to: ReportStatus): string | null {
  // A status outside D11's lifecycle (D34's `expired`) is final too.
  const allowed = (NEXT as Partial<Record<string, readonly ReportStatus[]>>)[from] ?? [];
  if (allowed.includes(to)) return null;
  return allowed.length === 0 ? `a ${from} report is final and cannot become ${to}` : `a ${from} report can become ${allowed.join(' or ')}, not ${to}`;
}
