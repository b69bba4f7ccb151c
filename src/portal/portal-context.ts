/**
 * The contract every portal page is written against (D27, D28, D30). The session hook
 * (sessions) fills `request.portal` for a signed-in user on every request, read fresh from the
 * database so that a disabled user or a suspended member loses access at once; pages receive it.
 */
import type { Locale } from '../lib/locale.ts';
import type { SignedIn, SignedInMember, SignedInUser } from '../sessions/signed-in.ts';

export { LOCALES, type Locale } from '../lib/locale.ts';
export type PortalUser = SignedInUser;
export type PortalMember = SignedInMember;

export interface PortalContext extends SignedIn {
  locale: Locale;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a portal request, or null. */
    portal: PortalContext | null;
  }
}
