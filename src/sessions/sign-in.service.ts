/**
 * Signing in (D27): the password (argon2id), an operator's TOTP code (a replayed code is refused),
 * and the slowing of guesses (sign-in-throttle.ts; issue 27, finding 6). A browser that signed in
 * to the account before (its device cookie) is counted on its own; any other is counted per
 * account and per address. Every refusal of a check is the same answer, and an unknown email costs
 * the same hash verification and is slowed the same way as a known one, so neither the answer nor
 * its timing tells whether an email exists. The operator console's re-confirmation of an action
 * (step-up.ts) goes through here too, so a wrong password there counts like one here.
 */
import type { Db } from '../db/types.ts';
import { withoutForbiddenCharacters } from '../lib/bidi-controls.ts';
import type { UserRole } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { appendOperatorLog } from '../operator/operator-log.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { SecretUnreadableError } from '../secrets/key-ring.ts';
import { openColumn, USER_TOTP_SEED } from '../secrets/secret-columns.ts';
import { digestSecretToken, generateSecretToken } from '../users/one-time-token.ts';
import { verifyDummyPassword, verifyPassword } from '../users/password.ts';
import { acceptTotpCode } from '../users/totp.ts';
import { deleteTrustedDevice, findTrustedDevice, insertTrustedDevice, pruneTrustedDevices } from '../users/trusted-devices.repository.ts';
import { findMemberStatus, findUserByEmailNorm, recordTotpStep, type UserRow } from '../users/users.repository.ts';
import { normaliseEmail } from '../users/users.service.ts';
import { deleteFailureRows, deleteFailures, failuresSince, purgeFailuresBefore, recordFailures } from './sign-in-failures.repository.ts';
import { LONGEST_WINDOW_MS, remainingWait, SIGN_IN_THROTTLE, startsWaiting, type ThrottleRule } from './sign-in-throttle.ts';

/** How long a browser stays known after it last signed in, and how many a user keeps. */
export const KNOWN_BROWSER_DAYS = 180;
const KNOWN_BROWSERS_PER_USER = 20;

export interface SignInAttempt {
  email: string;
  password: string;
  /** Operators' TOTP code; ignored for others. */
  code: string;
  address: string;
  /** The browser's device-cookie tokens (device-cookie.ts); empty for a browser never signed in. */
  deviceTokens: readonly string[];
}

/** A browser that signed in to the account before: its row, and the digest of its token. */
export interface KnownBrowser {
  id: number;
  digest: string;
}

export type SignInOutcome =
  | { kind: 'signed_in'; userId: number; role: UserRole; knownBrowser: KnownBrowser | null }
  /**
   * Wrong email, password or code, a disabled or invited account, a member suspended or
   * terminated: one answer, so that none of them tells an email exists. `unreadableSeed`: the
   * operator's TOTP seed does not open under this key ring (D35), for the log.
   */
  | { kind: 'refused'; unreadableSeed?: true }
  /** Too many failures lately: nothing was checked; try again after `waitMs`. */
  | { kind: 'throttled'; waitMs: number };

interface Counter {
  subject: string;
  rule: ThrottleRule;
  browser: 'known' | 'unknown';
}

function countersOf(norm: string, address: string, known: KnownBrowser | undefined): Counter[] {
  if (known) return [{ subject: `device:${known.id}`, rule: SIGN_IN_THROTTLE.device, browser: 'known' }];
  return [
    // No account's email holds a control character (users.service.ts): none is kept in a subject either.
    { subject: `email:${withoutForbiddenCharacters(norm)}`, rule: SIGN_IN_THROTTLE.account, browser: 'unknown' },
    { subject: `addr:${address}`, rule: SIGN_IN_THROTTLE.address, browser: 'unknown' },
  ];
}

type Verdict = { kind: 'ok'; user: UserRow } | { kind: 'wrong'; user: UserRow | undefined } | { kind: 'unreadable_seed'; user: UserRow };

/** The password, the account's state, and an operator's code (its step recorded: no replay). */
async function checkCredentials(db: Db, keyRing: KeyRing, norm: string, attempt: SignInAttempt, now: number): Promise<Verdict> {
  const user = norm === '' ? undefined : await findUserByEmailNorm(db, norm);
  const passwordOk = user?.password_hash ? await verifyPassword(user.password_hash, attempt.password) : await verifyDummyPassword(attempt.password);
  if (!user || !passwordOk || user.status !== 'active') return { kind: 'wrong', user };
  if (user.role === 'operator') {
    let seed: string | null = null;
    try {
      seed = user.totp_secret ? openColumn(keyRing, USER_TOTP_SEED, Number(user.id), user.totp_secret) : null;
    } catch (error) {
      if (error instanceof SecretUnreadableError) return { kind: 'unreadable_seed', user };
      throw error;
    }
    const step = seed ? acceptTotpCode(seed, attempt.code, now, user.totp_last_step) : null;
    if (step === null || !(await recordTotpStep(db, Number(user.id), step))) return { kind: 'wrong', user };
  } else {
    const memberStatus = user.member_id === null ? undefined : await findMemberStatus(db, Number(user.member_id));
    if (memberStatus !== 'active') return { kind: 'wrong', user };
  }
  return { kind: 'ok', user };
}

/**
 * The operator log's line when a counter's free failures have just run out (D30; finding 6): the
 * account (an email that is no account is not logged), or the address, and where it came from.
 */
async function logWaitsStarting(db: Db, now: number, counters: Counter[], failures: number[], user: UserRow | undefined, address: string) {
  for (const [i, counter] of counters.entries()) {
    if (!startsWaiting(counter.rule, failures[i]!)) continue;
    const byAddress = counter.subject.startsWith('addr:');
    if (!byAddress && !user) continue;
    await appendOperatorLog(db, {
      at: now,
      userId: null,
      actor: 'system:sign-in',
      action: 'sign_in.throttled',
      target: byAddress ? `address:${address}` : `user:${user!.email}`,
      before: null,
      after: {
        failures: failures[i],
        browsers: counter.browser === 'known' ? 'one that signed in before' : 'ones that never signed in to it',
        address,
        first_wait_seconds: counter.rule.firstWaitMs / 1000,
      },
    });
  }
}

/**
 * Every attempt first records itself as a failure of each of its counters, then counts the others'
 * (attempts in flight included), and waits if a counter says so: nothing is checked and its rows
 * are taken back. Counting after recording means parallel attempts cannot all read a count from
 * before the others, so at most `free` guesses are checked however many arrive at once. A success
 * takes its rows back and clears its own counter: the account's for a browser never signed in
 * (the owner is back), only the browser's for a known one (an attacker's count goes on).
 */
export async function attemptSignIn(db: Db, clock: Clock, keyRing: KeyRing, attempt: SignInAttempt): Promise<SignInOutcome> {
  const norm = normaliseEmail(attempt.email).slice(0, 254);
  const now = clock.now();
  const found = norm === '' ? undefined : await findTrustedDevice(db, attempt.deviceTokens.map(digestSecretToken), norm, now);
  const counters = countersOf(norm, attempt.address, found);
  const provisional = await recordFailures(
    db,
    counters.map((c) => c.subject),
    now,
  );
  const seen = await Promise.all(counters.map((c) => failuresSince(db, c.subject, now - c.rule.windowMs, provisional)));
  const waitMs = Math.max(...counters.map((c, i) => remainingWait(c.rule, seen[i]!.count, seen[i]!.lastAt, now)));
  if (waitMs > 0) {
    await deleteFailureRows(db, provisional);
    await verifyDummyPassword(attempt.password);
    return { kind: 'throttled', waitMs };
  }
  const verdict = await checkCredentials(db, keyRing, norm, attempt, now);
  if (verdict.kind !== 'ok') {
    await purgeFailuresBefore(db, now - LONGEST_WINDOW_MS);
    await logWaitsStarting(
      db,
      now,
      counters,
      seen.map((s) => s.count + 1),
      verdict.user,
      attempt.address,
    );
    return verdict.kind === 'unreadable_seed' ? { kind: 'refused', unreadableSeed: true } : { kind: 'refused' };
  }
  await deleteFailureRows(db, provisional);
  await deleteFailures(db, [counters[0]!.subject]);
  const knownBrowser = found ? { id: found.id, digest: found.digest } : null;
  return { kind: 'signed_in', userId: Number(verdict.user.id), role: verdict.user.role, knownBrowser };
}

/**
 * Makes this browser a known one for the user (OWASP: a new device cookie token after each
 * sign-in): a new token replaces the one it signed in with. Returns the token for the cookie.
 */
export async function trustBrowser(db: Db, clock: Clock, userId: number, replacing: KnownBrowser | null): Promise<string> {
  const now = clock.now();
  if (replacing) await deleteTrustedDevice(db, replacing.id);
  const token = generateSecretToken();
  await insertTrustedDevice(db, { userId, digest: digestSecretToken(token), now, expiresAt: now + KNOWN_BROWSER_DAYS * 24 * 60 * 60 * 1000 });
  await pruneTrustedDevices(db, userId, KNOWN_BROWSERS_PER_USER, now);
  return token;
}
