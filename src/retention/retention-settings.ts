/**
 * The operator's retention settings (D34): how long each type of report is kept after its anchor
 * date, how long an expired report stays for the operators, how long search audit records stay.
 * A typed, frozen object with D34's defaults; `readRetentionSettings` reads it from the
 * environment (or flags) the way config.ts reads every setting, reporting each bad value with
 * its variable, the allowed range and what was given.
 *
 * Months, not years: D34 speaks in years, but a month lets an operator follow a register that
 * keeps less than a year (SCHUFA, C-26/22, kept insolvency discharges 6 months, like the register).
 */
import { readWholeNumber } from '../lib/whole-number.ts';
import { CLAIM_TYPE, OFFICIAL_TYPES, REPORT_TYPES, type ReportType } from '../reports/report-types.ts';

export interface RetentionSettings {
  /** Months a report is kept after its anchor date (retention-rules.ts), per type. */
  readonly keptMonths: Readonly<Record<ReportType, number>>;
  /** Months an expired report stays, for the operators only, before it is deleted with its history. */
  readonly expiredKeptMonths: number;
  /** Days a search audit record (D21) is kept. */
  readonly auditKeptDays: number;
}

/**
 * D34: claims 3 years, official files 5, a concordat 1 year after its end. `court_decision` (D34
 * is silent): 5 years after the decision, as the official `enforcement_judgment` that carries
 * the same date (D14) — one court decision should not age differently under two type names;
 * the 3 years of an unverified claim do not fit a court's ruling. docs/architecture.md says more.
 */
export const DEFAULT_RETENTION: RetentionSettings = Object.freeze({
  keptMonths: Object.freeze({
    enforcement_judgment: 60,
    enforcement_bill: 60,
    bounced_cheque: 60,
    debt_assigned: 60,
    enforcement_plain: 60,
    unpaid_debt: 36,
    concordat: 12,
    court_decision: 60,
  }),
  expiredKeptMonths: 24,
  auditKeptDays: 365,
});

/** Ranges: at most 10 years (TBK art. 146: the longest limitation a debt has; nothing justifies keeping a record longer). */
export const KEPT_MONTHS_RANGE = { min: 1, max: 120 } as const;
export const EXPIRED_KEPT_MONTHS_RANGE = { min: 0, max: 60 } as const;
export const AUDIT_KEPT_DAYS_RANGE = { min: 1, max: 3650 } as const;

/** The environment variable of each setting (the same names as flags' help and docs/operations.md). */
export function keptMonthsVariable(type: ReportType): string {
  return `RISKLOOKUP_RETENTION_MONTHS_${type.toUpperCase()}`;
}
export const EXPIRED_KEPT_MONTHS_VARIABLE = 'RISKLOOKUP_EXPIRED_KEPT_MONTHS';
/** The variable config.ts already reads for D21's purge; D34 bounds it (no more "0 = forever"). */
export const AUDIT_KEPT_DAYS_VARIABLE = 'RISKLOOKUP_AUDIT_RETENTION_DAYS';

type Raw = string | number | undefined;

/** Values as given (flags or a config file); the environment fills what is not given. */
export interface RetentionSettingsInput {
  readonly keptMonths?: Readonly<Partial<Record<ReportType, Raw>>>;
  readonly expiredKeptMonths?: Raw;
  readonly auditKeptDays?: Raw;
}

function read(name: string, raw: Raw, fallback: number, range: { min: number; max: number }, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const result = readWholeNumber(name, raw, range.min, range.max);
  if ('problem' in result) {
    problems.push(result.problem);
    return fallback;
  }
  return result.value;
}

/**
 * The settings from `input`, else the environment, else D34's defaults. Every problem is
 * reported (a value out of range keeps its default meanwhile), worded for the operator:
 * which variable, what is allowed, what was given, and for the cross-check what to change.
 */
export function readRetentionSettings(
  input: RetentionSettingsInput = {},
  env: Readonly<Record<string, string | undefined>> = {},
): { settings: RetentionSettings; problems: string[] } {
  const problems: string[] = [];
  const keptMonths = {} as Record<ReportType, number>;
  for (const type of REPORT_TYPES) {
    const name = `months ${type} reports are kept (${keptMonthsVariable(type)})`;
    keptMonths[type] = read(name, input.keptMonths?.[type] ?? env[keptMonthsVariable(type)], DEFAULT_RETENTION.keptMonths[type], KEPT_MONTHS_RANGE, problems);
  }
  const expiredKeptMonths = read(
    `months an expired report stays for the operators (${EXPIRED_KEPT_MONTHS_VARIABLE})`,
    input.expiredKeptMonths ?? env[EXPIRED_KEPT_MONTHS_VARIABLE],
    DEFAULT_RETENTION.expiredKeptMonths,
    EXPIRED_KEPT_MONTHS_RANGE,
    problems,
  );
  const auditKeptDays = read(
    `days search audit records are kept (${AUDIT_KEPT_DAYS_VARIABLE})`,
    input.auditKeptDays ?? env[AUDIT_KEPT_DAYS_VARIABLE],
    DEFAULT_RETENTION.auditKeptDays,
    AUDIT_KEPT_DAYS_RANGE,
    problems,
  );
  problems.push(...claimOutlivesOfficial(keptMonths));
  const settings: RetentionSettings = Object.freeze({ keptMonths: Object.freeze(keptMonths), expiredKeptMonths, auditKeptDays });
  return { settings, problems };
}

/**
 * A member's unverified claim must not be kept longer than an official file (C-26/22: not longer
 * than the public register it came from; a claim has less behind it, not more).
 */
function claimOutlivesOfficial(keptMonths: Readonly<Record<ReportType, number>>): string[] {
  const shortest = OFFICIAL_TYPES.reduce((min, type) => Math.min(min, keptMonths[type]), Number.POSITIVE_INFINITY);
  if (keptMonths[CLAIM_TYPE] <= shortest) return [];
  const official = OFFICIAL_TYPES.filter((type) => keptMonths[type] === shortest).map(keptMonthsVariable);
  return [
    `${CLAIM_TYPE} reports would be kept ${keptMonths[CLAIM_TYPE]} months, longer than official files (${official.join(', ')}: ${shortest}): ` +
      `a member's claim may not outlive an official record; lower ${keptMonthsVariable(CLAIM_TYPE)} to ${shortest} or less, or raise the official types`,
  ];
}
