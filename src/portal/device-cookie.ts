/**
 * The device cookie (issue 27, finding 6; OWASP "Slow Down Online Guessing Attacks with Device
 * Cookies"): a browser that signs in gets a 256-bit token for that account, only its digest stored
 * (trusted_devices). One cookie holds the tokens of up to 5 accounts (a shared office computer),
 * newest first, dot-separated. HttpOnly, Secure with the `__Host-` prefix as the other cookies,
 * SameSite=Strict (only our own pages post the sign-in form), kept 180 days.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { digestSecretToken, isSecretToken } from '../users/one-time-token.ts';
import { cookieOptions, type PortalCookies } from './cookies.ts';
import { KNOWN_BROWSER_DAYS, type KnownBrowser } from '../sessions/sign-in.service.ts';

const TOKENS_PER_BROWSER = 5;

/** The well-formed tokens the browser sent (at most 5; anything else is ignored). */
export function deviceTokensOf(request: FastifyRequest, cookies: PortalCookies): string[] {
  const value = request.cookies[cookies.device] ?? '';
  return value.split('.').filter(isSecretToken).slice(0, TOKENS_PER_BROWSER);
}

/** Puts the new token first, dropping the one it replaces. */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, cookies: PortalCookies, token: string, replaced: KnownBrowser | null): void {
  const kept = deviceTokensOf(request, cookies).filter((t) => replaced === null || digestSecretToken(t) !== replaced.digest);
  const value = [token, ...kept].slice(0, TOKENS_PER_BROWSER).join('.');
  reply.setCookie(cookies.device, value, { ...cookieOptions(cookies, KNOWN_BROWSER_DAYS * 24 * 60 * 60), sameSite: 'strict' as const });
}
