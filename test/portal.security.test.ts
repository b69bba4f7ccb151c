/**
 * The portal's foundation under attack, through HTTP on every engine (D27): CSRF and Origin on
 * every state change, every route without a session or with the wrong role, cookie flags, CSP,
 * one-time links, and nothing secret in the logs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { anonymousBrowser, csrfTokenOf, makePortalUser, PortalBrowser, postForm, signIn, type PortalUser } from './helpers/portal.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { PORTAL_CONTENT_SECURITY_POLICY } from '../src/portal/portal.plugin.ts';
import { createResetLink, inviteUser, LINK_VALID_MS } from '../src/users/users.service.ts';
import { totpCodeAt } from '../src/users/totp.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';

const PASSWORD = 'a long enough password';

/** Every route of the foundation: method, path, who may use it (null: anyone). */
const ROUTES = [
  { method: 'GET', url: '/portal/', roles: ['member_admin', 'member_user', 'operator'] },
  { method: 'GET', url: '/portal/operator/', roles: ['operator'] },
] as const;

for (const engine of ENGINES) {
  describe(`portal security [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: PortalUser;
    let memberUser: PortalUser;
    let operator: PortalUser;
    const db = () => database.engine.db;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(db(), t.clock, { ref: 'M-1' });
      admin = await makePortalUser(db(), t.clock, { role: 'member_admin', memberRef: 'M-1' });
      memberUser = await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'M-1' });
      operator = await makePortalUser(db(), t.clock, { role: 'operator' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    describe('CSRF and Origin', () => {
      test("a signed-in POST without the token, with a wrong one, or another session's is 403", async () => {
        const browser = await signIn(t.app, admin);
        const other = await signIn(t.app, memberUser);
        for (const csrf of [null, '', 'x'.repeat(43), other.csrf]) {
          const response = await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' }, { csrf });
          assert.equal(response.statusCode, 403, `token ${csrf}`);
          assert.match(response.body, /<h1>/);
        }
        assert.equal((await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303, 'the right token');
      });

      test('another Origin, Origin null, or neither Origin nor Referer: 403 even with the right token', async () => {
        const browser = await signIn(t.app, admin);
        for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'http://localhost:8081']) {
          assert.equal((await browser.post('/portal/locale', { locale: 'en' }, { origin })).statusCode, 403, origin);
        }
        assert.equal((await browser.post('/portal/locale', { locale: 'en' }, { origin: null })).statusCode, 403, 'no Origin, no Referer');
        const referer = await browser.post('/portal/locale', { locale: 'en' }, { origin: null, headers: { referer: 'http://localhost/portal/' } });
        assert.equal(referer.statusCode, 303, 'no Origin: a same-origin Referer is accepted');
        const badReferer = await browser.post('/portal/locale', { locale: 'en' }, { origin: null, headers: { referer: 'https://evil.example/portal/' } });
        assert.equal(badReferer.statusCode, 403);
        const sameAsPublic = await browser.post('/portal/locale', { locale: 'en' }, { origin: 'http://127.0.0.1:8080' });
        assert.equal(sameAsPublic.statusCode, 303, 'the configured public URL is this server too');
      });

      test('sign-out is a POST with the token: a cross-site sign-out is refused', async () => {
        const browser = await signIn(t.app, admin);
        assert.equal((await browser.post('/portal/sign-out', {}, { csrf: null })).statusCode, 403);
        assert.equal((await browser.post('/portal/sign-out', {}, { origin: 'https://evil.example' })).statusCode, 403);
        assert.equal((await browser.get('/portal/')).statusCode, 200, 'still signed in');
        assert.equal((await t.app.inject({ method: 'GET', url: '/portal/sign-out' })).statusCode, 404, 'no GET sign-out');
      });

      test('anonymous forms: the double-submit cookie must match the field (login CSRF)', async () => {
        const browser = await anonymousBrowser(t.app);
        const fields = { email: admin.email, password: admin.password, code: '' };
        assert.equal((await browser.post('/portal/sign-in', fields, { csrf: null })).statusCode, 403);
        assert.equal((await browser.post('/portal/sign-in', fields, { csrf: 'y'.repeat(43) })).statusCode, 403);
        const noCookie = await postForm(t.app, '/portal/sign-in', fields, { csrf: browser.csrf });
        assert.equal(noCookie.statusCode, 403, 'the token without its cookie');
        assert.equal((await browser.post('/portal/sign-in', fields, { origin: 'https://evil.example' })).statusCode, 403);
        assert.equal((await browser.post('/portal/sign-in', fields)).statusCode, 303);
      });
    });

    describe('routes by role', () => {
      test('no session: every GET goes to sign-in (303), every POST is 403', async () => {
        for (const route of ROUTES) {
          const response = await t.app.inject({ method: route.method, url: route.url });
          assert.equal(response.statusCode, 303, route.url);
          assert.equal(response.headers.location, `/portal/sign-in?next=${encodeURIComponent(route.url)}`);
        }
        const anon = await anonymousBrowser(t.app);
        assert.equal((await anon.post('/portal/')).statusCode, 404, 'no POST route at /portal/');
      });

      test('the wrong role is a 403 page', async () => {
        const browsers: Record<string, PortalBrowser> = {
          member_admin: await signIn(t.app, admin),
          member_user: await signIn(t.app, memberUser),
          operator: await signIn(t.app, operator, t.clock),
        };
        for (const route of ROUTES) {
          for (const [role, browser] of Object.entries(browsers)) {
            const response = await browser.get(route.url);
            const allowed = (route.roles as readonly string[]).includes(role);
            if (allowed) assert.ok([200, 303].includes(response.statusCode), `${role} ${route.url}: ${response.statusCode}`);
            else assert.equal(response.statusCode, 403, `${role} ${route.url}`);
          }
        }
        t.clock.advance(30_000);
      });

      test('navigation by role: member_user sees no API and no Users; operators see the console link', async () => {
        const user = await (await signIn(t.app, memberUser)).get('/portal/');
        assert.doesNotMatch(user.body, /href="\/portal\/api"|href="\/portal\/users"/);
        assert.match(user.body, /href="\/portal\/search"/);
        const adminPage = await (await signIn(t.app, admin)).get('/portal/');
        assert.match(adminPage.body, /href="\/portal\/api"/);
        assert.match(adminPage.body, /href="\/portal\/users"/);
        const op = await (await signIn(t.app, operator, t.clock)).get('/portal/operator/');
        assert.match(op.body, /href="\/portal\/operator\/"/);
        assert.doesNotMatch(op.body, /href="\/portal\/api"/);
        t.clock.advance(30_000);
      });

      test('an unknown portal path is an HTML 404; the API keeps its JSON 404', async () => {
        const page = await t.app.inject({ url: '/portal/no-such-page' });
        assert.equal(page.statusCode, 404);
        assert.match(String(page.headers['content-type']), /^text\/html/);
        assert.equal(page.headers['content-security-policy'], PORTAL_CONTENT_SECURITY_POLICY);
        const api = await t.app.inject({ url: '/api/v1/no-such' });
        assert.equal(api.statusCode, 404);
        assert.match(String(api.headers['content-type']), /^application\/json/);
      });
    });

    describe('the portal and the API allowance of keyless requests (D20)', () => {
      test("portal pages neither use up nor show the address's keyless allowance; the API still counts", async () => {
        // A database of its own: the allowance counts per address and day across the whole database.
        const own = await engine.create();
        const small = await makeTestApp(own, { anonDailyLimit: 3 });
        try {
          await makeMember(own.engine.db, small.clock, { ref: 'M-9' });
          const browser = await signIn(small.app, await makePortalUser(own.engine.db, small.clock, { role: 'member_user', memberRef: 'M-9' }));
          for (let i = 0; i < 6; i++) {
            for (const url of ['/portal/', '/portal/assets/portal.css', '/portal/sign-in']) {
              const page = await browser.get(url);
              assert.ok(page.statusCode === 200 || page.statusCode === 303, `${url}: ${page.statusCode}`);
              assert.equal(page.headers['x-ratelimit-limit'], undefined, `${url} shows no API allowance`);
            }
          }
          const api = await small.app.inject({ method: 'GET', url: '/api/v1/countries.php' });
          assert.equal(api.statusCode, 200);
          assert.equal(api.headers['x-ratelimit-used'], '1', 'only the API request was counted');
        } finally {
          await small.close();
          await own.drop();
        }
      });
    });

    test('a URL that is not valid percent-encoding gets the error body and every security header', async () => {
      for (const url of ['/portal/%ff%3Cscript%3E', '/api/v1/%ff']) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json<{ reason: string }>().reason, 'malformed_request');
        assert.ok(!res.body.includes('<script>'), 'the path is not echoed');
        assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.ok(res.headers['x-request-id']);
      }
    });

    describe('headers and cookies', () => {
      test('every portal page has the strict CSP, same-origin referrer policy, no-store', async () => {
        const browser = await signIn(t.app, admin);
        for (const url of ['/portal/sign-in', '/portal/', '/portal/accept?token=x', '/portal/nope']) {
          const response = await browser.get(url);
          assert.equal(response.headers['content-security-policy'], PORTAL_CONTENT_SECURITY_POLICY, url);
          assert.equal(response.headers['referrer-policy'], 'same-origin', url);
          assert.equal(response.headers['x-frame-options'], 'DENY', url);
          assert.equal(response.headers['cache-control'], 'no-store', url);
          assert.doesNotMatch(response.body, /<script>|<style|\sstyle="|\son[a-z]+="/i, `${url}: no inline script or style`);
        }
        const css = await t.app.inject({ url: '/portal/assets/portal.css' });
        assert.equal(css.statusCode, 200);
        assert.match(String(css.headers['content-type']), /^text\/css/);
        const js = await t.app.inject({ url: '/portal/assets/portal.js' });
        assert.match(String(js.headers['content-type']), /^text\/javascript/);
        assert.equal((await t.app.inject({ url: '/portal/assets/portal.js', headers: { 'if-none-match': String(js.headers.etag) } })).statusCode, 304);
      });

      test('on loopback HTTP the session cookie is rl_session: HttpOnly, SameSite=Lax, Path=/, not Secure', async () => {
        const browser = await anonymousBrowser(t.app);
        const response = await browser.post('/portal/sign-in', { email: admin.email, password: admin.password, code: '' });
        const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((c) => c.startsWith('rl_session='))!;
        assert.ok(cookie);
        assert.match(cookie, /; HttpOnly/);
        assert.match(cookie, /; SameSite=Lax/);
        assert.match(cookie, /; Path=\//);
        assert.doesNotMatch(cookie, /Secure|Domain|Max-Age|Expires/);
      });

      test('over HTTPS (behind a proxy) the cookies are __Host- and Secure', async () => {
        const clock = fixedClock(t.clock.now());
        const app = await buildApp({
          keyRing: TEST_KEY_RING,
          config: parseConfig({ databaseUrl: database.url }, {}),
          engine: database.engine,
          clock,
          transport: { kind: 'proxy', trusted: true },
        });
        try {
          const https = { 'x-forwarded-proto': 'https', host: 'risk.example.com' };
          const page = await app.inject({ url: '/portal/sign-in', headers: https });
          const csrfCookie = ([] as string[]).concat(page.headers['set-cookie'] ?? []).find((c) => c.startsWith('__Host-rl_csrf='))!;
          assert.match(csrfCookie, /; Secure/);
          const response = await postForm(
            app,
            '/portal/sign-in',
            { email: admin.email, password: admin.password, code: '' },
            {
              csrf: csrfTokenOf(page.body),
              cookie: csrfCookie.split(';')[0],
              origin: 'https://risk.example.com',
              headers: https,
            },
          );
          assert.equal(response.statusCode, 303);
          const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((c) => c.startsWith('__Host-rl_session='))!;
          assert.match(cookie, /; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
          assert.equal(response.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
        } finally {
          await app.close();
        }
      });
    });

    describe('one-time links through the pages', () => {
      test('an invitation link works once: set name and password, land signed in on the home page', async () => {
        const link = await inviteUser(db(), t.clock, { email: 'new@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'test' });
        const browser = new PortalBrowser(t.app);
        const page = await browser.get(`/portal/accept?token=${link.token}`);
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /new@example\.com/);
        const mismatch = await browser.post('/portal/accept', { token: link.token, name: 'Yeni', password: PASSWORD, password2: `${PASSWORD}!` });
        assert.equal(mismatch.statusCode, 400);
        const short = await browser.post('/portal/accept', { token: link.token, name: 'Yeni', password: 'short', password2: 'short' });
        assert.equal(short.statusCode, 400);
        const done = await browser.post('/portal/accept', { token: link.token, name: '<script>alert(1)</script>', password: PASSWORD, password2: PASSWORD });
        assert.equal(done.statusCode, 303);
        assert.equal(done.headers.location, '/portal/');
        const home = await browser.get('/portal/');
        assert.equal(home.statusCode, 200);
        assert.ok(!home.body.includes('<script>alert(1)</script>'), 'the name is shown as text');
        assert.match(home.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
        const again = await new PortalBrowser(t.app).get(`/portal/accept?token=${link.token}`);
        assert.equal(again.statusCode, 404);
        const replay = await browser.post('/portal/accept', { token: link.token, name: 'X', password: PASSWORD, password2: PASSWORD });
        assert.equal(replay.statusCode, 404);
      });

      test('an expired link shows the same page as an unknown one', async () => {
        const link = await inviteUser(db(), t.clock, { email: 'expired@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'test' });
        t.clock.advance(LINK_VALID_MS);
        const expired = await t.app.inject({ url: `/portal/accept?token=${link.token}` });
        const unknown = await t.app.inject({ url: `/portal/accept?token=${'z'.repeat(43)}` });
        assert.equal(expired.statusCode, 404);
        const strip = (s: string) => s.replace(/[A-Za-z0-9_-]{43}/g, 'SECRET');
        assert.equal(strip(expired.body), strip(unknown.body));
      });

      test('an operator accepting an invitation enrols TOTP: the secret and otpauth URI shown, a code required', async () => {
        const link = await inviteUser(db(), t.clock, { email: 'op2@example.com', role: 'operator', createdBy: 'test', keyRing: TEST_KEY_RING });
        const browser = new PortalBrowser(t.app);
        const page = await browser.get(`/portal/accept?token=${link.token}`);
        const secret = /id="totp-secret">([A-Z2-7]{32})</.exec(page.body)?.[1];
        assert.ok(secret, 'the secret is on the page');
        assert.doesNotMatch(page.body, /name="totp_secret"/, 'the secret is not a form field');
        assert.match(page.body, /otpauth:\/\/totp\//);
        const fields = { token: link.token, name: 'Op Two', password: PASSWORD, password2: PASSWORD };
        const wrong = await browser.post('/portal/accept', { ...fields, totp_code: totpCodeAt(secret, t.clock.now() - 10 * 60_000) });
        assert.equal(wrong.statusCode, 400);
        assert.ok(wrong.body.includes(secret), 'the same secret is offered again');
        const ok = await browser.post('/portal/accept', { ...fields, totp_code: totpCodeAt(secret, t.clock.now()) });
        assert.equal(ok.statusCode, 303);
        assert.equal(ok.headers.location, '/portal/operator/');
      });

      test('an operator cannot choose its own TOTP secret: a posted secret and its code are refused', async () => {
        const link = await inviteUser(db(), t.clock, { email: 'op3@example.com', role: 'operator', createdBy: 'test', keyRing: TEST_KEY_RING });
        const browser = new PortalBrowser(t.app);
        await browser.get(`/portal/accept?token=${link.token}`);
        const chosen = 'A'.repeat(32);
        const fields = { token: link.token, name: 'Op Three', password: PASSWORD, password2: PASSWORD, totp_secret: chosen };
        const res = await browser.post('/portal/accept', { ...fields, totp_code: totpCodeAt(chosen, t.clock.now()) });
        assert.equal(res.statusCode, 400);
        const user = await db().selectFrom('users').select(['status', 'totp_secret']).where('email_norm', '=', 'op3@example.com').executeTakeFirstOrThrow();
        assert.equal(user.status, 'invited');
        assert.equal(user.totp_secret, null);
      });

      test('a reset link through the page sets a new password; the old one stops working', async () => {
        const user = await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'M-1' });
        const link = await createResetLink(db(), t.clock, { email: user.email, createdBy: 'test' });
        const browser = new PortalBrowser(t.app);
        await browser.get(`/portal/accept?token=${link.token}`);
        const done = await browser.post('/portal/accept', {
          token: link.token,
          name: 'Reset User',
          password: 'a brand new password',
          password2: 'a brand new password',
        });
        assert.equal(done.statusCode, 303);
        const old = await (await anonymousBrowser(t.app)).post('/portal/sign-in', { email: user.email, password: user.password, code: '' });
        assert.equal(old.statusCode, 401);
        await signIn(t.app, { ...user, password: 'a brand new password' });
      });
    });

    test('language: Accept-Language first, then the switch (a POST) for the session', async () => {
      const english = await t.app.inject({ url: '/portal/sign-in', headers: { 'accept-language': 'en-GB,en;q=0.9' } });
      assert.match(english.body, /<html lang="en">/);
      assert.match(english.body, /<h1>Sign in<\/h1>/);
      const browser = await signIn(t.app, admin);
      assert.match((await browser.get('/portal/')).body, /<html lang="tr">/);
      const switched = await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' });
      assert.equal(switched.statusCode, 303);
      assert.equal(switched.headers.location, '/portal/');
      assert.match((await browser.get('/portal/')).body, /<html lang="en">/);
      const offsite = await browser.post('/portal/locale', { locale: 'tr', return_to: 'https://evil.example/' });
      assert.equal(offsite.headers.location, '/portal/', 'never redirected off the portal');
      const anon = await anonymousBrowser(t.app);
      await anon.post('/portal/locale', { locale: 'en', return_to: '/portal/sign-in' });
      assert.match((await anon.get('/portal/sign-in')).body, /<html lang="en">/);
      const link = await inviteUser(db(), t.clock, { email: 'lang@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'test' });
      const accept = await anon.get(`/portal/accept?token=${link.token}`);
      const returnTo = /name="return_to" value="([^"]+)"/.exec(accept.body)?.[1];
      assert.equal(returnTo, `/portal/accept?token=${link.token}`, 'the language switch returns to the same link');
      const back = await anon.post('/portal/locale', { locale: 'tr', return_to: returnTo });
      assert.equal(back.headers.location, returnTo);
    });

    test('no password, link token, session id, CSRF token or device cookie reaches the logs', async () => {
      const link = await inviteUser(db(), t.clock, { email: 'logged@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'test' });
      const browser = new PortalBrowser(t.app);
      await browser.get(`/portal/accept?token=${link.token}`);
      const secretPassword = 'Very Secret Passphrase 42';
      await browser.post('/portal/accept', { token: link.token, name: 'Logged', password: secretPassword, password2: secretPassword });
      const signedIn = await signIn(t.app, { email: 'logged@example.com', password: secretPassword, totpSecret: null });
      await (await anonymousBrowser(t.app)).post('/portal/sign-in', { email: 'logged@example.com', password: 'Wrong Secret Passphrase', code: '' });
      await signedIn.post('/portal/sign-out');
      const logs = t.logs.join('');
      assert.match(logs, /portal: signed in/);
      const deviceTokens = (signedIn.cookies.get('rl_device') ?? '').split('.');
      assert.ok(deviceTokens[0], 'the browser holds a device cookie');
      for (const secret of [
        link.token,
        secretPassword,
        'Wrong Secret Passphrase',
        signedIn.sessionId() ?? browser.sessionId()!,
        signedIn.csrf,
        ...deviceTokens,
      ]) {
        assert.ok(secret && !logs.includes(secret), `a secret reached the logs: ${secret?.slice(0, 6)}…`);
      }
    });
  });
}
