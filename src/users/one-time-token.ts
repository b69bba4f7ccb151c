/**
 * Secrets handed to a person once: invitation and reset links, session ids, CSRF tokens. 256
 * random bits, base64url; only a SHA-256 digest is stored where the database keeps them (D27).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function generateSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function digestSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token as this module makes them: 43 base64url characters. Anything else is not looked up. */
export function isSecretToken(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}

/** Compares two secrets in constant time (for equal lengths; a length difference is no secret). */
export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
