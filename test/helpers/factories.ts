/**
 * Small factories for test data. Companies and reports go through the real import path
 * (D24), so tests see exactly what an operator's import would produce.
 */
import type { Kysely } from 'kysely';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import type { Database } from '../../src/db/schema.ts';
import { vkn } from '../../src/demo/valid-ids.ts';
import { importLines, type ImportEngine } from '../../src/import/import.service.ts';
import { issueKey } from '../../src/keys/keys.service.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { addMember, setMember, type MemberStatus, type Tier } from '../../src/members/members.service.ts';

export const countries = buildCountryCatalogue();

let taxStem = 100_000_000;
/** A fresh valid VKN each call. */
export function nextVkn(): string {
  taxStem += 7919;
  return vkn(String(taxStem));
}

export interface MemberSpec {
  ref: string;
  tier?: Tier;
  status?: MemberStatus;
  agreementSigned?: boolean;
}

export async function makeMember(db: Kysely<Database>, clock: Clock, spec: MemberSpec) {
  await addMember(db, clock, {
    ref: spec.ref,
    name: `Member ${spec.ref}`,
    tier: spec.tier ?? 'full',
    agreementSigned: spec.agreementSigned ?? true,
  });
  if (spec.status && spec.status !== 'active') await setMember(db, clock, spec.ref, { status: spec.status });
}

/** A member with a key; returns the key. */
export async function makeKeyHolder(db: Kysely<Database>, clock: Clock, spec: MemberSpec & { dailyLimit?: number }) {
  await makeMember(db, clock, spec);
  return (await issueKey(db, clock, spec.ref, spec.dailyLimit ?? 100)).key;
}

type ReportJson = Record<string, unknown>;

let reportSeq = 0;
export function makeReport(overrides: ReportJson = {}): ReportJson {
  reportSeq++;
  const type = (overrides.type as string | undefined) ?? 'enforcement_plain';
  const base: ReportJson = {
    ref: `R-${reportSeq}`,
    type,
    status: 'approved',
    filed_at: `2026-0${1 + (reportSeq % 9)}-1${reportSeq % 10} 10:00:00`,
    description: `report ${reportSeq}`,
  };
  if (type === 'unpaid_debt' || type === 'concordat' || type === 'court_decision') base.reported_by = 'M-CLAIM-1';
  if (type === 'concordat') Object.assign(base, { concordat_start: '2025-01-01', concordat_end: '2025-12-31' });
  if (type === 'court_decision') base.court_decision_date = '2025-06-01';
  return { ...base, ...overrides };
}

export interface CompanySpec {
  company_name: string;
  tax_id?: string;
  country?: string;
  city?: string;
  reports?: ReportJson[];
}

export function companyLine(spec: CompanySpec): string {
  return JSON.stringify({
    company_name: spec.company_name,
    tax_id: spec.tax_id ?? nextVkn(),
    country: spec.country ?? 'TR',
    city: spec.city ?? 'İstanbul',
    reports: spec.reports ?? [makeReport()],
  });
}

/** Imports companies (D24 objects); returns their tax IDs. */
export async function makeCompanies(engine: ImportEngine, clock: Clock, specs: CompanySpec[]): Promise<string[]> {
  const lines = specs.map(companyLine);
  await importLines(engine, lines, 'test', { countries, clock });
  return lines.map((l) => (JSON.parse(l) as { tax_id: string }).tax_id);
}

/** The claimant members that `makeReport` claims refer to. */
export async function makeClaimants(db: Kysely<Database>, clock: Clock, n = 4) {
  for (let i = 1; i <= n; i++) await makeMember(db, clock, { ref: `M-CLAIM-${i}` });
}
