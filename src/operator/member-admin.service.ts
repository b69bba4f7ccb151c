/**
 * Member administration from the operator console (D30): the CLI's own services (members.service,
 * keys.service) run inside a transaction that also writes the operator log, with the member as it
 * was before and after. The acting user must be an active operator, read in that transaction.
 */
import { findActiveKey, setActiveKeyDailyLimit } from '../keys/keys.repository.ts';
import { issueKey, revokeKey, type IssuedKey } from '../keys/keys.service.ts';
import type { Clock } from '../lib/clock.ts';
import { findMemberByRef, listMembers, type MemberRow } from '../members/members.repository.ts';
import {
  addMember,
  requireMember,
  setMember,
  setMemberKeyDailyLimit,
  setMemberPortalDailyLimit,
  type MemberChanges,
  type MemberStatus,
  type Tier,
} from '../members/members.service.ts';
import type { Actor } from '../actors/actor.ts';
import { DomainError } from '../lib/errors.ts';
import { appendOperatorLog, operatorIdentity } from './operator-log.ts';
import { requireStepUp, stepUpTarget } from './step-up.ts';
import type { Db } from '../db/types.ts';

export interface AdminDeps {
  db: Db;
  clock: Clock;
}

/** The member as the log and the console show it: its settings and its active key's prefix and limit. */
export interface MemberState {
  ref: string;
  name: string;
  tier: Tier;
  status: MemberStatus;
  agreement_signed_on: string | null;
  key_daily_limit: number | null;
  /** The member's daily portal searches, all its users together (D28 amended); null = the server's default. */
  portal_daily_limit: number | null;
  /** Companies the member may watch (D31); null = the server's default. */
  watchlist_cap: number | null;
  active_key: { prefix: string; daily_limit: number } | null;
}

async function stateOf(db: Db, member: MemberRow): Promise<MemberState> {
  const key = await findActiveKey(db, Number(member.id));
  return {
    ref: member.ref,
    name: member.name,
    tier: member.tier,
    status: member.status,
    agreement_signed_on: member.agreement_signed_on,
    key_daily_limit: member.key_daily_limit === null ? null : Number(member.key_daily_limit),
    portal_daily_limit: member.portal_daily_limit === null ? null : Number(member.portal_daily_limit),
    watchlist_cap: member.watchlist_cap === null ? null : Number(member.watchlist_cap),
    active_key: key ? { prefix: key.prefix, daily_limit: Number(key.daily_limit) } : null,
  };
}

/** Every member with its settings and active key, by ref (the console's member list). */
async function listMemberStates(db: Db): Promise<MemberState[]> {
  const states: MemberState[] = [];
  for (const member of await listMembers(db)) states.push(await stateOf(db, member));
  return states;
}

/**
 * Runs one operator action on a member (console or CLI), logged with the member's state before
 * and after, in one transaction; returns the state after and what the change returned.
 */
async function loggedChange<T>(
  deps: AdminDeps,
  operator: Actor,
  ref: string,
  action: string,
  change: (trx: Db) => Promise<T>,
  options: { creates?: boolean } = {},
): Promise<{ after: MemberState; result: T }> {
  return deps.db.transaction().execute(async (trx) => {
    const who = await operatorIdentity(trx, operator);
    const before = options.creates ? null : await stateOf(trx, await requireMember(trx, ref));
    const result = await change(trx);
    const after = await stateOf(trx, await requireMember(trx, ref));
    await appendOperatorLog(trx, { at: deps.clock.now(), userId: who.userId, actor: who.label, action, target: `member:${ref}`, before, after });
    return { after, result };
  });
}

/** What a member use case returns: the member as the log and the console show it after the change, and what the change gave. */
export interface MemberOutcome<T> {
  state: MemberState;
  result: T;
}

/**
 * The member and key use cases of the console and the CLI (D15, D16, D30), each `(actor, input)`
 * for an operator or the CLI: one transaction with the operator check and the log entry.
 */
export function createMemberAdmin(deps: AdminDeps) {
  const run = async <T>(actor: Actor, ref: string, action: string, change: (trx: Db) => Promise<T>, options: { creates?: boolean } = {}) => {
    const { after, result } = await loggedChange(deps, actor, ref, action, change, options);
    return { state: after, result } satisfies MemberOutcome<T>;
  };
  return {
    /** Every member with its state, for the console's list (operators). */
    listMembers: (actor: Actor) => {
      if (actor.kind !== 'operator' && actor.kind !== 'cli')
        throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
      return listMemberStates(deps.db);
    },
    addMember: (actor: Actor, input: { ref: string; name: string; tier?: Tier; agreementSigned?: boolean }) =>
      run(actor, input.ref, 'member.add', (trx) => addMember(trx, deps.clock, input), { creates: true }),

    /**
     * Adds those of `members` whose ref is not taken yet, each as `addMember` does (its own
     * transaction and log entry), and leaves the others as they are (the CLI's `generate`, which
     * may run again on the same database); returns the refs added.
     */
    addMissingMembers: async (actor: Actor, members: ReadonlyArray<{ ref: string; name: string; tier?: Tier; agreementSigned?: boolean }>) => {
      const added: string[] = [];
      for (const input of members) {
        if (await findMemberByRef(deps.db, input.ref)) continue;
        await run(actor, input.ref, 'member.add', (trx) => addMember(trx, deps.clock, input), { creates: true });
        added.push(input.ref);
      }
      return added;
    },

    /** Several settings at once (the CLI's `member set`); a status change needs the operator's confirmation, as setMemberStatus. */
    setMember: async (actor: Actor, input: { ref: string; changes: MemberChanges }) => {
      if (input.changes.status !== undefined) requireStepUp(actor, 'member.status', stepUpTarget.member(input.ref));
      return run(actor, input.ref, 'member.set', (trx) => setMember(trx, deps.clock, input.ref, input.changes));
    },

    /** Needs the operator's confirmation (step-up.ts): a suspension lifted gives a member back its access. */
    setMemberStatus: async (actor: Actor, input: { ref: string; status: MemberStatus }) => {
      requireStepUp(actor, 'member.status', stepUpTarget.member(input.ref));
      return run(actor, input.ref, 'member.status', (trx) => setMember(trx, deps.clock, input.ref, { status: input.status }));
    },

    setMemberTier: (actor: Actor, input: { ref: string; tier: Tier }) =>
      run(actor, input.ref, 'member.tier', (trx) => setMember(trx, deps.clock, input.ref, { tier: input.tier })),

    /** Marks the data agreement signed (today, unless it already was) or unsigned (D15, D17). */
    setMemberAgreement: (actor: Actor, input: { ref: string; signed: boolean }) =>
      run(actor, input.ref, 'member.agreement', (trx) => setMember(trx, deps.clock, input.ref, { agreementSigned: input.signed })),

    /** The member's key daily limit: for its next key, and at once for its active key, if any. Needs the operator's confirmation: a raised limit is a bulk export. */
    setKeyDailyLimit: async (actor: Actor, input: { ref: string; dailyLimit: number }) => {
      requireStepUp(actor, 'member.key_daily_limit', stepUpTarget.member(input.ref));
      return run(actor, input.ref, 'member.key_daily_limit', async (trx) => {
        const member = await setMemberKeyDailyLimit(trx, deps.clock, input.ref, input.dailyLimit);
        await setActiveKeyDailyLimit(trx, Number(member.id), input.dailyLimit);
      });
    },

    /**
     * The member's daily portal allowance, all its users together (D28 amended): applies at once to
     * the day in progress. Needs the operator's confirmation, as the API limit does: a raised
     * allowance is a bulk export through the portal.
     */
    setPortalDailyLimit: async (actor: Actor, input: { ref: string; dailyLimit: number }) => {
      requireStepUp(actor, 'member.portal_daily_limit', stepUpTarget.member(input.ref));
      return run(
        actor,
        input.ref,
        'member.portal_daily_limit',
        async (trx) => void (await setMemberPortalDailyLimit(trx, deps.clock, input.ref, input.dailyLimit)),
      );
    },

    /**
     * A new key, revoking the old one (D16). The log keeps the new key's prefix (in the member's
     * state), never the key. Without a daily limit the member keeps its own (or gets
     * `defaultDailyLimit`); the new key continues the day.
     */
    issueKey: (actor: Actor, input: { ref: string; dailyLimit?: number; defaultDailyLimit?: number }) =>
      run(actor, input.ref, 'member.issue_key', (trx): Promise<IssuedKey> =>
        issueKey(trx, deps.clock, input.ref, input.dailyLimit, input.defaultDailyLimit ?? 100),
      ),

    /** Revokes the member's active key (D16); not_found when it has none (revokeKey). */
    revokeKey: (actor: Actor, input: { ref: string }) => run(actor, input.ref, 'member.revoke_key', (trx) => revokeKey(trx, deps.clock, input.ref)),
  };
}

export type MemberAdmin = ReturnType<typeof createMemberAdmin>;
