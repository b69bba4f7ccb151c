/**
 * The member pages (D28) through the real app, on every engine: each route's happy path, its
 * guards (no session, member_user where member_admin is needed, a user of another member), CSRF
 * on every POST, the agreement opening the API (D17), key regeneration refusing the old key at
 * once, the portal search matching the API and charged and audited, usage and its CSV.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeMember, makeReport } from './helpers/factories.ts';
import { eventually } from './helpers/assertions.ts';
import { makePortalUser, PortalBrowser, signIn, type PortalUser } from './helpers/portal.ts';
import type { Database } from '../src/db/schema.ts';
import { describeLink } from '../src/users/users.service.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { openEngine } from '../src/db/connect.ts';
import type { SearchResponse } from '../src/search/answer-search.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';

const ADMIN_ONLY = [
  ['GET', '/portal/api'],
  ['POST', '/portal/api/key'],
  ['POST', '/portal/api/key/revoke'],
  ['GET', '/portal/users'],
  ['POST', '/portal/users/invite'],
  ['POST', '/portal/users/1/disable'],
  ['POST', '/portal/users/1/link'],
  ['POST', '/portal/agreement/sign'],
] as const;
const EVERY_MEMBER = [
  ['GET', '/portal/agreement'],
  ['GET', '/portal/usage'],
  ['GET', '/portal/usage.csv'],
  ['GET', '/portal/search'],
] as const;
const POSTS = ADMIN_ONLY.filter(([method]) => method === 'POST');

const keyOf = (body: string) => /<code id="new-key"[^>]*>\s*([A-Za-z0-9]{64})\s*<\/code/.exec(body)?.[1];
const ENTITIES: Record<string, string> = { '&#39;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&#96;': '`', '&amp;': '&' };
/** A page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&quot;|&lt;|&gt;|&#96;|&amp;/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, ' ');

for (const engine of ENGINES) {
  describe(`member pages [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    let t: TestApp;
    const users: Record<'adminA' | 'userA' | 'adminB' | 'userB', PortalUser> = {} as never;
    const as: Record<keyof typeof users, PortalBrowser> = {} as never;
    let taxId = '';

    const request = (browser: PortalBrowser | null, method: 'GET' | 'POST', url: string, fields: Record<string, string> = {}) =>
      method === 'GET' ? (browser ?? new PortalBrowser(t.app)).get(url) : (browser ?? new PortalBrowser(t.app)).post(url, fields);

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      t = await makeTestApp(database);
      await makeMember(db, t.clock, { ref: 'M-A', agreementSigned: false });
      await makeMember(db, t.clock, { ref: 'M-B' });
      users.adminA = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-A', email: 'ayse@a.example', name: 'Ayşe Yılmaz' });
      users.userA = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'M-A', email: 'mehmet@a.example', name: 'Mehmet Demir' });
      users.adminB = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-B', email: 'bora@b.example', name: 'Bora Kaya' });
      users.userB = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'M-B', email: 'selin@b.example', name: 'Selin Acar' });
      for (const name of Object.keys(users) as Array<keyof typeof users>) {
        as[name] = await signIn(t.app, users[name]);
        // The pages below are read in English (Turkish is the default without Accept-Language).
        assert.equal((await as[name].post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
      }
      [taxId] = (await makeCompanies(database.engine, t.clock, [
        {
          company_name: 'Karadeniz Nakliyat Ltd. Şti.',
          city: 'Samsun',
          reports: [
            makeReport({ case: { enforcement_office: 'Samsun 3. İcra Dairesi', file_number: '2026/1182', date: '2026-03-02' } }),
            makeReport({ type: 'bounced_cheque' }),
          ],
        },
        {
          company_name: '<script>alert(1)</script> Zehir Kimya',
          city: '<b>Adana</b>',
          reports: [makeReport({ description: 'Borç <script>alert("d")</script> ödenmedi' })],
        },
      ])) as [string];
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('no session: every page goes to sign-in, every action is refused', async () => {
      for (const [method, url] of [...ADMIN_ONLY, ...EVERY_MEMBER]) {
        const res = await request(null, method, url);
        if (method === 'GET') {
          assert.equal(res.statusCode, 303, url);
          assert.match(String(res.headers.location), /^\/portal\/sign-in\?next=/, url);
        } else assert.equal(res.statusCode, 403, url);
      }
    });

    test('a member_user gets 403 on every admin page and action, and no API or Users link', async () => {
      for (const [method, url] of ADMIN_ONLY)
        assert.equal((await request(as.userA, method, url, { accept: 'yes', email: 'x@a.example' })).statusCode, 403, `${method} ${url}`);
      const home = await as.userA.get('/portal/search');
      assert.ok(!home.body.includes('href="/portal/api"') && !home.body.includes('href="/portal/users"'));
      assert.equal((await db.selectFrom('api_keys').select('id').execute()).length, 0);
      assert.equal((await db.selectFrom('agreement_signatures').select('id').execute()).length, 0);
    });

    test("an operator has no member: every member page and action is 403 (the operator's tools are the console's)", async () => {
      const operator = await makePortalUser(db, t.clock, { role: 'operator', email: 'ops@association.example' });
      const browser = await signIn(t.app, operator, t.clock);
      for (const [method, url] of [...ADMIN_ONLY, ...EVERY_MEMBER]) {
        assert.equal((await request(browser, method, url, { accept: 'yes' })).statusCode, 403, `${method} ${url}`);
      }
    });

    test('CSRF: every POST without the token is 403 and changes nothing', async () => {
      for (const [, url] of POSTS) {
        const res = await as.adminA.post(
          url.replace('/1/', `/${users.userA.id}/`),
          { accept: 'yes', email: 'csrf@a.example', role: 'member_user' },
          { csrf: null },
        );
        assert.equal(res.statusCode, 403, url);
      }
      assert.equal((await db.selectFrom('api_keys').select('id').execute()).length, 0);
      assert.equal((await db.selectFrom('agreement_signatures').select('id').execute()).length, 0);
      assert.equal((await db.selectFrom('users').select('id').where('email_norm', '=', 'csrf@a.example').execute()).length, 0);
      assert.equal((await db.selectFrom('users').select('status').where('id', '=', users.userA.id).executeTakeFirstOrThrow()).status, 'active');
    });

    test('before the agreement: the key is refused by the API (D17), and searching is refused with the reason on the page', async () => {
      const generated = await as.adminA.post('/portal/api/key');
      assert.equal(generated.statusCode, 200);
      const key = keyOf(generated.body)!;
      const refused = await search(t.app, key, 'q=Karadeniz+Nakliyat');
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json<{ reason: string }>().reason, 'agreement_unsigned');
      const page = await as.userA.get('/portal/search?q=Karadeniz+Nakliyat');
      assert.equal(page.statusCode, 403);
      assert.match(text(page.body), /data agreement is not signed yet/);
      assert.ok(!page.body.includes('<form method="get" action="/portal/search"'), 'no form while searching is impossible');
    });

    test('agreement: every member user reads it; only the admin signs (user, time, version kept); the API then accepts the key', async () => {
      const read = await as.userA.get('/portal/agreement');
      assert.equal(read.statusCode, 200);
      assert.match(text(read.body), /Risk Database Data-Use Agreement/);
      assert.match(text(read.body), /Only your member's admin can sign/);
      assert.ok(!read.body.includes('action="/portal/agreement/sign"'));

      const unticked = await as.adminA.post('/portal/agreement/sign', {});
      assert.equal(unticked.statusCode, 400);
      assert.match(text(unticked.body), /Tick the box/);
      const signed = await as.adminA.post('/portal/agreement/sign', { accept: 'yes' });
      assert.equal(signed.statusCode, 303);
      assert.equal(signed.headers.location, '/portal/agreement?signed=1');
      const after = await as.adminA.get('/portal/agreement?signed=1');
      assert.match(text(after.body), /Signed on 2026-11-21 by Ayşe Yılmaz \(version 2026-11\)/);
      const rows = await db.selectFrom('agreement_signatures').selectAll().execute();
      assert.deepEqual(
        rows.map((r) => [Number(r.user_id), r.version, Number(r.signed_at)]),
        [[users.adminA.id, '2026-11', t.clock.now()]],
      );

      const key = keyOf((await as.adminA.post('/portal/api/key')).body)!;
      assert.equal((await search(t.app, key, 'q=Karadeniz+Nakliyat')).statusCode, 200);
    });

    test("API page: prefix, created, last use, limit, today's use; regenerate refuses the old key at once; revoke; the key is never stored, logged or cached", async () => {
      const page = await as.adminA.get('/portal/api');
      assert.equal(page.statusCode, 200);
      // The API section links the reference (issue 14), and the page is served.
      const docsLink = /<a href="([^"]+)">[^<]*<\/a><\/p>/.exec(page.body.slice(page.body.indexOf('<main')))?.[1];
      assert.equal(docsLink, '/api/v1/docs');
      assert.equal((await t.app.inject({ method: 'GET', url: docsLink })).statusCode, 200);
      const active = await db.selectFrom('api_keys').selectAll().where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      const body = text(page.body);
      assert.match(body, new RegExp(`Key ${active.prefix}…`));
      assert.match(body, /Created 2026-11-21 12:00/);
      assert.match(body, /Last used 2026-11-21/);
      assert.match(body, /Daily limit 100/);
      assert.match(body, /Used today 1 \/ 100/);
      assert.equal(keyOf(page.body), undefined, 'no key on the page after the one response');

      const first = await as.adminA.post('/portal/api/key');
      const oldKey = keyOf(first.body)!;
      const second = await as.adminA.post('/portal/api/key');
      assert.equal(second.headers['cache-control'], 'no-store');
      const newKey = keyOf(second.body)!;
      assert.match(text(second.body), /The previous key is revoked/);
      assert.match(
        second.body,
        new RegExp(`curl -H &#39;X-API-Key: ${newKey}&#39; &#39;http://127\\.0\\.0\\.1:8080/api/v1/search\\?q=Example\\+Lojistik&#39;`),
      );
      assert.match(second.body, /data-copy-target="new-key"/);
      const old = await search(t.app, oldKey, 'q=Karadeniz+Nakliyat');
      assert.equal(old.statusCode, 403);
      assert.equal(old.json<{ reason: string }>().reason, 'key_revoked');
      assert.equal((await search(t.app, newKey, 'q=Karadeniz+Nakliyat')).statusCode, 200);

      const revoked = await as.adminA.post('/portal/api/key/revoke');
      assert.equal(revoked.statusCode, 303);
      assert.match(text((await as.adminA.get('/portal/api?revoked=1')).body), /The key is revoked[\s\S]*has no active key/);
      assert.equal((await search(t.app, newKey, 'q=Karadeniz+Nakliyat')).statusCode, 403);

      const stored =
        JSON.stringify(await db.selectFrom('api_keys').selectAll().execute()) + JSON.stringify(await db.selectFrom('audit_log').selectAll().execute());
      for (const key of [oldKey, newKey]) {
        assert.ok(!stored.includes(key), 'a key in the database');
        assert.ok(!t.logs.join('').includes(key), 'a key in the logs');
      }
      // Back to a working key for the tests below.
      const again = keyOf((await as.adminA.post('/portal/api/key')).body)!;
      assert.equal((await search(t.app, again, 'q=Karadeniz+Nakliyat')).statusCode, 200);
    });

    test('a key regenerated on one server is refused by another server on the same database at once (no key cache, D17)', async () => {
      const other = openEngine(database.url);
      const second = await buildApp({ keyRing: TEST_KEY_RING, config: parseConfig({ databaseUrl: database.url }, {}), engine: other, clock: t.clock });
      try {
        const oldKey = keyOf((await as.adminA.post('/portal/api/key')).body)!;
        assert.equal((await search(second, oldKey, 'q=Karadeniz+Nakliyat')).statusCode, 200);
        const newKey = keyOf((await as.adminA.post('/portal/api/key')).body)!;
        const refused = await search(second, oldKey, 'q=Karadeniz+Nakliyat');
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json<{ reason: string }>().reason, 'key_revoked');
        assert.equal((await search(second, newKey, 'q=Karadeniz+Nakliyat')).statusCode, 200);
      } finally {
        await second.close();
        await other.close();
      }
    });

    test("another member's admin sees and changes only its own key", async () => {
      const aKey = await db.selectFrom('api_keys').select(['id', 'prefix']).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      const page = await as.adminB.get('/portal/api');
      assert.ok(!page.body.includes(aKey.prefix));
      assert.match(text(page.body), /has no active key/);
      await as.adminB.post('/portal/api/key');
      await as.adminB.post('/portal/api/key/revoke');
      const still = await db.selectFrom('api_keys').select('revoked_at').where('id', '=', aKey.id).executeTakeFirstOrThrow();
      assert.equal(still.revoked_at, null);
    });

    test('search: the same answer as the API, rendered for people, escaped, charged to the user and audited with channel portal', async () => {
      const apiKey = keyOf((await as.adminA.post('/portal/api/key')).body)!;
      const apiAnswer = (await search(t.app, apiKey, 'q=Karadeniz+Nakliyat')).json<SearchResponse>();
      const page = await as.userA.get('/portal/search?q=Karadeniz+Nakliyat');
      assert.equal(page.statusCode, 200);
      assert.equal(page.headers['cache-control'], 'no-store');
      const body = text(page.body);
      const company = apiAnswer.results[0]!;
      assert.match(body, /1 company found for “Karadeniz Nakliyat”/);
      assert.ok(body.includes(company.company_name));
      assert.ok(body.includes(`TR ${company.tax_id}`));
      assert.match(body, new RegExp(`Threat level ${company.threat_level === 'high' ? 'High' : 'Normal'} Reports ${company.report_count}`));
      for (const report of company.reports) assert.ok(body.includes(report.type) && body.includes(report.filed_at), report.type);
      assert.match(body, /Enforcement office Samsun 3\. İcra Dairesi File number 2026\/1182/);
      assert.match(body, /99 of 100 searches left today/);

      const escaped = await as.userA.get('/portal/search?q=Zehir+Kimya');
      assert.ok(escaped.body.includes('&lt;script&gt;alert(1)&lt;/script&gt; Zehir Kimya'));
      assert.ok(!escaped.body.includes('<script>alert(1)'));
      assert.ok(escaped.body.includes('&lt;b&gt;Adana&lt;/b&gt;'));
      // A report's description is shown as text too.
      assert.ok(escaped.body.includes('Borç &lt;script&gt;alert(&quot;d&quot;)&lt;/script&gt; ödenmedi'), escaped.body);
      assert.ok(!escaped.body.includes('<script>alert("d")'));

      await eventually(async () => {
        const rows = await db.selectFrom('audit_log').selectAll().where('channel', '=', 'portal').where('user_id', '=', users.userA.id).orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => [r.q, r.status, r.result_count, Number(r.member_id), r.key_id]),
          [
            [
              'Karadeniz Nakliyat',
              403,
              null,
              Number((await db.selectFrom('members').select('id').where('ref', '=', 'M-A').executeTakeFirstOrThrow()).id),
              null,
            ],
            ['Karadeniz Nakliyat', 200, 1, rows[0] ? Number(rows[0].member_id) : 0, null],
            ['Zehir Kimya', 200, 1, rows[0] ? Number(rows[0].member_id) : 0, null],
          ],
        );
        // The API's record of the search just before went into the same batch, and was kept.
        const apiRows = await db.selectFrom('audit_log').select(['channel', 'user_id']).where('key_id', 'is not', null).where('status', '=', 200).execute();
        assert.ok(apiRows.length >= 4 && apiRows.every((r) => r.channel === 'api' && r.user_id === null));
      });
    });

    test('search: a misspelt name shows near matches with a tax-ID link to confirm; 400 reasons in words; the form is a GET', async () => {
      const near = await as.userA.get('/portal/search?q=Karadenz+Nakliyat&country=TR');
      assert.equal(near.statusCode, 200);
      assert.match(
        text(near.body),
        /No company matched “Karadenz Nakliyat”\. Close names: .* Karadeniz Nakliyat Ltd\. Şti\. — Samsun, TR \d+ · Threat level: Normal · Reports: 2 · similarity 0\.\d\d · Search by this tax ID/,
      );
      assert.match(text(near.body), /confirm it with a tax-ID search/);
      assert.ok(near.body.includes(`href="/portal/search?q=${taxId}&amp;type=tax_id&amp;country=TR"`));
      assert.match(near.body, /<form method="get" action="\/portal\/search"/);

      const short = await as.userA.get('/portal/search?q=ab');
      assert.equal(short.statusCode, 400);
      assert.match(text(short.body), /enter 3 to 100 characters/);
      const badId = await as.userA.get('/portal/search?q=12345&type=tax_id&country=TR');
      assert.equal(badId.statusCode, 400);
      assert.match(text(badId.body), /not a valid tax ID for the chosen country/);
      const generic = await as.userA.get('/portal/search?q=Ltd+Şti');
      assert.equal(generic.statusCode, 400);
      assert.match(text(generic.body), /too general/);
      const twice = await as.userA.get('/portal/search?q=Karadeniz&q=Ege');
      assert.equal(twice.statusCode, 400);
      // The portal's one query parser (issue 27, finding 9) refuses it before the search runs.
      assert.match(text(twice.body), /The parameter “q” is given more than once/);
      const keyInUrl = await as.userA.get('/portal/search?q=Karadeniz&api_key=abc');
      assert.equal(keyInUrl.statusCode, 400);
      assert.match(text(keyInUrl.body), /Do not type an API key into the search/);
      const tr = await as.userA.get('/portal/search?q=ab', { 'accept-language': 'tr' });
      assert.ok(tr.statusCode === 400);
    });

    test("the 101st portal search of the user's day is refused with a clear message; the API key's quota is its own", async () => {
      const subject = `user:${users.userB.id}`;
      await db.insertInto('usage_counters').values({ subject, day: '2026-11-21', used: 99 }).execute();
      const hundredth = await as.userB.get('/portal/search?q=Karadeniz+Nakliyat');
      assert.equal(hundredth.statusCode, 200);
      assert.match(text(hundredth.body), /0 of 100 searches left today/);
      assert.equal(hundredth.headers['x-ratelimit-limit'], '100');
      assert.equal(hundredth.headers['x-ratelimit-remaining'], '0');
      const refused = await as.userB.get('/portal/search?q=Karadeniz+Nakliyat');
      assert.equal(refused.statusCode, 429);
      assert.match(text(refused.body), /You have used all 100 of your portal searches for today\. They reset at midnight Turkey time\./);
      const used = await db.selectFrom('usage_counters').select('used').where('subject', '=', subject).executeTakeFirstOrThrow();
      assert.equal(Number(used.used), 100);
      // Another user of the same member still searches.
      assert.equal((await as.adminB.get('/portal/search?q=Karadeniz+Nakliyat')).statusCode, 200);
    });

    test("usage: the chart and table show the member's API and portal searches apart; the CSV has the same numbers; another member sees its own", async () => {
      const page = await as.userA.get('/portal/usage');
      assert.equal(page.statusCode, 200);
      // M-A's answers today. API: 1 after signing, 1 with the regenerated key (the old key's 403
      // is not counted), 1 with the key after the revocation, 2 on the second server, 1 in the
      // search test. Portal: userA's three 200s (the 403 before
      // the agreement and the 400s do not count).
      const today = /<th scope="row">2026-11-21<\/th>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>/.exec(page.body);
      assert.deepEqual(today?.slice(1), ['6', '3']);
      assert.match(page.body, /<title>2026-11-21 API: 6<\/title>/);
      assert.match(page.body, /<title>2026-11-21 Portal: 3<\/title>/);
      assert.equal([...page.body.matchAll(/<th scope="row">\d{4}-\d{2}-\d{2}<\/th>/g)].length, 30);

      const csv = await as.userA.get('/portal/usage.csv');
      assert.equal(csv.statusCode, 200);
      assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(csv.headers['content-disposition'], 'attachment; filename="usage-M-A-2026-11-21.csv"');
      const lines = csv.body.split('\r\n');
      assert.equal(lines[0], 'day,api,portal');
      assert.equal(lines.length, 32);
      assert.equal(lines[1], '2026-10-23,0,0');
      assert.equal(lines[30], '2026-11-21,6,3');
      assert.equal(lines[31], '');

      const other = await as.userB.get('/portal/usage.csv');
      assert.match(other.body.split('\r\n')[30]!, /^2026-11-21,0,101$/);
    });

    test("users: the admin lists its member's users only, invites (the link is shown once and works), disables its own member's user (signed out at once), never another member's", async () => {
      const list = await as.adminA.get('/portal/users');
      assert.equal(list.statusCode, 200);
      assert.ok(list.body.includes('mehmet@a.example') && list.body.includes('ayse@a.example'));
      assert.ok(!list.body.includes('@b.example'));

      const invited = await as.adminA.post('/portal/users/invite', { email: 'zeynep@a.example', role: 'member_user' });
      assert.equal(invited.statusCode, 200);
      assert.equal(invited.headers['cache-control'], 'no-store');
      const link = /<code id="invite-link"[^>]*>\s*([^<\s]+)\s*<\/code/.exec(invited.body)?.[1];
      assert.ok(link);
      const token = new URL(link.replaceAll('&amp;', '&')).searchParams.get('token')!;
      assert.deepEqual(await describeLink(db, t.clock, token), { purpose: 'invite', email: 'zeynep@a.example', name: '', role: 'member_user' });
      const row = await db.selectFrom('users').select(['member_id', 'role']).where('email_norm', '=', 'zeynep@a.example').executeTakeFirstOrThrow();
      assert.equal(row.role, 'member_user');
      const bad = await as.adminA.post('/portal/users/invite', { email: 'not-an-email', role: 'member_user' });
      assert.equal(bad.statusCode, 400);
      assert.match(text(bad.body), /Enter a valid email address/);

      // A new link for a colleague who lost theirs: an invitation while never accepted.
      const zeynep = await db.selectFrom('users').select('id').where('email_norm', '=', 'zeynep@a.example').executeTakeFirstOrThrow();
      const again = await as.adminA.post(`/portal/users/${zeynep.id}/link`);
      assert.equal(again.statusCode, 200);
      assert.match(text(again.body), /Invitation link for zeynep@a\.example/);
      assert.equal(await describeLink(db, t.clock, token), null, 'the earlier link is retired');
      // An active colleague's password reset is the operator's: no link for the admin.
      const reset = await as.adminA.post(`/portal/users/${users.userA.id}/link`);
      assert.equal(reset.statusCode, 409);
      assert.match(text(reset.body), /A password reset must come from the service operator/);
      assert.equal((await as.adminA.post(`/portal/users/${users.userB.id}/link`)).statusCode, 404);

      // Another member's user: 404, untouched.
      const cross = await as.adminA.post(`/portal/users/${users.userB.id}/disable`);
      assert.equal(cross.statusCode, 404);
      assert.equal((await db.selectFrom('users').select('status').where('id', '=', users.userB.id).executeTakeFirstOrThrow()).status, 'active');
      assert.equal((await as.adminA.post(`/portal/users/${users.adminA.id}/disable`)).statusCode, 409);

      const disabled = await as.adminA.post(`/portal/users/${users.userA.id}/disable`);
      assert.equal(disabled.statusCode, 303);
      assert.match(text((await as.adminA.get(String(disabled.headers.location))).body), /Mehmet Demir is disabled and signed out everywhere/);
      const gone = await as.userA.get('/portal/search');
      assert.equal(gone.statusCode, 303, 'the disabled user is signed out');
    });

    test('a search from a link on another site, or a HEAD, is shown but not run, charged or audited; a pasted key is not written back', async () => {
      const subject = `user:${users.adminA.id}`;
      const usedNow = async () => Number((await db.selectFrom('usage_counters').select('used').where('subject', '=', subject).executeTakeFirst())?.used ?? 0);
      const before = await usedNow();
      const crossSite = await as.adminA.get('/portal/search?q=Karadeniz+Nakliyat', { 'sec-fetch-site': 'cross-site' });
      assert.equal(crossSite.statusCode, 200);
      assert.match(text(crossSite.body), /came from a link on another site, so it has not been run or counted/);
      assert.ok(crossSite.body.includes('value="Karadeniz Nakliyat"'), 'the form is filled in, to be submitted');
      assert.doesNotMatch(text(crossSite.body), /company found/);
      const head = await as.adminA.head('/portal/search?q=Karadeniz+Nakliyat');
      assert.equal(head.statusCode, 200);
      assert.equal(await usedNow(), before, 'neither was charged');
      const own = await as.adminA.get('/portal/search?q=Karadeniz+Nakliyat', { 'sec-fetch-site': 'same-origin' });
      assert.match(text(own.body), /company found/);
      assert.equal(await usedNow(), before + 1, 'a search from our own form runs');

      const issued = keyOf((await as.adminA.post('/portal/api/key')).body)!;
      for (const pasted of [issued, `${issued.slice(0, 30)} ${issued.slice(30)}`]) {
        const page = await as.adminA.get(`/portal/search?q=${encodeURIComponent(pasted)}`);
        assert.equal(page.statusCode, 400);
        assert.ok(!page.body.includes(issued.slice(0, 30)) && !page.body.includes(issued.slice(30)), 'no part of the key on the page');
      }
    });
  });
}
