/**
 * Realistic synthetic data in the D24 import format: Turkish company titles as registers hold them
 * (company-names.ts),
 * valid and unique VKNs (some TCKNs for sole proprietors), a long-tailed number of reports per
 * company, every report type and status, claims spread over many members. Deterministic for a
 * seed: the same seed and size give the same bytes.
 */
import { tcknCheckDigits, vknCheckDigit } from './check-digits.ts';
import { seededRandom, type Random } from './random.ts';
import { companyTitle } from './company-names.ts';
import { CITIES, PLACES } from './word-lists.ts';

export interface GenerateOptions {
  companies: number;
  members: number;
  seed: number;
}

/** Member refs the generated claims name; `generate` adds them to the database. */
export function generatedMemberRefs(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `GM-${String(i + 1).padStart(5, '0')}`);
}

const TYPE_WEIGHTS = [
  ['unpaid_debt', 35],
  ['enforcement_plain', 15],
  ['enforcement_bill', 12],
  ['enforcement_judgment', 10],
  ['bounced_cheque', 10],
  ['debt_assigned', 8],
  ['concordat', 5],
  ['court_decision', 5],
] as const;
const STATUS_WEIGHTS = [
  ['approved', 70],
  ['pending', 15],
  ['rejected', 5],
  ['withdrawn', 6],
  ['deactivated', 4],
] as const;
const START_MS = Date.UTC(2019, 0, 1);
const SPAN_MS = Date.UTC(2026, 9, 31) - START_MS;

/**
 * Unique ID stems per index: multiplying by 3^18 (coprime to 10^n) permutes 0..10^n-1, so VKN
 * stems are unique below 10^9 companies and TCKN stems ('1' + 8 digits) below 10^8.
 */
function stemOf(index: number, seed: number, digits: number): string {
  return String((index * 387_420_489 + seed * 7_919 + 12_345) % 10 ** digits).padStart(digits, '0');
}

function dateTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Long-tailed: most companies have 0–4 reports, a few dozens. Mean about 3. */
function reportCount(r: Random): number {
  return Math.min(40, Math.floor(-Math.log(1 - r.next()) * 3.5));
}

function report(r: Random, ref: string, members: readonly string[]): Record<string, unknown> {
  const type = r.weighted(TYPE_WEIGHTS);
  const filed = START_MS + r.int(SPAN_MS);
  const day = dateTime(filed).slice(0, 10);
  const out: Record<string, unknown> = {
    ref,
    type,
    status: r.weighted(STATUS_WEIGHTS),
    filed_at: dateTime(filed),
    description: `${type.replace('_', ' ')} kaydı ${ref}`,
  };
  // Claims concentrate on fewer members (a skewed pick), as in a real association.
  if (type === 'unpaid_debt' || type === 'concordat' || type === 'court_decision') {
    out.reported_by = members[Math.floor(members.length * r.next() ** 2)];
  }
  if (type !== 'enforcement_plain' && type !== 'concordat' && r.chance(0.9)) {
    out.amount = Math.round(10 ** (3 + r.next() * 3.5) * 100) / 100;
    out.currency = r.weighted([
      ['TRY', 85],
      ['EUR', 10],
      ['USD', 5],
    ] as const);
  }
  const office = `${r.pick(CITIES)} ${1 + r.int(30)}. İcra Dairesi`;
  const fileNo = `${day.slice(0, 4)}/${1 + r.int(99_999)}`;
  if (type === 'enforcement_judgment' || type === 'enforcement_bill' || type === 'enforcement_plain') {
    out.case = { enforcement_office: office, file_number: fileNo, date: day };
  }
  if (type === 'enforcement_judgment' || type === 'court_decision') out.court_decision_date = day;
  if (type === 'bounced_cheque') out.case = { prosecutor_office: `${r.pick(CITIES)} Cumhuriyet Başsavcılığı`, investigation_number: fileNo };
  if (type === 'debt_assigned') {
    out.case = { collection_company: `${r.pick(PLACES)} Varlık Yönetim A.Ş.`, contract_number: `TML-${ref}`, assignment_date: day };
  }
  if (type === 'concordat') {
    out.concordat_start = day;
    out.concordat_end = dateTime(filed + (90 + r.int(700)) * 86_400_000).slice(0, 10);
  }
  return out;
}

/** One D24 line per company, in order. */
export function* generateCompanyLines(options: GenerateOptions): Generator<string> {
  const r = seededRandom(options.seed);
  const members = generatedMemberRefs(options.members);
  for (let i = 0; i < options.companies; i++) {
    const soleProprietor = r.chance(0.08);
    const taxId = soleProprietor ? `1${stemOf(i, options.seed, 8)}` : stemOf(i, options.seed, 9);
    const reports = Array.from({ length: reportCount(r) }, (_, k) => report(r, `G${options.seed}-${i}-${k}`, members));
    yield JSON.stringify({
      company_name: companyTitle(r, soleProprietor),
      tax_id: soleProprietor ? taxId + tcknCheckDigits(taxId) : taxId + vknCheckDigit(taxId),
      country: 'TR',
      city: r.pick(CITIES),
      reports,
    });
  }
}
