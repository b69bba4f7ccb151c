/**
 * Who a live session belongs to (D27): its user, the user's member (null for operators) and the
 * session's CSRF token, read fresh from the database on every request. The portal's page context
 * (`PortalContext`) is this plus the page language.
 */
import type { UserRole } from '../db/schema.ts';

export interface SignedInUser {
  id: number;
  email: string;
  name: string;
  role: UserRole;
  /** Null for operators. */
  memberId: number | null;
}

export interface SignedInMember {
  id: number;
  ref: string;
  name: string;
  tier: 'full' | 'associate';
  status: 'active' | 'suspended' | 'terminated';
  agreementSignedOn: string | null;
}

export interface SignedIn {
  user: SignedInUser;
  /** The user's member; null for operators. */
  member: SignedInMember | null;
  /** The session's CSRF token: every form carries it (csrfField in layout.ts), every POST is checked. */
  csrfToken: string;
}
