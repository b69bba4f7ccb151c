/**
 * The portal's cookies (D27): HttpOnly, SameSite=Lax, Path=/, and Secure with the `__Host-`
 * prefix unless the server speaks plain HTTP on loopback (a browser drops Secure cookies there).
 */
import type { Transport } from '../http/transport.ts';

export interface PortalCookies {
  secure: boolean;
  /** The session id. */
  session: string;
  /** The double-submit token of anonymous forms (sign-in, accepting a link). */
  csrf: string;
  /** The chosen language while nobody is signed in. */
  locale: string;
  /** Known browsers (issue 27, finding 6): a token per account this browser signed in to. */
  device: string;
}

export function portalCookiesFor(transport: Transport): PortalCookies {
  const secure = transport.kind !== 'loopback';
  const prefix = secure ? '__Host-' : '';
  return { secure, session: `${prefix}rl_session`, csrf: `${prefix}rl_csrf`, locale: 'rl_locale', device: `${prefix}rl_device` };
}

/** Options for reply.setCookie; without maxAge the cookie ends with the browser session. */
export function cookieOptions(cookies: PortalCookies, maxAgeSeconds?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: cookies.secure,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
