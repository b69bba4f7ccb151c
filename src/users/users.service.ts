/**
 * Portal accounts (D27): invitations and reset links (one-time, 72 h, only a digest stored),
 * accepting them (password, name, and for operators a TOTP enrolment), disabling.
 */
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { UserRole, UserStatus } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { requireMember } from '../members/members.service.ts';
import { endSessionsOfUser } from '../sessions/sessions.repository.ts';
import { deleteTrustedDevicesOfUser } from './trusted-devices.repository.ts';
import { digestSecretToken, generateSecretToken, isSecretToken } from './one-time-token.ts';
import { hashPassword } from './password.ts';
import { checkNewPassword } from './password-rules.ts';
import { acceptTotpCode, generateTotpSecret } from './totp.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { LINK_TOTP_SEED, openColumn, sealColumn, USER_TOTP_SEED } from '../secrets/secret-columns.ts';
import {
  findUsableToken,
  findUserByEmailNorm,
  insertUser,
  insertUserToken,
  listUsers,
  markTokenUsed,
  retireTokensOfUser,
  setTokenTotpSecret,
  updateUser,
  type UserListRow,
  type UserRow,
} from './users.repository.ts';

export const USER_ROLES = ['member_admin', 'member_user', 'operator'] as const satisfies readonly UserRole[];
export const MEMBER_ROLES = ['member_admin', 'member_user'] as const satisfies readonly UserRole[];
/** D27: a one-time link works for 72 hours. */
export const LINK_VALID_MS = 72 * 60 * 60 * 1000;
export const NAME_MAX_LENGTH = 100;

export interface UserView {
  email: string;
  name: string;
  role: UserRole;
  status: UserStatus;
  /** The member's ref; null for operators. */
  member: string | null;
}

/**
 * Work a caller adds to the action's own transaction (the operator console writes its log there,
 * D30), with the result and, where there is one, the record as it was before.
 */
export type AlsoInTransaction<R, B = undefined> = (trx: Db, result: R, before?: B) => Promise<void>;

export interface IssuedLink {
  user: UserView;
  purpose: 'invite' | 'reset';
  /** The secret of the link (shown once; only its digest is stored). */
  token: string;
  expiresAt: number;
}

/** The form of an email that uniqueness and sign-in compare (D27: case-insensitive). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(trimmed) || hasForbiddenCharacters(trimmed)) {
    throw new DomainError('invalid', `'${email}' is not an email address such as ayse@example.com`, { code: 'user.email_invalid', params: { email } });
  }
  return trimmed;
}

/** A person's name as shown on pages: 1 to 100 characters, no control characters (nor bidi controls). */
export function checkName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed === '' || [...trimmed].length > NAME_MAX_LENGTH || hasForbiddenCharacters(trimmed)) {
    throw new DomainError('invalid', `the name must be 1 to ${NAME_MAX_LENGTH} characters`, { code: 'user.name_invalid', params: { max: NAME_MAX_LENGTH } });
  }
  return trimmed;
}

/** The link a person opens: `<public url>/portal/accept?token=…`. */
export function oneTimeLinkOf(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/portal/accept?token=${encodeURIComponent(token)}`;
}

function viewOf(user: Pick<UserRow, 'email' | 'name' | 'role' | 'status'>, memberRef: string | null): UserView {
  return { email: user.email, name: user.name, role: user.role, status: user.status, member: memberRef };
}

/**
 * Makes a one-time link. An operator's link also carries the new random TOTP seed its acceptance
 * will enrol, sealed under the key ring (D35): nothing about it can be computed from the link, and
 * the page that shows it and the form that confirms it read the same stored seed.
 */
async function issueLink(db: Db, clock: Clock, user: Pick<UserRow, 'id' | 'role'>, purpose: 'invite' | 'reset', createdBy: string, keyRing?: KeyRing) {
  if (user.role === 'operator' && !keyRing) throw new Error("an operator's link carries a sealed TOTP seed: the users service needs the key ring (D35)");
  const token = generateSecretToken();
  const now = clock.now();
  // One link at a time: a new one retires the ones before it.
  await retireTokensOfUser(db, Number(user.id), now);
  const tokenId = await insertUserToken(db, {
    user_id: Number(user.id),
    purpose,
    digest: digestSecretToken(token),
    created_at: now,
    expires_at: now + LINK_VALID_MS,
    used_at: null,
    created_by: createdBy,
    totp_secret: null,
  });
  if (user.role === 'operator') await setTokenTotpSecret(db, tokenId, sealColumn(keyRing!, LINK_TOTP_SEED, tokenId, generateTotpSecret()));
  return { token, expiresAt: now + LINK_VALID_MS };
}

/** What an invitation must be before anything is looked up: its email, and a member for member roles only. Returns the email trimmed. */
export function checkInvitation(input: { email: string; role: UserRole; memberRef?: string | null }): string {
  const email = checkEmail(input.email);
  if (!(USER_ROLES as readonly string[]).includes(input.role)) {
    throw new DomainError('invalid', `role must be one of ${USER_ROLES.join(', ')}`, { code: 'user.role_invalid', params: { roles: USER_ROLES.join(', ') } });
  }
  if (input.role === 'operator' && input.memberRef) {
    throw new DomainError('invalid', 'an operator belongs to no member: leave out --member', { code: 'user.operator_has_no_member' });
  }
  if (input.role !== 'operator' && !input.memberRef) {
    throw new DomainError('invalid', `a ${input.role} belongs to a member: give --member REF`, { code: 'user.member_required', params: { role: input.role } });
  }
  return email;
}

/**
 * Invites a person: a member's user (member_admin, member_user) or an operator (no member).
 * `createdBy` names who asked (an operator, `cli`), kept with the link.
 */
export async function inviteUser(
  db: Db,
  clock: Clock,
  input: { email: string; role: UserRole; memberRef?: string | null; createdBy: string; keyRing?: KeyRing },
  alsoInTransaction?: AlsoInTransaction<IssuedLink>,
): Promise<IssuedLink> {
  const email = checkInvitation(input);
  return db.transaction().execute(async (trx) => {
    const member = input.memberRef ? await requireMember(trx, input.memberRef) : null;
    if (member && member.status !== 'active') {
      throw new DomainError('conflict', `member ${member.ref} is ${member.status}: its users cannot sign in`, {
        code: 'user.member_not_active',
        params: { member: member.ref, memberStatus: member.status },
      });
    }
    const now = clock.now();
    const user = await insertUser(trx, {
      email,
      email_norm: normaliseEmail(email),
      name: '',
      role: input.role,
      member_id: member ? Number(member.id) : null,
      status: 'invited',
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
      created_at: now,
      updated_at: now,
    });
    const link = await issueLink(trx, clock, user, 'invite', input.createdBy, input.keyRing);
    const issued = { user: viewOf(user, member?.ref ?? null), purpose: 'invite' as const, ...link };
    await alsoInTransaction?.(trx, issued);
    return issued;
  });
}

/**
 * The user with this email. With `memberId` (a member_admin acting in the portal), a user of
 * another member, or an operator, is "not found" as well: no way to learn of others' accounts.
 */
async function requireUserByEmail(db: Db, email: string, memberId?: number): Promise<UserRow> {
  const user = await findUserByEmailNorm(db, normaliseEmail(email));
  if (!user || (memberId !== undefined && (user.member_id === null || Number(user.member_id) !== memberId))) {
    throw new DomainError('not_found', `no user with the email ${email.trim()}; see 'user list'`, { code: 'user.not_found', params: { email: email.trim() } });
  }
  return user;
}

/** Limits an action to the users of one member (the portal's member_admin); absent for operators. */
export interface MemberScope {
  memberId?: number;
}

async function memberRefOf(db: Db, memberId: number | null): Promise<string | null> {
  if (memberId === null) return null;
  const row = await db.selectFrom('members').select('ref').where('id', '=', Number(memberId)).executeTakeFirst();
  return row?.ref ?? null;
}

/**
 * A new one-time link for a user: a reset link for an active user (the password and, for an
 * operator, the authenticator are set again), a fresh invitation for one who never accepted.
 */
export async function createResetLink(
  db: Db,
  clock: Clock,
  input: { email: string; createdBy: string; keyRing?: KeyRing } & MemberScope,
  alsoInTransaction?: AlsoInTransaction<IssuedLink>,
): Promise<IssuedLink> {
  return db.transaction().execute(async (trx) => {
    const user = await requireUserByEmail(trx, input.email, input.memberId);
    if (user.status === 'disabled')
      throw new DomainError('conflict', `user ${user.email} is disabled`, { code: 'user.disabled', params: { email: user.email } });
    const purpose = user.status === 'invited' ? 'invite' : 'reset';
    const link = await issueLink(trx, clock, user, purpose, input.createdBy, input.keyRing);
    const issued: IssuedLink = { user: viewOf(user, await memberRefOf(trx, user.member_id)), purpose, ...link };
    await alsoInTransaction?.(trx, issued);
    return issued;
  });
}

/** Disables a user: their links stop working and their sessions end at once, on every server (D27). */
export async function disableUser(
  db: Db,
  clock: Clock,
  email: string,
  scope: MemberScope = {},
  alsoInTransaction?: AlsoInTransaction<UserView, UserView>,
): Promise<UserView> {
  return db.transaction().execute(async (trx) => {
    const user = await requireUserByEmail(trx, email, scope.memberId);
    const now = clock.now();
    const updated = await updateUser(trx, Number(user.id), { status: 'disabled', updated_at: now });
    await retireTokensOfUser(trx, Number(user.id), now);
    await endSessionsOfUser(trx, Number(user.id), now);
    await deleteTrustedDevicesOfUser(trx, Number(user.id));
    const memberRef = await memberRefOf(trx, user.member_id);
    const view = viewOf(updated, memberRef);
    await alsoInTransaction?.(trx, view, viewOf(user, memberRef));
    return view;
  });
}

export async function listUserViews(db: Db, filter: { memberRef?: string } = {}): Promise<UserView[]> {
  const member = filter.memberRef ? await requireMember(db, filter.memberRef) : null;
  const rows: UserListRow[] = await listUsers(db, member ? { memberId: Number(member.id) } : {});
  return rows.map((r) => viewOf(r, r.memberRef));
}

/** What the acceptance page shows about a link, or null when it does not work (any reason alike). */
export interface LinkInfo {
  purpose: 'invite' | 'reset';
  email: string;
  name: string;
  role: UserRole;
}

const LINK_NOT_VALID = 'this link does not work: it has expired, was used already or was replaced by a newer one; ask for a new link';

export async function describeLink(db: Db, clock: Clock, token: string): Promise<LinkInfo | null> {
  if (!isSecretToken(token)) return null;
  const row = await findUsableToken(db, digestSecretToken(token), clock.now());
  if (!row || row.status === 'disabled') return null;
  return { purpose: row.purpose, email: row.email, name: row.name, role: row.role };
}

/**
 * The TOTP seed an operator's link enrols (shown on its acceptance page), or null for any other
 * link or one that does not work.
 */
export async function enrolmentSeedOf(db: Db, clock: Clock, keyRing: KeyRing, token: string): Promise<string | null> {
  if (!isSecretToken(token)) return null;
  const row = await findUsableToken(db, digestSecretToken(token), clock.now());
  if (!row || row.status === 'disabled' || row.role !== 'operator' || row.sealedSeed === null) return null;
  return openColumn(keyRing, LINK_TOTP_SEED, row.tokenId, row.sealedSeed);
}

export interface Acceptance {
  token: string;
  name: string;
  password: string;
  /** Operators: one code from the app holding the link's seed (`enrolmentSeedOf`). */
  totpCode?: string;
  /** Operators' links: opens the link's seed and seals it for the user (D35). */
  keyRing?: KeyRing;
}

const TOTP_WRONG = () =>
  new DomainError('invalid', 'the authenticator code is not right: add the secret to your app and type the code it shows now', {
    code: 'user.totp_wrong',
  });

/**
 * Accepts an invitation or reset link: sets the name and password (and enrols an operator's new
 * TOTP seed, from the link), makes the user active, uses the link up and ends the user's other
 * sessions and trusted browsers. Returns the user's id, for the caller to start a session.
 */
export async function acceptLink(db: Db, clock: Clock, input: Acceptance): Promise<{ userId: number; role: UserRole }> {
  const name = checkName(input.name);
  await checkNewPassword(input.password);
  const info = await describeLink(db, clock, input.token);
  if (!info) throw new DomainError('not_found', LINK_NOT_VALID, { code: 'user.link_invalid' });
  if (info.role === 'operator') {
    if (!input.keyRing) throw new Error("accepting an operator's link needs the key ring (D35)");
    const seed = await enrolmentSeedOf(db, clock, input.keyRing, input.token);
    if (seed === null || acceptTotpCode(seed, input.totpCode ?? '', clock.now(), null) === null) throw TOTP_WRONG();
  }
  // Slow on purpose (argon2id): outside the transaction, so no write lock is held meanwhile.
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    const row = await findUsableToken(trx, digestSecretToken(input.token), now);
    if (!row || row.status === 'disabled' || !(await markTokenUsed(trx, row.tokenId, now))) {
      throw new DomainError('not_found', LINK_NOT_VALID, { code: 'user.link_invalid' });
    }
    let totp = {};
    if (row.role === 'operator') {
      // The seed checked above, read again from the link this transaction has just used up.
      const seed = row.sealedSeed === null ? null : openColumn(input.keyRing!, LINK_TOTP_SEED, row.tokenId, row.sealedSeed);
      const step = seed === null ? null : acceptTotpCode(seed, input.totpCode ?? '', now, null);
      if (seed === null || step === null) throw TOTP_WRONG();
      totp = { totp_secret: sealColumn(input.keyRing!, USER_TOTP_SEED, row.userId, seed), totp_last_step: step };
    }
    await updateUser(trx, row.userId, { name, password_hash: passwordHash, status: 'active', updated_at: now, ...totp });
    await retireTokensOfUser(trx, row.userId, now);
    await endSessionsOfUser(trx, row.userId, now);
    // New credentials: browsers known with the old ones (perhaps an intruder's) are strangers again.
    await deleteTrustedDevicesOfUser(trx, row.userId);
    return { userId: row.userId, role: row.role };
  });
}

/**
 * Sets a user's password directly, making the user active: for `serve --demo` only (a demo
 * account whose password is printed at start). People get links instead.
 */
export async function setDemoPassword(db: Db, clock: Clock, userEmail: string, password: string, name?: string): Promise<void> {
  await checkNewPassword(password);
  const user = await requireUserByEmail(db, userEmail);
  const now = clock.now();
  const passwordHash = await hashPassword(password);
  await updateUser(db, Number(user.id), { password_hash: passwordHash, status: 'active', updated_at: now, ...(name ? { name: checkName(name) } : {}) });
  await retireTokensOfUser(db, Number(user.id), now);
  await endSessionsOfUser(db, Number(user.id), now);
}
