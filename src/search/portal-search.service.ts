/**
 * The portal's search (D28): the API's use case and answer (answer-search.ts) for a signed-in
 * member user, charged to the user's own daily allowance (`user:<id>`, same quota day, D19) and
 * to its member's (`portal:member:<id>`, all its users together, D28 amended), both or neither,
 * and audited like the API (D21) with channel `portal` and the user. Nothing here knows HTML.
 */
import { performance } from 'node:perf_hooks';
import type { AuditWriter } from '../audit/audit-writer.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, DomainError, type ErrorReason } from '../lib/errors.ts';
import type { Actor } from '../actors/actor.ts';
import type { Problem } from '../lib/problems.ts';
import { auditText } from '../audit/audit.service.ts';
import type { Db } from '../db/types.ts';
import { peekAllowance, portalMemberSubject, userSubject, type Allowance } from '../quota/allowance.ts';
import { answerSearch, type SearchResponse, type SearchUseCaseDeps } from './answer-search.ts';
import { InvalidEncoding, type QueryValue } from '../lib/query-values.ts';
import { memberAccessRefusal } from '../members/member-access.ts';
import { checkSearchInput, normaliseSearchQuery, rejectSecretsInUrl } from './search-params.ts';
import type { SearchInput } from './search.service.ts';

export interface PortalSearchDeps {
  db: Db;
  searchUseCase: SearchUseCaseDeps;
  audit: AuditWriter;
  clock: Clock;
  countryCodes: readonly string[];
  /** D28: searches per user per quota day. */
  dailyLimit: number;
  /** D28 amended: searches per member per quota day, all its users together, unless the member has its own. */
  memberDailyLimit: number;
  auditQueryChars: number;
}

/** Who searches: the signed-in user and the member state D17 checks. */
export interface PortalSearcher {
  userId: number;
  memberId: number;
  memberStatus: 'active' | 'suspended' | 'terminated';
  memberTier: 'full' | 'associate';
  agreementSignedOn: string | null;
  clientAddress: string;
}

/** The user's own allowance and its member's (D28 amended), as the page shows them. */
export interface PortalAllowances {
  user: Allowance;
  member: Allowance;
}

export type PortalSearchOutcome =
  | { kind: 'answered'; response: SearchResponse; allowance: Allowance; allowances: PortalAllowances }
  | {
      kind: 'refused';
      status: number;
      reason: ErrorReason;
      message: string;
      problem: Problem | null;
      allowance: Allowance;
      allowances: PortalAllowances;
      /** For a 429: whose allowance is used up. */
      limitedBy?: 'user' | 'member';
    };

/** The raw query string of the search page, as the portal's parser gave it (http/query-string.ts). */
export type PortalSearchForm = Readonly<Record<string, unknown>>;

/** D17's rule on the member (members/member-access.ts), for the member of a portal user. Pure. */
export function memberSearchRefusal(searcher: Pick<PortalSearcher, 'memberStatus' | 'memberTier' | 'agreementSignedOn'>): ErrorReason | null {
  return memberAccessRefusal({ status: searcher.memberStatus, tier: searcher.memberTier, agreementSignedOn: searcher.agreementSignedOn });
}

const REFUSAL_MESSAGES: Partial<Record<ErrorReason, string>> = {
  member_suspended: 'Membership suspended: searching is paused; contact the association',
  member_terminated: 'Membership terminated: searching has ended',
  member_not_full: 'Searching is limited to full members; your membership is associate',
  agreement_unsigned: "Data agreement not signed: your member's admin signs it on the Agreement page",
};

/** D7's parameter rules for the form, with the API's reasons. Throws AppError (400). */
function portalSearchInput(form: PortalSearchForm, countryCodes: readonly string[]): SearchInput {
  // The whole query string, as the API checks it: a key anywhere in the URL, a repeated or badly
  // encoded field are refused with the API's reasons.
  const query = Object.fromEntries(Object.entries(form).filter((entry): entry is [string, QueryValue] => isQueryValue(entry[1])));
  rejectSecretsInUrl(query);
  return checkSearchInput(normaliseSearchQuery(query), (code) => countryCodes.includes(code));
}

function isQueryValue(value: unknown): value is QueryValue {
  const one = (v: unknown) => typeof v === 'string' || v instanceof InvalidEncoding;
  return one(value) || (Array.isArray(value) && value.every(one));
}

function text(value: unknown): string {
  if (Array.isArray(value)) return text(value[0]);
  return typeof value === 'string' ? value : '';
}

/** The member's daily portal allowance: its own (an operator's setting) or the server's default. */
async function memberPortalLimit(deps: Pick<PortalSearchDeps, 'db' | 'memberDailyLimit'>, memberId: number): Promise<number> {
  const row = await deps.db.selectFrom('members').select('portal_daily_limit').where('id', '=', memberId).executeTakeFirst();
  return row?.portal_daily_limit == null ? deps.memberDailyLimit : Number(row.portal_daily_limit);
}

/** The user's allowance and its member's, without using them: shown beside the form. */
async function readPortalAllowances(
  deps: Pick<PortalSearchDeps, 'db' | 'clock' | 'dailyLimit' | 'memberDailyLimit'>,
  searcher: Pick<PortalSearcher, 'userId' | 'memberId'>,
  memberLimit?: number,
): Promise<PortalAllowances> {
  const limit = memberLimit ?? (await memberPortalLimit(deps, searcher.memberId));
  return {
    user: await peekAllowance(deps.db, deps.clock, userSubject(searcher.userId), deps.dailyLimit),
    member: await peekAllowance(deps.db, deps.clock, portalMemberSubject(searcher.memberId), limit),
  };
}

/** The allowance that stops the user first: the one with fewer searches left (the user's on a tie). */
export function bindingAllowance(a: PortalAllowances): Allowance {
  return a.member.limit - a.member.used < a.user.limit - a.user.used ? a.member : a.user;
}

/** Answers one portal search, or says why not; every attempt is audited (D21). */
async function searchAsPortalUser(deps: PortalSearchDeps, searcher: PortalSearcher, form: PortalSearchForm): Promise<PortalSearchOutcome> {
  const startedAt = performance.now();
  let input: SearchInput | null = null;
  let outcome: PortalSearchOutcome;
  let memberLimit: number | undefined;
  let found: readonly number[] = [];
  try {
    const refusal = memberSearchRefusal(searcher);
    if (refusal) throw new AppError(refusal, REFUSAL_MESSAGES[refusal]!);
    input = portalSearchInput(form, deps.countryCodes);
    // Read on every search: an operator's change applies at once (D28 amended).
    memberLimit = await memberPortalLimit(deps, searcher.memberId);
    const answer = await answerSearch(
      deps.searchUseCase,
      input,
      { kind: 'portal_user', userId: searcher.userId, dailyLimit: deps.dailyLimit, memberId: searcher.memberId, memberDailyLimit: memberLimit },
      startedAt,
    );
    const [user, member] = answer.allowances as [Allowance, Allowance];
    outcome = { kind: 'answered', response: answer.response, allowance: user, allowances: { user, member } };
    found = answer.foundCompanyIds;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const allowances = await readPortalAllowances(deps, searcher, memberLimit);
    outcome = {
      kind: 'refused',
      status: error.statusCode,
      reason: error.reason,
      // Which allowance ran out, to say so (the member's: its users' searches together).
      ...(error.reason === 'rate_limited' ? { limitedBy: allowances.user.used >= allowances.user.limit ? 'user' : 'member' } : {}),
      message: error.message,
      problem: error.problem,
      allowance: bindingAllowance(allowances),
      allowances,
    };
  }
  // Committed before the page is made (issue 28: an answered search is never unrecorded after a
  // crash). A refusal's page still goes when the record cannot be stored (the writer logs the loss).
  await deps.audit
    .write(
      {
        at: deps.clock.now(),
        key_id: null,
        member_id: searcher.memberId,
        user_id: searcher.userId,
        channel: 'portal',
        q: auditText(input?.q ?? text(form.q), deps.auditQueryChars),
        type: auditText(input?.type ?? text(form.type), 20),
        country: auditText(input?.country ?? text(form.country), 10),
        status: outcome.kind === 'answered' ? 200 : outcome.status,
        result_count: outcome.kind === 'answered' ? outcome.response.result_count : null,
        response_ms: Math.round(performance.now() - startedAt),
        client_address: searcher.clientAddress,
      },
      found,
    )
    .catch((error: unknown) => {
      if (outcome.kind === 'answered') throw error;
    });
  return outcome;
}

/** What the portal's search use cases need (composition root, src/services.ts). */
export interface PortalSearchServiceDeps extends Omit<PortalSearchDeps, 'countryCodes'> {
  /** The served countries' codes, read when first asked (a command that searches nothing has none). */
  countryCodes: () => readonly string[];
}

/** The signed-in member user who searches: the actor, with the member state D17 checks and where the request came from. */
export interface PortalSearchRequest {
  member: Pick<PortalSearcher, 'memberStatus' | 'memberTier' | 'agreementSignedOn'>;
  clientAddress: string;
}

function searcherOf(actor: Actor, request: PortalSearchRequest): PortalSearcher {
  if (actor.kind !== 'member_user') {
    throw new DomainError('forbidden', 'only an active user of the member may search in the portal', { code: 'actor.not_member_user' });
  }
  return { userId: actor.userId, memberId: actor.memberId, ...request.member, clientAddress: request.clientAddress };
}

/** The portal's search (D28) as use cases `(actor, input)`: the actor is a signed-in member user. */
export function createPortalSearch(deps: PortalSearchServiceDeps) {
  let codes: readonly string[] | null = null;
  const full = (): PortalSearchDeps => ({ ...deps, countryCodes: (codes ??= deps.countryCodes()) });
  return {
    /** The daily portal allowance of a member with none of its own (D28 amended; the console shows it). */
    memberDailyLimit: deps.memberDailyLimit,
    /** Answers one search of the form, or says why not; every attempt is audited (D21). */
    search: (actor: Actor, input: PortalSearchRequest & { form: PortalSearchForm }): Promise<PortalSearchOutcome> =>
      searchAsPortalUser(full(), searcherOf(actor, input), input.form),
    /** The user's allowance and its member's, without using them. */
    allowances: (actor: Actor): Promise<PortalAllowances> => {
      if (actor.kind !== 'member_user') throw new DomainError('forbidden', 'only a member user has a portal allowance', { code: 'actor.not_member_user' });
      return readPortalAllowances(deps, { userId: actor.userId, memberId: actor.memberId });
    },
  };
}

export type PortalSearch = ReturnType<typeof createPortalSearch>;
