/**
 * How failed sign-ins slow the next attempt (D27; issue 27, finding 6, after OWASP's "Slow Down
 * Online Guessing Attacks with Device Cookies"). Three counters, each over a day: an account's
 * failures from browsers that never signed in to it, an address's failures from such browsers, and
 * each known browser's own (its device cookie). A counter's first failures are free; after them
 * every attempt waits, the wait doubling with each further failure up to a ceiling. Nothing is
 * locked for good, so an attacker can slow an account but never shut its owner out: the owner's
 * own browser is counted on its own. Pure.
 */

export interface ThrottleRule {
  /** Failures within the window before attempts have to wait. */
  free: number;
  /** The wait after the first failure beyond `free`; doubled by each one after it. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** How long a failure counts. */
  windowMs: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const SIGN_IN_THROTTLE = {
  /** An account, from browsers that have not signed in to it before. */
  account: { free: 5, firstWaitMs: 15_000, maxWaitMs: 15 * MINUTE, windowMs: DAY },
  /** A client address, from such browsers, whatever the account (many accounts from one place). */
  address: { free: 20, firstWaitMs: 15_000, maxWaitMs: 15 * MINUTE, windowMs: DAY },
  /** One browser that has signed in to the account before (its device cookie). */
  device: { free: 10, firstWaitMs: 15_000, maxWaitMs: 15 * MINUTE, windowMs: DAY },
} as const satisfies Record<string, ThrottleRule>;

/** The longest window: failures older than this count for nothing and are purged. */
export const LONGEST_WINDOW_MS = Math.max(...Object.values(SIGN_IN_THROTTLE).map((r) => r.windowMs));

/** The wait after `failures` failures in the window, the last at `lastFailureAt`; 0 while some are free. */
export function waitAfter(rule: ThrottleRule, failures: number): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.firstWaitMs * 2 ** Math.min(failures - rule.free, 30), rule.maxWaitMs);
}

/** How long an attempt must still wait, in ms (0: it may be checked now). */
export function remainingWait(rule: ThrottleRule, failures: number, lastFailureAt: number | null, now: number): number {
  const wait = waitAfter(rule, failures);
  if (wait === 0 || lastFailureAt === null) return 0;
  return Math.max(0, lastFailureAt + wait - now);
}

/** Whether the failure just recorded (the `failures`-th) is the one after which attempts wait: the moment an operator hears of. */
export function startsWaiting(rule: ThrottleRule, failures: number): boolean {
  return failures === rule.free;
}
