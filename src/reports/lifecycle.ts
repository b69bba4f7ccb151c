/** Report lifecycle (D11): pending → approved | rejected; approved → withdrawn | deactivated. */

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
  if (NEXT[from].includes(to)) return null;
  const allowed = NEXT[from];
  return allowed.length === 0 ? `a ${from} report is final and cannot become ${to}` : `a ${from} report can become ${allowed.join(' or ')}, not ${to}`;
}
