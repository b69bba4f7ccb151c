/**
 * Issue 27, finding 7: weak passwords. A new password is refused when it is found in the breached
 * passwords list, or is one character repeated, or only white space; the acceptance page says
 * why, in English and Turkish. Through the real routes, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { PortalBrowser } from './helpers/portal.ts';
import { inviteUser } from '../src/users/users.service.ts';

/** What the page says, without its markup. */
const textOf = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

for (const engine of ENGINES) {
  describe(`weak passwords are refused [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const db = () => database.engine.db;
    let seq = 0;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(db(), t.clock, { ref: 'M-1' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    /** Opens a new invitation's page in the given language and posts `password` twice. */
    async function accept(password: string, language: 'en' | 'tr' = 'en') {
      const email = `weak${++seq}@example.com`;
      const link = await inviteUser(db(), t.clock, { email, role: 'member_user', memberRef: 'M-1', createdBy: 'test' });
      const browser = new PortalBrowser(t.app);
      await browser.get(`/portal/accept?token=${link.token}`, { 'accept-language': language });
      const res = await browser.post(
        '/portal/accept',
        { token: link.token, name: 'Ayşe Yılmaz', password, password2: password },
        { headers: { 'accept-language': language } },
      );
      const user = await db().selectFrom('users').select(['status', 'password_hash']).where('email_norm', '=', email).executeTakeFirstOrThrow();
      return { res, user };
    }

    const refusals: Array<{ password: string; en: RegExp; tr: RegExp }> = [
      { password: ' '.repeat(12), en: /only white space/i, tr: /yalnızca boşluk/i },
      { password: '\t \u00a0'.repeat(4), en: /only white space/i, tr: /yalnızca boşluk/i },
      { password: 'a'.repeat(14), en: /one character repeated/i, tr: /tek bir karakterin tekrarı/i },
      { password: 'ğ'.repeat(12), en: /one character repeated/i, tr: /tek bir karakterin tekrarı/i },
      { password: 'password1234', en: /list of passwords found in data breaches/i, tr: /veri sızıntılarında/i },
      { password: 'Password1234', en: /list of passwords found in data breaches/i, tr: /veri sızıntılarında/i },
      { password: 'qwertyuiop12', en: /list of passwords found in data breaches/i, tr: /veri sızıntılarında/i },
    ];

    for (const { password, en, tr } of refusals) {
      test(`${JSON.stringify(password)} is refused with the reason (en, tr), and the link still works`, async () => {
        const english = await accept(password, 'en');
        assert.equal(english.res.statusCode, 400);
        assert.match(textOf(english.res.body), en);
        assert.equal(english.user.status, 'invited');
        assert.equal(english.user.password_hash, null);
        const turkish = await accept(password, 'tr');
        assert.equal(turkish.res.statusCode, 400);
        assert.match(textOf(turkish.res.body), tr);
        assert.match(turkish.res.body, /name="token"/, 'the form is offered again');
      });
    }

    test('a long passphrase, with spaces and Turkish letters, is accepted', async () => {
      const { res, user } = await accept('  kırmızı  şemsiyeli  kedi  ');
      assert.equal(res.statusCode, 303);
      assert.equal(user.status, 'active');
    });
  });
}
