/**
 * The watchlist cap (D31) in the operator console's member list, through the real app, on every
 * engine: a POST form with the CSRF token beside the member's other limits, the CLI's rule and
 * words (readWatchlistCap), the step-up confirmation as for the daily limits, an operator-log
 * entry, and the member's watchlist page showing the new cap. Refused without a session, for a
 * member's admin or user, without the right CSRF token, for a bad value; a cap below the current
 * count removes nothing and stops adding, as `risklookup member set --watchlist-cap` does.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember, nextVkn } from './helpers/factories.ts';
import { anonymousBrowser, confirmFields, makePortalUser, signIn, type PortalBrowser, type PortalUser } from './helpers/portal.ts';
import type { Database } from '../src/db/schema.ts';
import { readWatchlistCap } from '../src/watchlist/watchlist.service.ts';

const ENTITIES: Record<string, string> = { '&#39;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&#96;': '`', '&amp;': '&' };
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&quot;|&lt;|&gt;|&#96;|&amp;/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, ' ');

for (const engine of ENGINES) {
  describe(`the console's watchlist cap [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    let t: TestApp;
    let operator: PortalUser;
    let console_: PortalBrowser;
    let memberAdmin: PortalBrowser;
    let memberUser: PortalBrowser;
    let memberId = 0;
    const url = '/portal/operator/members/WC-1/watchlist-cap';

    const cap = async () => (await db.selectFrom('members').select('watchlist_cap').where('ref', '=', 'WC-1').executeTakeFirstOrThrow()).watchlist_cap;
    const logged = () =>
      db
        .selectFrom('operator_log')
        .select(['actor', 'target', 'before_json', 'after_json'])
        .where('action', '=', 'member.watchlist_cap')
        .orderBy('id')
        .execute();
    const english = async (browser: PortalBrowser) => {
      assert.equal((await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
      return browser;
    };

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      t = await makeTestApp(database, { watchlistCap: 5 });
      await makeMember(db, t.clock, { ref: 'WC-1' });
      memberId = Number((await db.selectFrom('members').select('id').where('ref', '=', 'WC-1').executeTakeFirstOrThrow()).id);
      operator = await makePortalUser(db, t.clock, { role: 'operator', email: 'ops@console.test' });
      console_ = await english(await signIn(t.app, operator, t.clock));
      memberAdmin = await english(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'WC-1' }), t.clock));
      memberUser = await english(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'WC-1' }), t.clock));
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test("the member list has the field beside the other limits: a POST form with the CSRF token, the server's default shown as default", async () => {
      const page = await console_.get('/portal/operator/members');
      assert.equal(page.statusCode, 200);
      const form = new RegExp(
        `<form method="post" action="${url}" class="inline"><input type="hidden" name="_csrf" value="[^"]+" />\\s*<input name="watchlist_cap"[^>]*value="default"`,
      );
      assert.match(page.body, form);
      assert.match(text(page.body), /Watchlist cap \(companies\)/);
      assert.match(text(page.body), /default = 5 · 0 watched now/);
    });

    test('refused without a session, for a member admin and a member user, and without the right CSRF token: nothing changes, nothing logged', async () => {
      assert.equal((await (await anonymousBrowser(t.app)).post(url, { watchlist_cap: '900' })).statusCode, 403);
      assert.equal((await memberAdmin.post(url, { watchlist_cap: '900', ...confirmFields(operator, t.clock) })).statusCode, 403);
      assert.equal((await memberUser.post(url, { watchlist_cap: '900', ...confirmFields(operator, t.clock) })).statusCode, 403);
      const noToken = await console_.post(url, { watchlist_cap: '900', ...confirmFields(operator, t.clock) }, { csrf: null });
      assert.equal(noToken.statusCode, 403);
      const wrongToken = await console_.post(url, { watchlist_cap: '900', ...confirmFields(operator, t.clock) }, { csrf: 'x'.repeat(43) });
      assert.equal(wrongToken.statusCode, 403);
      assert.equal(await cap(), null);
      assert.deepEqual(await logged(), []);
    });

    test("a bad value is refused before the confirmation, in the CLI's words (one rule), in English and Turkish", async () => {
      for (const raw of ['-1', 'lots', '1000001', '2.5', '']) {
        const res = await console_.post(url, { watchlist_cap: raw });
        assert.equal(res.statusCode, 400, raw);
        assert.doesNotMatch(res.body, /name="confirm_password"/, 'no confirmation asked for a value that cannot be saved');
        assert.match(
          text(res.body),
          new RegExp(`The watchlist cap must be a whole number from 0 to 1000000, or default; got “${raw.replace('.', '\\.')}”\\.`),
          raw,
        );
        // The CLI's rule gives the same words for the same value.
        const cli = readWatchlistCap('--watchlist-cap', raw);
        assert.ok('problem' in cli && cli.problem === `--watchlist-cap must be a whole number from 0 to 1000000, or default; got '${raw}'`, raw);
      }
      const tr = await console_.post(url, { watchlist_cap: 'lots' }, { headers: { 'accept-language': 'tr' } });
      assert.equal(tr.statusCode, 400);
      assert.equal(await cap(), null);
    });

    test("an operator's change needs the password and a new code, is logged with before and after, and the member's watchlist page shows it", async () => {
      const asked = await console_.post(url, { watchlist_cap: '900' });
      assert.equal(asked.statusCode, 403, 'asks for the confirmation');
      assert.match(asked.body, /name="confirm_password"/);
      assert.match(text(asked.body), /change the member's watchlist cap/);
      assert.match(asked.body, /<input type="hidden" name="watchlist_cap" value="900" \/>/, 'the value is carried on');
      assert.equal(await cap(), null);
      const done = await console_.post(url, { watchlist_cap: '900', ...confirmFields(operator, t.clock) });
      assert.equal(done.statusCode, 303);
      assert.equal(done.headers.location, '/portal/operator/members?done=member.watchlist-cap&target=WC-1');
      assert.equal(Number(await cap()), 900);
      assert.match(text((await console_.get(String(done.headers.location))).body), /Done: watchlist cap changed, WC-1\./);
      assert.deepEqual(await logged(), [
        { actor: 'ops@console.test', target: 'member:WC-1', before_json: '{"watchlist_cap":null}', after_json: '{"watchlist_cap":900}' },
      ]);
      assert.match(text((await memberUser.get('/portal/watchlist')).body), /0 of 900 companies watched\./);
      // default gives the member the server's cap back.
      assert.equal((await console_.post(url, { watchlist_cap: 'default', ...confirmFields(operator, t.clock) })).statusCode, 303);
      assert.equal(await cap(), null);
      assert.match(text((await memberUser.get('/portal/watchlist')).body), /0 of 5 companies watched\./);
    });

    test('a cap below the current count removes nothing; the member adds no more until under it, as with the CLI', async () => {
      const watched = [nextVkn(), nextVkn(), nextVkn()];
      for (const id of watched) assert.equal((await memberUser.post('/portal/watchlist', { country: 'TR', tax_id: id })).statusCode, 200);
      assert.equal((await console_.post(url, { watchlist_cap: '1', ...confirmFields(operator, t.clock) })).statusCode, 303);
      const count = async () => (await db.selectFrom('watchlist').select('tax_id_norm').where('member_id', '=', memberId).execute()).length;
      assert.equal(await count(), 3, 'nothing removed');
      assert.match(text((await console_.get('/portal/operator/members')).body), /3 watched now/);
      const page = await memberUser.get('/portal/watchlist');
      assert.match(text(page.body), /3 of 1 companies watched\./);
      const refused = await memberUser.post('/portal/watchlist', { country: 'TR', tax_id: nextVkn() });
      assert.equal(refused.statusCode, 409);
      assert.match(text(refused.body), /Your watchlist holds 1 companies, its limit: remove one/);
      assert.equal(await count(), 3);
      // Removing is still allowed, and under the cap again the member may add.
      for (const id of watched) assert.equal((await memberUser.post('/portal/watchlist/remove', { country: 'TR', tax_id: id })).statusCode, 200);
      assert.equal((await memberUser.post('/portal/watchlist', { country: 'TR', tax_id: watched[0]! })).statusCode, 200);
    });
  });
}
