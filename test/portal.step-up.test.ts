/**
 * Issue 27, finding 4: a stolen operator session cannot mint operators or lift limits. Inviting or
 * resetting an operator, resetting any user, and changing a member's status, daily limit, daily portal limit or watchlist cap each
 * need the operator's password and a TOTP code not used before, sent with the action. Without
 * them the console asks for them and changes nothing; a wrong password or code is refused with a
 * worded page (en, tr), counts as a failed sign-in, and is in the operator log. Through the real
 * routes, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeKeyHolder, makeMember } from './helpers/factories.ts';
import { makePortalUser, signIn, type PortalBrowser, type PortalUser } from './helpers/portal.ts';
import { totpCodeAt } from '../src/users/totp.ts';

const textOf = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

for (const engine of ENGINES) {
  describe(`operator actions need the password and a new code [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const db = () => database.engine.db;
    let op: PortalUser;
    let browser: PortalBrowser;
    /** The code the operator signed in with: used once already. */
    let usedCode: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(db(), t.clock, { ref: 'C-1' });
      await makeKeyHolder(db(), t.clock, { ref: 'C-KEY', dailyLimit: 100 });
      await makePortalUser(db(), t.clock, { role: 'member_user', memberRef: 'C-1', email: 'member.user@c-1.test' });
      await makePortalUser(db(), t.clock, { role: 'operator', email: 'other.op@console.test' });
      op = await makePortalUser(db(), t.clock, { role: 'operator', email: 'op@console.test' });
      usedCode = totpCodeAt(op.totpSecret!, t.clock.now());
      browser = await signIn(t.app, op, t.clock);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    /** A code from the next 30-second step: one not used before. */
    const freshCode = () => {
      t.clock.advance(30_000);
      return totpCodeAt(op.totpSecret!, t.clock.now());
    };

    const state = async () => ({
      users: (await db().selectFrom('users').select(['email', 'status']).orderBy('email').execute()).map((u) => `${u.email}:${u.status}`),
      links: (await db().selectFrom('user_tokens').select('id').where('used_at', 'is', null).execute()).length,
      members: await db().selectFrom('members').select(['ref', 'status', 'key_daily_limit', 'portal_daily_limit', 'watchlist_cap']).orderBy('ref').execute(),
    });

    const refusedLogLines = async () =>
      (await db().selectFrom('operator_log').select(['action', 'target', 'after_json']).where('action', '=', 'step_up.refused').execute()).length;
    const failureRows = async () => (await db().selectFrom('sign_in_failures').select('id').execute()).length;

    const ACTIONS: Array<{ name: string; url: string; fields: Record<string, string>; accepted: number }> = [
      {
        name: 'inviting an operator',
        url: '/portal/operator/users/invite',
        fields: { email: 'new.op@console.test', role: 'operator', member: '' },
        accepted: 200,
      },
      // Attack round: a member's account minted from a stolen session outlives it (a key, searches every day).
      {
        name: "inviting a member's administrator",
        url: '/portal/operator/users/invite',
        fields: { email: 'new.admin@c-1.test', role: 'member_admin', member: 'C-1' },
        accepted: 200,
      },
      {
        name: "inviting a member's user",
        url: '/portal/operator/users/invite',
        fields: { email: 'new.user@c-1.test', role: 'member_user', member: 'C-1' },
        accepted: 200,
      },
      { name: 'resetting an operator', url: '/portal/operator/users/reset', fields: { email: 'other.op@console.test' }, accepted: 200 },
      { name: "resetting a member's user", url: '/portal/operator/users/reset', fields: { email: 'member.user@c-1.test' }, accepted: 200 },
      { name: "changing a member's status", url: '/portal/operator/members/C-1/status', fields: { status: 'suspended' }, accepted: 303 },
      { name: "changing a member's daily limit", url: '/portal/operator/members/C-KEY/limit', fields: { daily_limit: '100000' }, accepted: 303 },
      {
        name: "changing a member's daily portal limit",
        url: '/portal/operator/members/C-KEY/portal-limit',
        fields: { portal_daily_limit: '100000' },
        accepted: 303,
      },
      {
        name: "changing a member's watchlist cap",
        url: '/portal/operator/members/C-KEY/watchlist-cap',
        fields: { watchlist_cap: '100000' },
        accepted: 303,
      },
      // Attack round: a stolen session must not shut the other operators out of the console.
      { name: 'disabling another operator', url: '/portal/operator/users/disable', fields: { email: 'other.op@console.test' }, accepted: 303 },
    ];

    for (const action of ACTIONS) {
      test(`${action.name}: refused without, with a wrong password, a wrong or a used code; done with both`, async () => {
        const before = await state();
        const logBefore = await refusedLogLines();

        const without = await browser.post(action.url, action.fields);
        assert.equal(without.statusCode, 403, 'asked to confirm');
        assert.match(without.body, /name="confirm_password"/);
        assert.match(without.body, /name="confirm_code"/);
        assert.deepEqual(await state(), before, 'nothing changed');

        const failuresBefore = await failureRows();
        const wrongPassword = await browser.post(
          action.url,
          { ...action.fields, confirm_password: 'not my password', confirm_code: freshCode() },
          { headers: { 'accept-language': 'en' } },
        );
        assert.equal(wrongPassword.statusCode, 403);
        assert.match(textOf(wrongPassword.body), /password or the code is not right/);
        assert.equal(await failureRows(), failuresBefore + 1, 'counted as a failed sign-in');

        const turkish = await browser.post(
          action.url,
          { ...action.fields, confirm_password: op.password, confirm_code: '000000' === freshCode() ? '111111' : '000000' },
          { headers: { 'accept-language': 'tr' } },
        );
        assert.equal(turkish.statusCode, 403, 'a wrong code');
        assert.match(textOf(turkish.body), /parola ya da kod doğru değil/i);

        const replayed = await browser.post(action.url, { ...action.fields, confirm_password: op.password, confirm_code: usedCode });
        assert.equal(replayed.statusCode, 403, 'a code used before');
        assert.deepEqual(await state(), before, 'still nothing changed');
        assert.equal(await refusedLogLines(), logBefore + 3, 'each refusal is in the operator log');

        const code = freshCode();
        const done = await browser.post(action.url, { ...action.fields, confirm_password: op.password, confirm_code: code });
        assert.equal(done.statusCode, action.accepted, done.body.slice(0, 300));
        assert.notDeepEqual(await state(), before, 'the action was done');
        usedCode = code;
        const again = await browser.post(action.url, { ...action.fields, confirm_password: op.password, confirm_code: code });
        assert.equal(again.statusCode, 403, 'the same code does not confirm a second action');
      });
    }

    test('the confirmation page carries the action on: confirming it there does it', async () => {
      const asked = await browser.post('/portal/operator/members/C-1/status', { status: 'terminated' });
      assert.equal(asked.statusCode, 403);
      assert.match(asked.body, /<form method="post" action="\/portal\/operator\/members\/C-1\/status"/);
      assert.match(asked.body, /<input type="hidden" name="status" value="terminated" \/>/);
      const done = await browser.post('/portal/operator/members/C-1/status', {
        status: 'terminated',
        confirm_password: op.password,
        confirm_code: freshCode(),
      });
      assert.equal(done.statusCode, 303);
      const member = await db().selectFrom('members').select('status').where('ref', '=', 'C-1').executeTakeFirstOrThrow();
      assert.equal(member.status, 'terminated');
    });

    test("other member changes and disabling a member's user need no confirmation", async () => {
      assert.equal((await browser.post('/portal/operator/users/disable', { email: 'member.user@c-1.test' })).statusCode, 303);
      assert.equal((await browser.post('/portal/operator/members/C-KEY/tier', { tier: 'associate' })).statusCode, 303);
    });
  });
}
