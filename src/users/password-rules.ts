/**
 * What a new password must be (D27; issue 27, finding 7), in one place: the users service checks
 * it wherever a password is set (accepting a link, the demo account), and the portal words its
 * refusals from the problem codes. NIST SP 800-63B: length, and no password an attacker tries
 * first (one found in breaches, one character repeated, white space only); no composition rules.
 */
import { DomainError } from '../lib/errors.ts';

export const PASSWORD_MIN_LENGTH = 12;
/** Long passphrases are welcome; beyond this it is not a password any more (and bounds the work). */
export const PASSWORD_MAX_LENGTH = 256;

let breached: Promise<ReadonlySet<string>> | null = null;

/**
 * The 49,233 passwords seen most often in Xato's corpus of ten million breached credentials, as
 * zxcvbn-ts ships them (`@zxcvbn-ts/language-common`, MIT; lower case). Loaded on first use
 * (about 25 ms): only setting a password needs it.
 */
function breachedPasswords(): Promise<ReadonlySet<string>> {
  // The package is CommonJS to the bundle (dist/) and ES to the tests: its exports sit on `default` in the one.
  breached ??= import('@zxcvbn-ts/language-common').then((module) => {
    const { dictionary } = 'dictionary' in module ? module : (module as { default: typeof module }).default;
    return new Set(dictionary['passwords-common']);
  });
  return breached;
}

/** Why a password of the right length is weak, or null: the pure part of the rule. */
export function weakShapeOf(password: string): 'blank' | 'repeated' | null {
  if (/^\s*$/u.test(password)) return 'blank';
  const chars = [...password];
  if (chars.every((c) => c === chars[0])) return 'repeated';
  return null;
}

/** Refuses a password that is too short or too long, blank, one character repeated, or breached. */
export async function checkNewPassword(password: string): Promise<void> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    throw new DomainError('invalid', `the password must be at least ${PASSWORD_MIN_LENGTH} characters`, {
      code: 'user.password_too_short',
      params: { min: PASSWORD_MIN_LENGTH },
    });
  }
  if (length > PASSWORD_MAX_LENGTH) {
    throw new DomainError('invalid', `the password must be at most ${PASSWORD_MAX_LENGTH} characters`, {
      code: 'user.password_too_long',
      params: { max: PASSWORD_MAX_LENGTH },
    });
  }
  const shape = weakShapeOf(password);
  if (shape === 'blank') {
    throw new DomainError('invalid', 'the password is only white space: choose words or characters', { code: 'user.password_blank' });
  }
  if (shape === 'repeated') {
    throw new DomainError('invalid', 'the password is one character repeated: anyone would guess it first', { code: 'user.password_repeated' });
  }
  // The list is lower case: a breached password with capitals is guessed as easily.
  if ((await breachedPasswords()).has(password.toLowerCase())) {
    throw new DomainError('invalid', 'the password is on a list of passwords found in data breaches, which attackers try first: choose another', {
      code: 'user.password_breached',
    });
  }
}
