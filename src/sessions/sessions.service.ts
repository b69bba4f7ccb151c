/**
 * Session rules (D27): a 256-bit random id in the cookie, only its SHA-256 digest stored; 30
 * minutes idle and 12 hours at most; every request reads the session, its user and member fresh
 * from the database, so a disabled user or a suspended member is out on the very next request,
 * on every server process.
 */
import type { Db } from '../db/types.ts';
import type { Clock } from '../lib/clock.ts';
import { digestSecretToken, generateSecretToken, isSecretToken } from '../users/one-time-token.ts';
import { isLocale, type Locale } from '../lib/locale.ts';
import type { SignedIn } from './signed-in.ts';
import {
  deleteOldSessionsOfUser,
  endSession,
  endSessionsOfUser,
  findSessionByDigest,
  insertSession,
  setSessionLocale,
  touchSession,
  type SessionContextRow,
} from './sessions.repository.ts';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often (one write a minute, not one per request). */
const TOUCH_EVERY_MS = 60 * 1000;
/** Ended sessions are kept this long (who was signed in when), then forgotten at the user's next sign-in. */
const ENDED_SESSIONS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

export interface NewSession {
  /** The cookie's value: shown to the browser only, never stored or logged. */
  id: string;
  sessionId: number;
  csrfToken: string;
}

export async function createSession(db: Db, clock: Clock, userId: number, locale: Locale | null): Promise<NewSession> {
  const id = generateSecretToken();
  const csrfToken = generateSecretToken();
  const now = clock.now();
  await deleteOldSessionsOfUser(db, userId, now - ENDED_SESSIONS_KEPT_MS);
  const sessionId = await insertSession(db, {
    digest: digestSecretToken(id),
    user_id: userId,
    csrf_token: csrfToken,
    locale,
    created_at: now,
    last_seen_at: now,
    expires_at: now + SESSION_ABSOLUTE_MS,
    ended_at: null,
  });
  return { id, sessionId, csrfToken };
}

export type SessionOutcome =
  | { kind: 'none' }
  /** There was a session, and it has now ended (idle, too old, user disabled, member suspended). */
  | { kind: 'ended' }
  | { kind: 'live'; sessionId: number; context: SignedIn; locale: Locale | null };

function contextOf(row: SessionContextRow): SignedIn {
  const member =
    row.memberId === null || row.memberRef === null
      ? null
      : {
          id: row.memberId,
          ref: row.memberRef,
          name: row.memberName ?? '',
          tier: row.memberTier ?? 'full',
          status: row.memberStatus ?? 'active',
          agreementSignedOn: row.agreementSignedOn ?? null,
        };
  return {
    user: { id: row.userId, email: row.email, name: row.userName, role: row.role, memberId: row.memberId },
    member,
    csrfToken: row.csrfToken,
  };
}

/** Why a live row no longer grants access, or null when it does. */
function refusalOf(row: SessionContextRow, now: number): 'expired' | 'user' | null {
  if (now >= row.expiresAt || now - row.lastSeenAt > SESSION_IDLE_MS) return 'expired';
  if (row.userStatus !== 'active') return 'user';
  if (row.role !== 'operator' && (row.memberId === null || row.memberStatus !== 'active')) return 'user';
  return null;
}

/** Reads the session a cookie names and applies every rule; ends it when a rule says so. */
export async function resolveSession(db: Db, clock: Clock, cookieValue: string | undefined): Promise<SessionOutcome> {
  if (cookieValue === undefined || !isSecretToken(cookieValue)) return { kind: 'none' };
  const row = await findSessionByDigest(db, digestSecretToken(cookieValue));
  if (!row) return { kind: 'none' };
  // Signed out, or ended by another process (user disabled, member suspended, password reset).
  if (row.endedAt !== null) return { kind: 'ended' };
  const now = clock.now();
  const refusal = refusalOf(row, now);
  if (refusal === 'expired') {
    await endSession(db, row.sessionId, now);
    return { kind: 'ended' };
  }
  if (refusal === 'user') {
    // Every session of the user, not only this one: a suspended member's users are all out.
    await endSessionsOfUser(db, row.userId, now);
    return { kind: 'ended' };
  }
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS) await touchSession(db, row.sessionId, now);
  return { kind: 'live', sessionId: row.sessionId, context: contextOf(row), locale: isLocale(row.locale) ? row.locale : null };
}

export interface SessionsDeps {
  db: Db;
  clock: Clock;
}

/**
 * The portal's sessions as use cases (issue 29), built by the composition root (src/services.ts):
 * the portal's hook and sign-in pages call these and keep only the cookies. A session is named by
 * its row's id (`sessionId` of a live outcome), never by the cookie's secret, once resolved.
 */
export function createSessions(deps: SessionsDeps) {
  return {
    /** The session a cookie names, every rule applied: one idle or too old, or whose user or member lost access, ends here. */
    resolve: (cookieValue: string | undefined): Promise<SessionOutcome> => resolveSession(deps.db, deps.clock, cookieValue),
    /**
     * A new session for a user who has just proved who they are (a sign-in, an accepted link),
     * ending the one the browser had first (`replacing`): a new id each time, no fixation (D27).
     */
    start: async (input: { userId: number; locale: Locale | null; replacing: number | null }): Promise<NewSession> => {
      if (input.replacing !== null) await endSession(deps.db, input.replacing, deps.clock.now());
      return createSession(deps.db, deps.clock, input.userId, input.locale);
    },
    /** Signs out: the session ends now, on every server process. */
    end: (sessionId: number): Promise<void> => endSession(deps.db, sessionId, deps.clock.now()),
    /** The language the session's pages are shown in from now on. */
    setLocale: (sessionId: number, locale: Locale): Promise<void> => setSessionLocale(deps.db, sessionId, locale),
  };
}

export type Sessions = ReturnType<typeof createSessions>;
