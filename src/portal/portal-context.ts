/**
 * The contract every portal page is written against (D27, D28, D30). The session hook
 * (sessions) fills `request.portal` for a signed-in user on every request, read fresh from the
 * database so that a disabled user or a suspended member loses access at once; pages receive it.
 */
import type { UserRole } from '../db/schema.ts';

export type Locale = 'tr' | 'en';
export const LOCALES: readonly Locale[] = ['tr', 'en'];

export interface PortalUser {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  /** Null for operators. */
  memberId: number | null;
}

export interface PortalMember {
  id: number;
  ref: string;
  name: string;
  tier: 'full' | 'associate';
  status: 'active' | 'suspended' | 'terminated';
  agreementSignedOn: string | null;
}

export interface PortalContext {
  user: PortalUser;
  /** The user's member; null for operators. */
  member: PortalMember | null;
  locale: Locale;
  /** The session's CSRF token: every form carries it (csrfField in layout.ts), every POST is checked. */
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a portal request, or null. */
    portal: PortalContext | null;
  }
}
