/**
 * TOTP (RFC 6238) for operators' second factor (D27): SHA-1, 6 digits, 30 s steps, as every
 * authenticator app reads them. Pure: the caller keeps the last accepted step and refuses a code
 * for a step at or before it (a replayed code).
 */
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'risklookup';
/** One step either side: a phone clock a little off, or a code typed just as it changed. */
const WINDOW = 1;

function totpOf(secret: string, label = 'operator'): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps expect it. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function isTotpSecret(text: string): boolean {
  return /^[A-Z2-7]{32}$/.test(text);
}

/** The otpauth:// URI an authenticator app imports (shown as text; no QR code). */
export function totpUri(secret: string, account: string): string {
  return totpOf(secret, account).toString();
}

/** The time step a code belongs to at `nowMs`, or null when it matches none in the window. */
export function matchTotpStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: nowMs, window: WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Whether a code is good now and newer than the last accepted step; returns its step. */
export function acceptTotpCode(secret: string, code: string, nowMs: number, lastStep: number | null): number | null {
  const step = matchTotpStep(secret, code, nowMs);
  if (step === null || (lastStep !== null && step <= lastStep)) return null;
  return step;
}

/** The code an app would show at `nowMs` (tests, and nothing else). */
export function totpCodeAt(secret: string, nowMs: number): string {
  return totpOf(secret).generate({ timestamp: nowMs });
}
