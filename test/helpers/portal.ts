/**
 * Portal tests through the real routes: users made by the real services (invitation accepted,
 * password set), sign-in through POST /portal/sign-in, a cookie jar, and forms posted with the
 * CSRF token and the Origin a browser would send.
 *
 *   const member = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-1' });
 *   const browser = await signIn(t.app, member);            // cookie jar + csrf token
 *   const page = await browser.get('/portal/');              // HTML, cookies kept
 *   const res = await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' });
 *   await browser.post('/portal/x', {}, { csrf: null, origin: 'https://evil.example' }); // attacks
 */
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { Response } from 'light-my-request';
import type { App } from '../../src/http/app-type.ts';
import type { Database, UserRole } from '../../src/db/schema.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { totpCodeAt } from '../../src/users/totp.ts';
import { acceptLink, enrolmentSeedOf, inviteUser } from '../../src/users/users.service.ts';
import { TEST_KEY_RING } from './secrets.ts';
import { normaliseEmail } from '../../src/users/users.service.ts';

/** The Origin of app.inject's default Host (localhost:80). */
export const PORTAL_ORIGIN = 'http://localhost';
export const DEFAULT_TEST_PASSWORD = 'correct horse battery staple';

export interface PortalUser {
  id: number;
  email: string;
  password: string;
  role: UserRole;
  memberRef: string | null;
  /** Operators: the TOTP secret, for `totpCodeAt(secret, clock.now())`. */
  totpSecret: string | null;
}

let userSeq = 0;

/**
 * A user who has accepted an invitation (status active, password set) through the real services.
 * Operators are enrolled with a TOTP secret whose last accepted step is cleared, so a code for
 * the clock's current time signs them in.
 */
export async function makePortalUser(
  db: Kysely<Database>,
  clock: Clock,
  spec: { role: UserRole; memberRef?: string; email?: string; name?: string; password?: string },
): Promise<PortalUser> {
  const email = spec.email ?? `user${++userSeq}.${Date.now()}@example.com`;
  const password = spec.password ?? DEFAULT_TEST_PASSWORD;
  const link = await inviteUser(db, clock, { email, role: spec.role, memberRef: spec.memberRef ?? null, createdBy: 'test', keyRing: TEST_KEY_RING });
  const totpSecret = spec.role === 'operator' ? await enrolmentSeedOf(db, clock, TEST_KEY_RING, link.token) : null;
  const { userId } = await acceptLink(db, clock, {
    token: link.token,
    keyRing: TEST_KEY_RING,
    name: spec.name ?? `Test ${email.split('@')[0]}`,
    password,
    ...(totpSecret ? { totpCode: totpCodeAt(totpSecret, clock.now()) } : {}),
  });
  if (totpSecret) await db.updateTable('users').set({ totp_last_step: null }).where('id', '=', userId).execute();
  return { id: userId, email, password, role: spec.role, memberRef: spec.memberRef ?? null, totpSecret };
}

export interface PostOptions {
  /** The CSRF token to send; null sends none; default the browser's current token. */
  csrf?: string | null;
  /** The Origin header; null sends none; default PORTAL_ORIGIN. */
  origin?: string | null;
  headers?: Record<string, string>;
}

/** A browser: a cookie jar and the CSRF token of the last page it saw. */
export class PortalBrowser {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(readonly app: App) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Keeps the cookies a response sets or clears, and the CSRF token of an HTML page. */
  absorb(response: Response): Response {
    for (const c of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const token = csrfTokenOf(response.body);
    if (token) this.csrf = token;
    return response;
  }

  async head(url: string): Promise<Response> {
    return this.absorb(await this.app.inject({ method: 'HEAD', url, headers: { cookie: this.cookieHeader() } }));
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.absorb(await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader(), ...headers } }));
  }

  /** Posts a urlencoded form with `_csrf` and Origin as a browser would (see PostOptions to omit them). */
  async post(url: string, fields: Record<string, string> = {}, options: PostOptions = {}): Promise<Response> {
    return this.absorb(
      await postForm(this.app, url, fields, { ...options, csrf: options.csrf === undefined ? this.csrf : options.csrf, cookie: this.cookieHeader() }),
    );
  }

  /** The session cookie's value (rl_session, or __Host-rl_session over HTTPS). */
  sessionId(): string | undefined {
    return this.cookies.get('rl_session') ?? this.cookies.get('__Host-rl_session');
  }
}

export function csrfTokenOf(body: string): string | null {
  return /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? null;
}

/** One urlencoded POST, with whatever cookie, token and Origin the test gives. */
export function postForm(app: App, url: string, fields: Record<string, string>, options: PostOptions & { cookie?: string } = {}) {
  const body = new URLSearchParams(fields);
  if (options.csrf !== null && options.csrf !== undefined) body.set('_csrf', options.csrf);
  const origin = options.origin === undefined ? PORTAL_ORIGIN : options.origin;
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin === null ? {} : { origin }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    payload: body.toString(),
  });
}

/** A browser that has opened the sign-in page (it holds the anonymous CSRF cookie and token). */
export async function anonymousBrowser(app: App): Promise<PortalBrowser> {
  const browser = new PortalBrowser(app);
  const page = await browser.get('/portal/sign-in');
  assert.equal(page.statusCode, 200, `GET /portal/sign-in: ${page.statusCode}`);
  return browser;
}

/**
 * Signs in through the real form and lands on the user's home page; the returned browser holds
 * the session cookie and the session's CSRF token. Operators need `clock` for their code.
 */
export async function signIn(app: App, user: Pick<PortalUser, 'email' | 'password' | 'totpSecret'>, clock?: Clock): Promise<PortalBrowser> {
  const browser = await anonymousBrowser(app);
  const code = user.totpSecret ? totpCodeAt(user.totpSecret, (clock ?? { now: () => Date.now() }).now()) : '';
  const response = await browser.post('/portal/sign-in', { email: user.email, password: user.password, code });
  assert.equal(response.statusCode, 303, `sign-in of ${user.email} answered ${response.statusCode}: ${response.body.slice(0, 400)}`);
  const home = await browser.get(String(response.headers.location));
  if (home.statusCode === 303) await browser.get(String(home.headers.location));
  assert.ok(browser.sessionId(), 'no session cookie after sign-in');
  return browser;
}

/**
 * The fields that confirm an operator action needing one (issue 27, finding 4): the password and a
 * code of the next 30-second step (the clock moves on, so each call's code is new).
 */
export function confirmFields(user: Pick<PortalUser, 'password' | 'totpSecret'>, clock: Clock & { advance(ms: number): void }) {
  clock.advance(30_000);
  return { confirm_password: user.password, confirm_code: totpCodeAt(user.totpSecret!, clock.now()) };
}

/** A member user signed in, in one call. */
export async function signedInUser(app: App, db: Kysely<Database>, clock: Clock, spec: Parameters<typeof makePortalUser>[2]) {
  const user = await makePortalUser(db, clock, spec);
  return { user, browser: await signIn(app, user, clock) };
}

export { normaliseEmail };
