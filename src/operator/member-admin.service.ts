/**
 * Member administration from the operator console (D30): the CLI's own services (members.service,
 * keys.service) run inside a transaction that also writes the operator log, with the member as it
 * was before and after. The acting user must be an active operator, read in that transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findActiveKey, setActiveKeyDailyLimit } from '../keys/keys.repository.ts';
import { issueKey, revokeKey, type IssuedKey } from '../keys/keys.service.ts';
import type { Clock } from '../lib/clock.ts';
import { listMembers, type MemberRow } from '../members/members.repository.ts';
import {
  addMember,
  requireMember,
  setMember,
  setMemberKeyDailyLimit,
  type MemberChanges,
  type MemberStatus,
  type MemberView,
  type Tier,
} from '../members/members.service.ts';
import { appendOperatorLog, operatorIdentity, type OperatorActor } from './operator-log.ts';
import { requireStepUp, stepUpTarget } from './step-up.ts';

export interface AdminDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export type OperatorRef = OperatorActor;

/** The member as the log and the console show it: its settings and its active key's prefix and limit. */
export interface MemberState {
  ref: string;
  name: string;
  tier: Tier;
  status: MemberStatus;
  agreement_signed_on: string | null;
  key_daily_limit: number | null;
  active_key: { prefix: string; daily_limit: number } | null;
}

async function stateOf(db: Kysely<Database>, member: MemberRow): Promise<MemberState> {
  const key = await findActiveKey(db, Number(member.id));
  return {
    ref: member.ref,
    name: member.name,
    tier: member.tier,
    status: member.status,
    agreement_signed_on: member.agreement_signed_on,
    key_daily_limit: member.key_daily_limit === null ? null : Number(member.key_daily_limit),
    active_key: key ? { prefix: key.prefix, daily_limit: Number(key.daily_limit) } : null,
  };
}

/** Every member with its settings and active key, by ref (the console's member list). */
export async function listMemberStates(db: Kysely<Database>): Promise<MemberState[]> {
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
  operator: OperatorRef,
  ref: string,
  action: string,
  change: (trx: Kysely<Database>) => Promise<T>,
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

const logged = async (...args: Parameters<typeof loggedChange<void>>): Promise<MemberState> => (await loggedChange(...args)).after;

export function addMemberByOperator(
  deps: AdminDeps,
  operator: OperatorRef,
  input: { ref: string; name: string; tier?: Tier; agreementSigned?: boolean },
): Promise<MemberState> {
  return logged(deps, operator, input.ref, 'member.add', async (trx) => void (await addMember(trx, deps.clock, input)), { creates: true });
}

/** Needs the operator's confirmation (step-up.ts): a suspension lifted gives a member back its access. */
export async function setMemberStatusByOperator(deps: AdminDeps, operator: OperatorRef, ref: string, status: MemberStatus) {
  requireStepUp(operator, 'member.status', stepUpTarget.member(ref));
  return logged(deps, operator, ref, 'member.status', async (trx) => void (await setMember(trx, deps.clock, ref, { status })));
}

export function setMemberTierByOperator(deps: AdminDeps, operator: OperatorRef, ref: string, tier: Tier) {
  return logged(deps, operator, ref, 'member.tier', async (trx) => void (await setMember(trx, deps.clock, ref, { tier })));
}

/** Marks the data agreement signed (today, unless it already was) or unsigned (D15, D17). */
export function setMemberAgreementByOperator(deps: AdminDeps, operator: OperatorRef, ref: string, signed: boolean) {
  return logged(deps, operator, ref, 'member.agreement', async (trx) => void (await setMember(trx, deps.clock, ref, { agreementSigned: signed })));
}

/** The member's key daily limit: for its next key, and at once for its active key, if any. */
export async function setKeyDailyLimitByOperator(deps: AdminDeps, operator: OperatorRef, ref: string, dailyLimit: number) {
  // Needs the operator's confirmation (step-up.ts): a raised limit is a bulk export.
  requireStepUp(operator, 'member.key_daily_limit', stepUpTarget.member(ref));
  return logged(deps, operator, ref, 'member.key_daily_limit', async (trx) => {
    const member = await setMemberKeyDailyLimit(trx, deps.clock, ref, dailyLimit);
    await setActiveKeyDailyLimit(trx, Number(member.id), dailyLimit);
  });
}

/** Revokes the member's active key (D16); not_found when it has none. */
export function revokeKeyByOperator(deps: AdminDeps, operator: OperatorRef, ref: string) {
  // revokeKey refuses (not_found) when the member has no active key.
  return logged(deps, operator, ref, 'member.revoke_key', async (trx) => void (await revokeKey(trx, deps.clock, ref)));
}

/*
 * The CLI's member and key commands: the same services, logged like the console's actions
 * (actor `cli:<name>`); each returns what the command prints, as before.
 */

export async function addMemberFromCli(
  deps: AdminDeps,
  by: string,
  input: { ref: string; name: string; tier?: Tier; agreementSigned?: boolean },
): Promise<MemberView> {
  return (await loggedChange(deps, { cli: by }, input.ref, 'member.add', (trx) => addMember(trx, deps.clock, input), { creates: true })).result;
}

export async function setMemberFromCli(deps: AdminDeps, by: string, ref: string, changes: MemberChanges): Promise<MemberView> {
  return (await loggedChange(deps, { cli: by }, ref, 'member.set', (trx) => setMember(trx, deps.clock, ref, changes))).result;
}

/** The log keeps the new key's prefix (in the member's state), never the key. */
export async function issueKeyFromCli(deps: AdminDeps, by: string, ref: string, dailyLimit: number): Promise<IssuedKey> {
  return (await loggedChange(deps, { cli: by }, ref, 'member.issue_key', (trx) => issueKey(trx, deps.clock, ref, dailyLimit))).result;
}

export async function revokeKeyFromCli(deps: AdminDeps, by: string, ref: string): Promise<{ member: string; revoked: number }> {
  return (await loggedChange(deps, { cli: by }, ref, 'member.revoke_key', (trx) => revokeKey(trx, deps.clock, ref))).result;
}
