/**
 * The member's watchlist in the portal (D31) through the real app, on every engine: the Watch
 * button on a search result adds the company and the result then says "Watching"; the add form
 * refuses a mistyped tax ID and the cap with words; remove; paging; Turkish and English. The page
 * shows country, tax ID and time only: a company with reports and one without look the same.
 * Without a session, without the CSRF token, as an operator, as another member's admin (IDOR):
 * refused, nothing changed.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { makePortalUser, PortalBrowser, signIn } from './helpers/portal.ts';
import type { Database } from '../src/db/schema.ts';

const ENTITIES: Record<string, string> = { '&#39;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&#96;': '`', '&amp;': '&' };
/** A page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&quot;|&lt;|&gt;|&#96;|&amp;/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, ' ');
/** The main part of a page (without the navigation and footer). */
const main = (body: string) => /<main[\s\S]*<\/main>/.exec(body)?.[0] ?? body;

for (const engine of ENGINES) {
  describe(`member watchlist page [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    let t: TestApp;
    let adminA: PortalBrowser;
    let userA: PortalBrowser;
    let adminB: PortalBrowser;
    let operator: PortalBrowser;
    let memberA = 0;
    let reported = '';
    let unreported = '';

    const watchesOf = (memberId: number) =>
      db.selectFrom('watchlist').select(['country', 'tax_id_norm']).where('member_id', '=', memberId).orderBy('tax_id_norm').execute();
    const snapshot = async () => JSON.stringify(await db.selectFrom('watchlist').selectAll().orderBy('member_id').orderBy('tax_id_norm').execute());

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      t = await makeTestApp(database, { watchlistCap: 3 });
      await makeMember(db, t.clock, { ref: 'WL-A' });
      await makeMember(db, t.clock, { ref: 'WL-B' });
      memberA = Number((await db.selectFrom('members').select('id').where('ref', '=', 'WL-A').executeTakeFirstOrThrow()).id);
      const sign = async (spec: Parameters<typeof makePortalUser>[2]) => {
        const browser = await signIn(t.app, await makePortalUser(db, t.clock, spec), t.clock);
        assert.equal((await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
        return browser;
      };
      adminA = await sign({ role: 'member_admin', memberRef: 'WL-A', email: 'admin@a.example' });
      userA = await sign({ role: 'member_user', memberRef: 'WL-A', email: 'user@a.example' });
      adminB = await sign({ role: 'member_admin', memberRef: 'WL-B', email: 'admin@b.example' });
      operator = await sign({ role: 'operator', email: 'ops@association.example' });
      [reported] = (await makeCompanies(database.engine, t.clock, [
        { company_name: 'Karadeniz Nakliyat Ltd. Şti.', city: 'Samsun', reports: [makeReport(), makeReport({ type: 'bounced_cheque' })] },
      ])) as [string];
      unreported = nextVkn();
    });
    beforeEach(async () => {
      await db.deleteFrom('watchlist').execute();
      await db.deleteFrom('watched_companies').execute();
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('Watch on a search result adds the company; the result then says Watching; the list shows it without risk data', async () => {
      const search = await userA.get('/portal/search?q=Karadeniz+Nakliyat');
      assert.equal(search.statusCode, 200);
      assert.match(text(search.body), /Watch/);
      assert.ok(search.body.includes(`name="tax_id" value="${reported}"`), 'the Watch form carries the tax ID');
      const added = await userA.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      assert.equal(added.statusCode, 200, text(added.body).slice(0, 500));
      assert.match(text(added.body), new RegExp(`TR ${reported} is now on the watchlist\\.`));
      assert.match(text(added.body), /1 of 3 companies watched\./);
      assert.deepEqual(await watchesOf(memberA), [{ country: 'TR', tax_id_norm: reported }]);
      const again = await userA.get('/portal/search?q=Karadeniz+Nakliyat');
      assert.match(text(again.body), /Watching/);
      assert.ok(!again.body.includes(`name="tax_id" value="${reported}"`), 'no second Watch button');
      // Adding twice is no error and no second row.
      assert.match(text((await adminA.post('/portal/watchlist', { country: 'TR', tax_id: reported })).body), /was already on the watchlist/);
      assert.equal((await watchesOf(memberA)).length, 1);
    });

    test('a near match has a Watch button too, carrying only the country and tax ID its line shows; then it says Watching', async () => {
      const search = await userA.get('/portal/search?q=Karadenix+Nakliyat');
      assert.equal(search.statusCode, 200);
      const near = /<section class="near"[\s\S]*?<\/section>/.exec(search.body)?.[0];
      assert.ok(near, 'the misspelt name has near matches');
      assert.match(text(near), new RegExp(`Karadeniz Nakliyat Ltd\\. Şti\\. — Samsun, TR ${reported}`));
      const form = /<form method="post" action="\/portal\/watchlist" class="watch-form">[\s\S]*?<\/form>/.exec(near)?.[0];
      assert.ok(form, 'a Watch form in the near match');
      const fields = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(
        fields.filter(([name]) => name !== '_csrf'),
        [
          ['country', 'TR'],
          ['tax_id', reported],
        ],
        'nothing but what the line shows',
      );
      const added = await userA.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      assert.equal(added.statusCode, 200);
      assert.deepEqual(await watchesOf(memberA), [{ country: 'TR', tax_id_norm: reported }]);
      const again = await userA.get('/portal/search?q=Karadenix+Nakliyat');
      const nearAgain = /<section class="near"[\s\S]*?<\/section>/.exec(again.body)?.[0] ?? '';
      assert.match(text(nearAgain), /Watching/);
      assert.ok(!nearAgain.includes('class="watch-form"'), 'no second Watch button');
    });

    test('nothing on the page tells a company with reports from one without', async () => {
      await adminA.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      const page = await adminA.post('/portal/watchlist', { country: 'TR', tax_id: unreported });
      assert.equal(page.statusCode, 200);
      const shown = text(main(page.body));
      for (const word of ['Karadeniz', 'Samsun', 'threat', 'Threat', 'Reports', 'report count', 'High', 'Normal', 'unpaid', 'cheque']) {
        assert.ok(!shown.includes(word), `the page does not say "${word}"`);
      }
      // The two rows are the same shape: country, tax ID, time, remove.
      const rows = [...main(page.body).matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((m) => m[0]).slice(1);
      assert.equal(rows.length, 2);
      const shape = (r: string) => r.replaceAll(reported, 'X').replaceAll(unreported, 'X');
      assert.equal(shape(rows[0]!), shape(rows[1]!));
    });

    test('a mistyped tax ID and an unknown country are refused with words, the form kept; nothing added', async () => {
      const wrongDigit = reported.slice(0, 9) + String((Number(reported[9]) + 1) % 10);
      const res = await adminA.post('/portal/watchlist', { country: 'TR', tax_id: wrongDigit });
      assert.equal(res.statusCode, 400);
      assert.match(text(res.body), /tax ID|check digit/i);
      assert.ok(res.body.includes(`value="${wrongDigit}"`), 'the typed tax ID is kept');
      const country = await adminA.post('/portal/watchlist', { country: 'ZZ', tax_id: reported });
      assert.equal(country.statusCode, 400);
      assert.match(text(country.body), /country ZZ is not supported/);
      const tr = await adminA.post('/portal/locale', { locale: 'tr', return_to: '/portal/watchlist' });
      assert.equal(tr.statusCode, 303);
      const turkish = await adminA.post('/portal/watchlist', { country: 'TR', tax_id: '123' });
      assert.equal(turkish.statusCode, 400);
      assert.match(text(turkish.body), /İzleme listesi/);
      assert.match(text(turkish.body), /vergi numara/i);
      assert.equal((await adminA.post('/portal/locale', { locale: 'en', return_to: '/portal/watchlist' })).statusCode, 303);
      assert.deepEqual(await watchesOf(memberA), []);
    });

    test('the cap: shown as "n of cap", the fourth add refused with words, the form gone at the cap', async () => {
      const ids = [reported, unreported, nextVkn()];
      for (const id of ids) assert.equal((await userA.post('/portal/watchlist', { country: 'TR', tax_id: id })).statusCode, 200);
      const full = await userA.get('/portal/watchlist');
      assert.match(text(full.body), /3 of 3 companies watched\./);
      assert.match(text(full.body), /at its cap of 3/);
      assert.ok(!full.body.includes('id="watch-tax-id"'), 'no add form at the cap');
      const fourth = nextVkn();
      const refused = await userA.post('/portal/watchlist', { country: 'TR', tax_id: fourth });
      assert.equal(refused.statusCode, 409);
      assert.match(text(refused.body), /Your watchlist holds 3 companies, its limit: remove one/);
      assert.equal((await watchesOf(memberA)).length, 3);
    });

    test('remove: a member_user removes; removing what is not on the list says so', async () => {
      await adminA.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      const removed = await userA.post('/portal/watchlist/remove', { country: 'TR', tax_id: reported });
      assert.equal(removed.statusCode, 200);
      assert.match(text(removed.body), new RegExp(`TR ${reported} is no longer watched\\.`));
      assert.match(text(removed.body), /0 of 3 companies watched\./);
      assert.deepEqual(await watchesOf(memberA), []);
      assert.match(text((await userA.post('/portal/watchlist/remove', { country: 'TR', tax_id: reported })).body), /was not on the watchlist/);
    });

    test('paging: 50 a page, a next link, a cursor not of the list is a 400 with the first page', async () => {
      await db.updateTable('members').set({ watchlist_cap: 60 }).where('id', '=', memberA).execute();
      try {
        for (let i = 0; i < 55; i++)
          await db.insertInto('watchlist').values({ member_id: memberA, country: 'TR', tax_id_norm: nextVkn(), created_at: t.clock.now() }).execute();
        const first = await adminA.get('/portal/watchlist');
        assert.match(text(first.body), /55 of 60 companies watched\./);
        assert.equal([...main(first.body).matchAll(/<tr>/g)].length, 51);
        const next = /href="(\/portal\/watchlist\?after=[^"]+)"/.exec(first.body)?.[1];
        assert.ok(next);
        const second = await adminA.get(next.replaceAll('&amp;', '&'));
        assert.equal([...main(second.body).matchAll(/<tr>/g)].length, 6);
        assert.match(text(second.body), /First page/);
        const bad = await adminA.get('/portal/watchlist?after=bm90LWEtY3Vyc29y');
        assert.equal(bad.statusCode, 400);
        assert.match(text(bad.body), /not a cursor of this list/);
      } finally {
        await db.updateTable('members').set({ watchlist_cap: null }).where('id', '=', memberA).execute();
      }
    });

    test('another member: B never sees A’s list, and B’s remove of A’s company changes nothing of A’s', async () => {
      await adminA.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      const before = await snapshot();
      const seen = await adminB.get('/portal/watchlist');
      assert.equal(seen.statusCode, 200);
      assert.ok(!seen.body.includes(reported), 'B does not see A’s entry');
      assert.match(text(seen.body), /0 of 3 companies watched\./);
      assert.match(text((await adminB.post('/portal/watchlist/remove', { country: 'TR', tax_id: reported })).body), /was not on the watchlist/);
      assert.equal(await snapshot(), before);
      // B adding the same company makes B’s own entry and tells B nothing of A’s.
      const added = await adminB.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      assert.match(text(added.body), /is now on the watchlist/);
    });

    // Last: the suspended member's sessions end.
    test('no session, no CSRF token, an operator, a suspended member: refused, nothing changed', async () => {
      await adminA.post('/portal/watchlist', { country: 'TR', tax_id: reported });
      const before = await snapshot();
      const nobody = new PortalBrowser(t.app);
      const page = await nobody.get('/portal/watchlist');
      assert.equal(page.statusCode, 303);
      assert.match(String(page.headers.location), /^\/portal\/sign-in\?next=/);
      for (const url of ['/portal/watchlist', '/portal/watchlist/remove']) {
        assert.equal((await nobody.post(url, { country: 'TR', tax_id: unreported })).statusCode, 403, url);
        assert.equal((await adminA.post(url, { country: 'TR', tax_id: unreported }, { csrf: null })).statusCode, 403, url);
        assert.equal((await operator.post(url, { country: 'TR', tax_id: unreported })).statusCode, 403, url);
      }
      assert.equal((await operator.get('/portal/watchlist')).statusCode, 403);
      assert.ok(!(await operator.get('/portal/operator/')).body.includes('href="/portal/watchlist"'), 'no nav entry for operators');
      assert.ok((await userA.get('/portal/search')).body.includes('href="/portal/watchlist"'), 'a nav entry for members');
      await db.updateTable('members').set({ status: 'suspended' }).where('id', '=', memberA).execute();
      try {
        // A suspended member's sessions end on the next request: to sign-in, nothing shown, nothing added.
        const paused = await userA.get('/portal/watchlist');
        assert.equal(paused.statusCode, 303);
        assert.match(String(paused.headers.location), /^\/portal\/sign-in/);
        assert.ok(!paused.body.includes(reported));
        assert.equal((await adminA.post('/portal/watchlist', { country: 'TR', tax_id: unreported })).statusCode, 403);
      } finally {
        await db.updateTable('members').set({ status: 'active' }).where('id', '=', memberA).execute();
      }
      assert.equal(await snapshot(), before);
    });
  });
}
