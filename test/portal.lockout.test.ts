/**
 * Issue 27, finding 6: nobody can lock an account by guessing its password. OWASP's device
 * cookies: a browser that signed in before keeps its own allowance of tries; browsers that never
 * did are slowed per account and per address with growing waits, never locked for good; the
 * operator log shows when an account starts to be slowed. Every attacker here shares the owner's
 * address (one office). Through the real routes, on every engine.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { anonymousBrowser, makePortalUser, signIn, type PortalBrowser, type PortalUser } from './helpers/portal.ts';

const WRONG = 'not the password at all';

for (const engine of ENGINES) {
  describe(`sign-in guessing locks nobody out [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const db = () => database.engine.db;
    let owner: PortalUser;
    /** The owner's own browser: it has signed in before. */
    let ownersBrowser: PortalBrowser;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(db(), t.clock, { ref: 'M-1' });
    });
    beforeEach(async () => {
      await db().deleteFrom('sign_in_failures').execute();
      owner = await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'M-1' });
      ownersBrowser = await signedOutAfterSignIn(owner);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    /** A browser that signed in as the user and out again, on the sign-in page (holding its device cookie). */
    async function signedOutAfterSignIn(user: PortalUser): Promise<PortalBrowser> {
      const browser = await signIn(t.app, user);
      await browser.post('/portal/sign-out', {});
      await browser.get('/portal/sign-in');
      return browser;
    }

    const attempt = (browser: PortalBrowser, email: string, password: string) => browser.post('/portal/sign-in', { email, password, code: '' });

    test("30 wrong passwords for the owner's email from another browser: the owner's own browser still signs in", async () => {
      const attacker = await anonymousBrowser(t.app);
      for (let i = 0; i < 30; i++) {
        const answer = await attempt(attacker, owner.email, WRONG);
        assert.ok([401, 429].includes(answer.statusCode), `attempt ${i}: ${answer.statusCode}`);
      }
      const own = await attempt(ownersBrowser, owner.email, owner.password);
      assert.equal(own.statusCode, 303, 'the browser that signed in before gets in');
    });

    test('20 failures from one address across many emails: a colleague at the same address still signs in from their browser', async () => {
      const sprayer = await anonymousBrowser(t.app);
      for (let i = 0; i < 25; i++) await attempt(sprayer, `spray${i}@example.com`, WRONG);
      const own = await attempt(ownersBrowser, owner.email, owner.password);
      assert.equal(own.statusCode, 303);
    });

    test('an unknown browser is slowed with growing waits, never locked: the right password works once the wait is over', async () => {
      const attacker = await anonymousBrowser(t.app);
      for (let i = 0; i < 5; i++) assert.equal((await attempt(attacker, owner.email, WRONG)).statusCode, 401, `free attempt ${i + 1}`);
      const newBrowser = await anonymousBrowser(t.app);
      const slowed = await attempt(newBrowser, owner.email, owner.password);
      assert.equal(slowed.statusCode, 429, 'within the wait even the right password waits');
      assert.equal(slowed.headers['retry-after'], '15');
      assert.match(slowed.body, /15 saniye bekleyip/, 'the page says how long (Turkish by default)');
      t.clock.advance(15_000);
      assert.equal((await attempt(attacker, owner.email, WRONG)).statusCode, 401, 'a guess after the wait is checked');
      const longer = await attempt(newBrowser, owner.email, owner.password);
      assert.equal(longer.statusCode, 429);
      assert.equal(longer.headers['retry-after'], '30', 'the next wait is twice as long');
      t.clock.advance(30_000);
      assert.equal((await attempt(newBrowser, owner.email, owner.password)).statusCode, 303, 'then the right password gets in');
    });

    test("a known browser has its own allowance: ten wrong passwords slow that browser, not the owner's other one", async () => {
      const secondBrowser = await signedOutAfterSignIn(owner);
      for (let i = 0; i < 10; i++) assert.equal((await attempt(secondBrowser, owner.email, WRONG)).statusCode, 401);
      assert.equal((await attempt(secondBrowser, owner.email, owner.password)).statusCode, 429);
      assert.equal((await attempt(ownersBrowser, owner.email, owner.password)).statusCode, 303);
    });

    test('an unknown email is slowed exactly like a real one (D27: no answer tells which exists)', async () => {
      const browser = await anonymousBrowser(t.app);
      const answers = async (email: string) => {
        const out = [];
        for (let i = 0; i < 7; i++) {
          const a = await attempt(browser, email, WRONG);
          out.push({ status: a.statusCode, retry: a.headers['retry-after'], body: a.body.split(email).join('EMAIL') });
        }
        return out;
      };
      const real = await answers(owner.email);
      const ghost = await answers('ghost@example.com');
      assert.deepEqual(
        ghost.map((a) => [a.status, a.retry]),
        real.map((a) => [a.status, a.retry]),
      );
      assert.deepEqual(
        ghost.map((a) => a.body.replace(/name="_csrf" value="[^"]+"/, '')),
        real.map((a) => a.body.replace(/name="_csrf" value="[^"]+"/, '')),
      );
    });

    test('parallel guesses from unknown browsers: 40 at once check at most 5 passwords', async () => {
      const attacker = await anonymousBrowser(t.app);
      const answers = await Promise.all(Array.from({ length: 40 }, () => attempt(attacker, owner.email, WRONG)));
      assert.equal(answers.filter((a) => a.statusCode === 401).length <= 5, true, answers.map((a) => a.statusCode).join(','));
      const kept = await db().selectFrom('sign_in_failures').select('id').where('subject', '=', `email:${owner.email.toLowerCase()}`).execute();
      assert.ok(kept.length <= 5, `${kept.length} passwords were checked`);
    });

    test("operators see when an account starts to be slowed, on the console's operator log page", async () => {
      const attacker = await anonymousBrowser(t.app);
      for (let i = 0; i < 5; i++) await attempt(attacker, owner.email, WRONG);
      const operator = await signIn(t.app, await makePortalUser(db(), t.clock, { role: 'operator' }), t.clock);
      const log = await operator.get('/portal/operator/log');
      assert.equal(log.statusCode, 200);
      assert.match(log.body, /sign_in\.throttled/);
      assert.ok(log.body.includes(`user:${owner.email}`), 'names the account');
      assert.match(log.body, /127\.0\.0\.1/, 'and the address the guesses came from');
    });
  });
}
