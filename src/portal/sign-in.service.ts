/**
 * Signing in (D27): the password (argon2id), an operator's TOTP code (a replayed code is
 * refused), and throttling of failures per email and per address. Every refusal is the same
 * answer, and an unknown email costs the same hash verification as a known one, so neither the
 * answer nor its timing tells whether an email exists.
 */
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { verifyDummyPassword, verifyPassword } from '../users/password.ts';
import { acceptTotpCode } from '../users/totp.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import { openColumn, USER_TOTP_SEED } from '../secrets/secret-columns.ts';
import { findMemberStatus, findUserByEmailNorm, recordTotpStep } from '../users/users.repository.ts';
import { normaliseEmail } from '../users/users.service.ts';
import { countFailuresSince, deleteFailureRows, deleteFailures, purgeFailuresBefore, recordFailures } from './sign-in-failures.repository.ts';

export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  /** Failures per email within the window before every attempt for it is refused. */
  perEmail: 5,
  /** Failures per client address within the window (many emails from one place). */
  perAddress: 20,
} as const;

export interface SignInAttempt {
  email: string;
  password: string;
  /** Operators' TOTP code; ignored for others. */
  code: string;
  address: string;
}

export type SignInOutcome =
  | { kind: 'signed_in'; userId: number }
  /**
   * Wrong email, password or code, a disabled or invited account, a member suspended or
   * terminated, or throttled: one answer, so that none of them tells an email exists.
   */
  | { kind: 'refused' };

/**
 * Every attempt first records itself as a failure of its email and its address, then counts: an
 * attempt over either limit is refused without checking the password (its rows are taken back, so
 * that a flood does not grow the table). Counting after recording means parallel attempts cannot
 * all read a count from before the others (at most `perEmail` guesses per window, however many
 * arrive at once). A success takes its rows back and forgets the email's failures.
 */
export async function attemptSignIn(db: Db, clock: Clock, keyRing: KeyRing, attempt: SignInAttempt): Promise<SignInOutcome> {
  const norm = normaliseEmail(attempt.email).slice(0, 254);
  const subjects = [`email:${norm}`, `addr:${attempt.address}`];
  const now = clock.now();
  const since = now - SIGN_IN_THROTTLE.windowMs;
  const provisional = await recordFailures(db, subjects, now);
  const [byEmail, byAddress] = await Promise.all(subjects.map((s) => countFailuresSince(db, s, since)));
  if (byEmail! > SIGN_IN_THROTTLE.perEmail || byAddress! > SIGN_IN_THROTTLE.perAddress) {
    await deleteFailureRows(db, provisional);
    await verifyDummyPassword(attempt.password);
    return { kind: 'refused' };
  }
  const refuse = async (): Promise<SignInOutcome> => {
    await purgeFailuresBefore(db, since);
    return { kind: 'refused' };
  };
  const user = norm === '' ? undefined : await findUserByEmailNorm(db, norm);
  const passwordOk = user?.password_hash ? await verifyPassword(user.password_hash, attempt.password) : await verifyDummyPassword(attempt.password);
  if (!user || !passwordOk || user.status !== 'active') return refuse();
  if (user.role === 'operator') {
    const seed = user.totp_secret ? openColumn(keyRing, USER_TOTP_SEED, Number(user.id), user.totp_secret) : null;
    const step = seed ? acceptTotpCode(seed, attempt.code, now, user.totp_last_step) : null;
    if (step === null || !(await recordTotpStep(db, Number(user.id), step))) return refuse();
  } else {
    const memberStatus = user.member_id === null ? undefined : await findMemberStatus(db, Number(user.member_id));
    if (memberStatus !== 'active') return refuse();
  }
  await deleteFailureRows(db, provisional);
  await deleteFailures(db, [subjects[0]!]);
  return { kind: 'signed_in', userId: Number(user.id) };
}
