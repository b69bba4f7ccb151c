/** Signing in and out, sessions and their limits, through the real routes on every engine (D27). */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { anonymousBrowser, makePortalUser, signIn, type PortalUser } from './helpers/portal.ts';
import { setMember } from '../src/members/members.service.ts';
import { disableUser } from '../src/users/users.service.ts';
import { totpCodeAt } from '../src/users/totp.ts';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../src/sessions/sessions.service.ts';
import { SIGN_IN_THROTTLE } from '../src/sessions/sign-in-throttle.ts';
import { digestSecretToken } from '../src/users/one-time-token.ts';

const MINUTE = 60_000;

/** The sign-in answer with the typed email taken out: what must not differ between known and unknown emails. */
function refusalOf(response: { statusCode: number; body: string }, email: string) {
  return { status: response.statusCode, body: response.body.split(email).join('EMAIL') };
}

for (const engine of ENGINES) {
  describe(`portal sign-in and sessions [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: PortalUser;
    const db = () => database.engine.db;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(db(), t.clock, { ref: 'M-1' });
      admin = await makePortalUser(db(), t.clock, { role: 'member_admin', memberRef: 'M-1', email: 'Admin@Example.com' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('sign-in with the right password: 303 to the home page, which shows the member', async () => {
      const browser = await signIn(t.app, admin);
      const home = await browser.get('/portal/');
      assert.equal(home.statusCode, 200);
      assert.match(home.body, /Member M-1 \(M-1\)/);
      assert.equal(home.headers['content-type'], 'text/html; charset=utf-8');
    });

    test('the email is matched whatever its case', async () => {
      await signIn(t.app, { ...admin, email: 'ADMIN@example.COM' });
    });

    test('a wrong password and an unknown email get the same answer (401, same page)', async () => {
      const browser = await anonymousBrowser(t.app);
      const wrong = await browser.post('/portal/sign-in', { email: admin.email, password: 'wrong password here', code: '' });
      const unknown = await browser.post('/portal/sign-in', { email: 'nobody@example.com', password: 'wrong password here', code: '' });
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(refusalOf(unknown, 'nobody@example.com'), refusalOf(wrong, admin.email));
      assert.equal(browser.sessionId(), undefined);
    });

    test('signing in gives a new session id, and ends the session the browser had', async () => {
      const browser = await signIn(t.app, admin);
      const first = browser.sessionId()!;
      const again = await browser.post('/portal/sign-in', { email: admin.email, password: admin.password, code: '' });
      assert.equal(again.statusCode, 303);
      assert.notEqual(browser.sessionId(), first);
      const old = await t.app.inject({ url: '/portal/', headers: { cookie: `rl_session=${first}` } });
      assert.equal(old.statusCode, 303, 'the old id is no longer a session');
      const row = await db().selectFrom('sessions').select('ended_at').where('digest', '=', digestSecretToken(first)).executeTakeFirstOrThrow();
      assert.notEqual(row.ended_at, null);
    });

    test('only the digest of the session id is stored', async () => {
      const browser = await signIn(t.app, admin);
      const rows = await db().selectFrom('sessions').selectAll().execute();
      assert.ok(!JSON.stringify(rows).includes(browser.sessionId()!));
      assert.ok(rows.some((r) => r.digest === digestSecretToken(browser.sessionId()!)));
    });

    test('sign-out ends the session; the cookie no longer works', async () => {
      const browser = await signIn(t.app, admin);
      const id = browser.sessionId()!;
      const out = await browser.post('/portal/sign-out');
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, '/portal/sign-in?signed_out=1');
      assert.equal(browser.sessionId(), undefined, 'the cookie is cleared');
      const after = await t.app.inject({ url: '/portal/', headers: { cookie: `rl_session=${id}` } });
      assert.equal(after.statusCode, 303);
    });

    test('30 minutes idle ends the session; activity keeps it alive', async () => {
      const browser = await signIn(t.app, admin);
      t.clock.advance(SESSION_IDLE_MS - MINUTE);
      assert.equal((await browser.get('/portal/')).statusCode, 200);
      t.clock.advance(SESSION_IDLE_MS - MINUTE);
      assert.equal((await browser.get('/portal/')).statusCode, 200, 'the last request counted as activity');
      t.clock.advance(SESSION_IDLE_MS + 1);
      const idle = await browser.get('/portal/');
      assert.equal(idle.statusCode, 303);
      assert.match(String(idle.headers.location), /^\/portal\/sign-in/);
      const page = await browser.get(String(idle.headers.location));
      assert.match(page.body, /Oturumunuz sona erdi|Your session has ended/);
    });

    test('12 hours at most, however active', async () => {
      const browser = await signIn(t.app, admin);
      let elapsed = 0;
      while (elapsed + 20 * MINUTE < SESSION_ABSOLUTE_MS) {
        t.clock.advance(20 * MINUTE);
        elapsed += 20 * MINUTE;
        assert.equal((await browser.get('/portal/')).statusCode, 200, `after ${elapsed / MINUTE} min`);
      }
      t.clock.advance(SESSION_ABSOLUTE_MS - elapsed);
      assert.equal((await browser.get('/portal/')).statusCode, 303);
    });

    test('disabling a user ends their access on the next request', async () => {
      const user = await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'M-1' });
      const browser = await signIn(t.app, user);
      await disableUser(db(), t.clock, user.email);
      const out = await browser.get('/portal/');
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, '/portal/sign-in?next=%2Fportal%2F&expired=1', 'told that the session ended');
      assert.equal(browser.sessionId(), undefined, "the ended session's cookie is cleared");
      const retry = await (await anonymousBrowser(t.app)).post('/portal/sign-in', { email: user.email, password: user.password, code: '' });
      assert.equal(retry.statusCode, 401, 'a disabled user gets the same refusal as a wrong password');
    });

    test("suspending the member ends its users' sessions on the next request", async () => {
      await makeMember(db(), t.clock, { ref: 'M-2' });
      const user = await makePortalUser(db(), t.clock, { role: 'member_admin', memberRef: 'M-2' });
      const browser = await signIn(t.app, user);
      const other = await signIn(t.app, user);
      await setMember(db(), t.clock, 'M-2', { status: 'suspended' });
      assert.equal((await browser.get('/portal/')).statusCode, 303);
      const open = await db().selectFrom('sessions').select('id').where('user_id', '=', user.id).where('ended_at', 'is', null).execute();
      assert.equal(open.length, 0, 'every session of the user ended');
      assert.equal((await other.get('/portal/')).statusCode, 303);
      // The right password of a suspended member's user gets the refusal a wrong one gets: no
      // answer tells that the email exists or that its password is right (D27).
      const anonymous = await anonymousBrowser(t.app);
      const again = await anonymous.post('/portal/sign-in', { email: user.email, password: user.password, code: '' });
      const wrong = await anonymous.post('/portal/sign-in', { email: user.email, password: 'wrong password here', code: '' });
      assert.equal(again.statusCode, 401);
      assert.deepEqual(refusalOf(again, user.email), refusalOf(wrong, user.email));
    });

    test('slowing: after 5 failures for an email, a browser new to it waits, even with the right password; the same for an unknown email', async () => {
      const user = await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'M-1' });
      await db().deleteFrom('sign_in_failures').execute();
      const browser = await anonymousBrowser(t.app);
      const fail = () => browser.post('/portal/sign-in', { email: user.email, password: 'wrong password here', code: '' });
      for (let i = 0; i < SIGN_IN_THROTTLE.account.free; i++) assert.equal((await fail()).statusCode, 401);
      const right = await browser.post('/portal/sign-in', { email: user.email, password: user.password, code: '' });
      assert.equal(right.statusCode, 429);
      // The same for an email nobody has: slowing tells nothing either.
      for (let i = 0; i < SIGN_IN_THROTTLE.account.free; i++) await browser.post('/portal/sign-in', { email: 'ghost@example.com', password: 'x', code: '' });
      const ghost = await browser.post('/portal/sign-in', { email: 'ghost@example.com', password: 'x', code: '' });
      assert.equal(ghost.statusCode, 429);
      assert.deepEqual(refusalOf(ghost, 'ghost@example.com'), refusalOf(right, user.email));
      t.clock.advance(SIGN_IN_THROTTLE.account.firstWaitMs);
      await signIn(t.app, user);
      await db().deleteFrom('sign_in_failures').execute();
    });

    test('slowing per address: 20 failures from one address, across emails, slow browsers new to an account from there', async () => {
      const user = await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'M-1' });
      await db().deleteFrom('sign_in_failures').execute();
      const browser = await anonymousBrowser(t.app);
      for (let i = 0; i < SIGN_IN_THROTTLE.address.free; i++) {
        await browser.post('/portal/sign-in', { email: `spray${i}@example.com`, password: 'wrong password here', code: '' });
      }
      const right = await browser.post('/portal/sign-in', { email: user.email, password: user.password, code: '' });
      assert.equal(right.statusCode, 429);
      await db().deleteFrom('sign_in_failures').execute();
    });

    test('operators: the password alone is not enough; a code signs in once (a replay is refused)', async () => {
      const op = await makePortalUser(db(), t.clock, { role: 'operator' });
      const browser = await anonymousBrowser(t.app);
      const noCode = await browser.post('/portal/sign-in', { email: op.email, password: op.password, code: '' });
      assert.equal(noCode.statusCode, 401);
      const code = totpCodeAt(op.totpSecret!, t.clock.now());
      const ok = await browser.post('/portal/sign-in', { email: op.email, password: op.password, code });
      assert.equal(ok.statusCode, 303);
      const console = await browser.get('/portal/');
      assert.equal(console.statusCode, 303);
      assert.equal(console.headers.location, '/portal/operator/');
      assert.equal((await browser.get('/portal/operator/')).statusCode, 200);
      const replay = await (await anonymousBrowser(t.app)).post('/portal/sign-in', { email: op.email, password: op.password, code });
      assert.equal(replay.statusCode, 401, 'the same code again');
      t.clock.advance(30_000);
      await signIn(t.app, op, t.clock);
      await db().deleteFrom('sign_in_failures').execute();
    });
  });
}
