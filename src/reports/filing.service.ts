/**
 * A member's user files a report (D29): checked (filing-input.ts, attachments.ts), then in one
 * transaction the company found or created, the report written `pending` with its first history
 * row (null → pending) and its attachments. Nothing of it shows in a search until an operator
 * approves it (moderation.service.ts) and, for a claim, D12's consensus holds.
 */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { nextQuotaResetSeconds, quotaDayOf } from '../lib/turkey-time.ts';
import { requireMemberUser } from './acting-user.ts';
import { checkAttachments, type AttachmentUpload } from './attachments.ts';
import { checkFilingInput, type FilingInput } from './filing-input.ts';
import { checkFilingMember, DEFAULT_FILINGS_PER_MEMBER_PER_DAY } from './filing-rules.ts';
import {
  countFilingsSince,
  findOpenClaim,
  findOrCreateCompany,
  insertAttachments,
  insertFiledReport,
  listOpenTwins,
  lockMemberForFiling,
  ONE_OPEN_CLAIM_MESSAGE,
} from './filing.repository.ts';
import { CASE_FIELDS, CLAIM_TYPE, type ReportType } from './report-types.ts';
import { insertStatusChange } from './reports.repository.ts';
import { newCompanyRow } from '../companies/company-row.ts';
import type { Actor } from '../actors/actor.ts';
import type { Db } from '../db/types.ts';

export interface FilingDeps {
  db: Db;
  clock: Clock;
  countries: Pick<CountryCatalogue, 'get'>;
  /** Reports a member may file per quota day (D19), all its users together; default 50 (config.ts). */
  filingsPerDay?: number;
}

/** Who files: a signed-in user of a member (the member's users file its reports, D29). */
interface Filer {
  userId: number;
  memberId: number;
}

/** The filer behind an actor: only a member's user files; anyone else is refused (forbidden). */
function filerOf(actor: Actor): Filer {
  if (actor.kind !== 'member_user')
    throw new DomainError('forbidden', "only an active user of the member may act on the member's reports", { code: 'actor.not_member_user' });
  return { userId: actor.userId, memberId: actor.memberId };
}

export interface FiledReport {
  reportId: number;
  companyId: number;
  /** Whether this filing created the company. */
  companyCreated: boolean;
  status: 'pending';
  attachments: Array<{ fileName: string; contentType: string; sizeBytes: number; sha256: string }>;
}

const DAY_MS = 86_400_000;

/** The field of a type's case that numbers it (the file, investigation or contract number); none for a claim. */
const CASE_NUMBER_FIELD: Partial<Record<ReportType, string>> = Object.fromEntries(
  Object.entries(CASE_FIELDS).flatMap(([type, fields]) => {
    const field = fields.find((f) => f.endsWith('_number'));
    return field ? [[type, field]] : [];
  }),
);

function caseNumberOf(type: ReportType, caseJson: string | null): string | null {
  const field = CASE_NUMBER_FIELD[type];
  if (!field || caseJson === null) return null;
  const value = (JSON.parse(caseJson) as Record<string, unknown>)[field];
  return typeof value === 'string' ? value.trim().toUpperCase() : null;
}

export const DUPLICATE_FILING_MESSAGE =
  'your member already has a pending or approved report of this type on this company with the same event date (and case number): it was filed already';

async function requireFilingMember(db: Db, memberId: number): Promise<void> {
  const member = await db.selectFrom('members').select(['status', 'tier', 'agreement_signed_on']).where('id', '=', memberId).executeTakeFirst();
  if (!member) throw new DomainError('forbidden', 'no such member', { code: 'filing.no_member' });
  const refusal = checkFilingMember({ status: member.status, tier: member.tier, agreementSignedOn: member.agreement_signed_on });
  if (refusal) throw new DomainError('forbidden', refusal.message, [refusal]);
}

/**
 * Files one report. Throws DomainError: invalid (every problem of the input, each in `problems`,
 * their words `; `-separated in the message),
 * forbidden (the user or its member may not file), conflict (the member's open claim on the
 * company: at most one, D29; enforced by the database, migration 0005; or the same report filed
 * again while the first is open: same type, event date and case number).
 */
async function fileReport(deps: FilingDeps, filer: Filer, input: FilingInput & { attachments?: readonly AttachmentUpload[] }): Promise<FiledReport> {
  const now = deps.clock.now();
  const { filing, problems } = checkFilingInput(input, deps.countries, quotaDayOf(now));
  if (!filing) throw new DomainError('invalid', problems.map((p) => p.message).join('; '), problems);
  const attachments = checkAttachments(input.attachments ?? []);
  return deps.db.transaction().execute(async (trx) => {
    const user = await requireMemberUser(trx, filer.userId, filer.memberId);
    await requireFilingMember(trx, filer.memberId);
    await lockMemberForFiling(trx, filer.memberId);
    // The day's limit, counted under the member's lock: parallel filings cannot all pass it.
    const limit = deps.filingsPerDay ?? DEFAULT_FILINGS_PER_MEMBER_PER_DAY;
    const dayStart = nextQuotaResetSeconds(now) * 1000 - DAY_MS;
    if ((await countFilingsSince(trx, filer.memberId, dayStart)) >= limit) {
      const nextDay = quotaDayOf(dayStart + DAY_MS);
      throw new DomainError(
        'conflict',
        `your member has filed ${limit} reports today, the most a member may file in a day: file again after 00:00 Turkey time (${nextDay})`,
        { code: 'filing.daily_limit', params: { limit, day: nextDay } },
      );
    }
    const c = filing.company;
    const { row: company, created } = await findOrCreateCompany(trx, newCompanyRow(c, now));
    const companyId = Number(company.id);
    const r = filing.report;
    // An imported open claim is outside the index (migration 0005); filed ones are refused by it.
    if (r.type === CLAIM_TYPE && (await findOpenClaim(trx, filer.memberId, companyId)))
      throw new DomainError('conflict', ONE_OPEN_CLAIM_MESSAGE, { code: 'filing.open_claim_exists' });
    // A replayed or doubled form: the same member, company, type, event date and case number while
    // the first is still open. Refused, so that a replay never counts twice once approved (D13).
    const caseNumber = caseNumberOf(r.type, r.caseJson);
    const twins = await listOpenTwins(trx, filer.memberId, companyId, r.type, r.eventDate);
    if (twins.some((t) => caseNumberOf(r.type, t.case_json) === caseNumber))
      throw new DomainError('conflict', DUPLICATE_FILING_MESSAGE, { code: 'filing.duplicate' });
    const reportId = await insertFiledReport(trx, {
      company_id: companyId,
      ref: null,
      type: r.type,
      status: 'pending',
      filed_at: now,
      description: r.description,
      amount_minor: r.amountMinor,
      currency: r.currency,
      court_decision_date: r.courtDecisionDate,
      concordat_start: null,
      concordat_end: null,
      case_json: r.caseJson,
      reported_by: filer.memberId,
      filed_by_user_id: filer.userId,
      event_date: r.eventDate,
      // What this filer typed: the company keeps the values it has (public ones are never
      // overwritten by a filing); a company created by filing takes its public name and city
      // from the first report an operator approves (moderation.service.ts).
      filed_company_name: c.companyName,
      filed_city: c.city,
      created_at: now,
      updated_at: now,
    });
    await insertStatusChange(trx, {
      report_id: reportId,
      from_status: null,
      to_status: 'pending',
      changed_at: now,
      changed_by: user.label,
      changed_by_user_id: filer.userId,
      reason: null,
    });
    await insertAttachments(
      trx,
      attachments.map((a) => ({
        report_id: reportId,
        file_name: a.fileName,
        content_type: a.contentType,
        size_bytes: a.sizeBytes,
        sha256: a.sha256,
        content: a.content,
        created_at: now,
      })),
    );
    // A pending report changes no visible count (D12): the company's count stays as it is.
    return {
      reportId,
      companyId,
      companyCreated: created,
      status: 'pending',
      attachments: attachments.map(({ fileName, contentType, sizeBytes, sha256 }) => ({ fileName, contentType, sizeBytes, sha256 })),
    };
  });
}

export type FilingRequest = FilingInput & { attachments?: readonly AttachmentUpload[] };

/** The filing use case (D29), built by the composition root (src/services.ts). */
export function createFiling(deps: FilingDeps) {
  return {
    /** A member's user files one report; see fileReport for the refusals. */
    file: (actor: Actor, input: FilingRequest) => fileReport(deps, filerOf(actor), input),
  };
}

export type Filing = ReturnType<typeof createFiling>;
