/**
 * The member's webhook pages (D32) through the real app, on every engine: the member_admin
 * registers (the secret shown once, stored only sealed, never logged), is refused with words
 * for a bad address, a private or metadata address (SSRF: which address and why) and the cap of
 * 3, rotates (the old secret valid 24 h, said on the page), sees a disabled endpoint's reason,
 * enables, sends a test event, pages through deliveries, redelivers, deletes. Every route without
 * a session, as a member_user, as an operator, without the CSRF token, and as another member's
 * admin on every id (IDOR): refused, nothing changed.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, NOON_TR, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { makePortalUser, PortalBrowser, signIn } from './helpers/portal.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';
import type { Database } from '../src/db/schema.ts';
import { openColumn, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '../src/secrets/secret-columns.ts';
import { decideAfterAttempt, MAX_ATTEMPTS } from '../src/webhooks/delivery-rules.ts';
import { disableEndpoint } from '../src/webhooks/endpoints.repository.ts';
import { insertDeliveries } from '../src/webhooks/deliveries.repository.ts';
import { MANUAL_SENDS_PER_DAY } from '../src/webhooks/webhook-deliveries.service.ts';

const ENTITIES: Record<string, string> = { '&#39;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&#96;': '`', '&amp;': '&' };
/** A page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&quot;|&lt;|&gt;|&#96;|&amp;/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, ' ');
const secretOf = (body: string) => /<code id="webhook-secret"[^>]*>\s*(whsec_[A-Za-z0-9+/=]+)\s*<\/code/.exec(body)?.[1];
const HOUR = 3600_000;

for (const engine of ENGINES) {
  describe(`member webhook pages [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    let t: TestApp;
    let adminA: PortalBrowser;
    let userA: PortalBrowser;
    let adminB: PortalBrowser;
    let operator: PortalBrowser;
    let memberA = 0;
    const shownSecrets: string[] = [];

    const endpointsOf = (memberId: number) => db.selectFrom('webhook_endpoints').selectAll().where('member_id', '=', memberId).orderBy('id').execute();
    const opened = async (id: number) => {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return [
        openColumn(TEST_KEY_RING, WEBHOOK_SECRET, id, row.secret_sealed),
        row.previous_secret_sealed === null ? null : openColumn(TEST_KEY_RING, WEBHOOK_PREVIOUS_SECRET, id, row.previous_secret_sealed),
      ];
    };
    /** Registers through the page; the shown secret. */
    const register = async (browser: PortalBrowser, url: string, description = '') => {
      const res = await browser.post('/portal/webhooks', { url, description });
      assert.equal(res.statusCode, 200, text(res.body).slice(0, 600));
      const secret = secretOf(res.body);
      assert.ok(secret, 'the secret is on the page');
      shownSecrets.push(secret);
      return { res, secret };
    };

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      t = await makeTestApp(database);
      await makeMember(db, t.clock, { ref: 'WH-A' });
      await makeMember(db, t.clock, { ref: 'WH-B' });
      memberA = Number((await db.selectFrom('members').select('id').where('ref', '=', 'WH-A').executeTakeFirstOrThrow()).id);
      const sign = async (spec: Parameters<typeof makePortalUser>[2]) => {
        const browser = await signIn(t.app, await makePortalUser(db, t.clock, spec), t.clock);
        assert.equal((await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
        return browser;
      };
      adminA = await sign({ role: 'member_admin', memberRef: 'WH-A', email: 'admin@a.example' });
      userA = await sign({ role: 'member_user', memberRef: 'WH-A', email: 'user@a.example' });
      adminB = await sign({ role: 'member_admin', memberRef: 'WH-B', email: 'admin@b.example' });
      operator = await sign({ role: 'operator', email: 'ops@association.example' });
    });
    beforeEach(async () => {
      await db.deleteFrom('webhook_deliveries').execute();
      await db.deleteFrom('webhook_endpoints').execute();
      await db.deleteFrom('usage_counters').where('subject', 'like', 'webhook_manual:%').execute();
      await db.deleteFrom('usage_counters').where('subject', 'like', 'webhook_refused:%').execute();
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    /** Every webhook route with an id of A's (an endpoint, a delivery). */
    async function routesOnA() {
      await register(adminA, 'https://1.1.1.1/hooks/a');
      const [endpoint] = await endpointsOf(memberA);
      const sent = await adminA.post(`/portal/webhooks/${endpoint!.id}/test`);
      assert.equal(sent.statusCode, 303);
      const delivery = await db.selectFrom('webhook_deliveries').select('id').executeTakeFirstOrThrow();
      const e = endpoint!.id;
      const d = Number(delivery.id);
      return {
        endpoint: endpoint!,
        gets: ['/portal/webhooks', `/portal/webhooks/${e}/deliveries`],
        posts: [
          '/portal/webhooks',
          `/portal/webhooks/${e}/rotate`,
          `/portal/webhooks/${e}/enable`,
          `/portal/webhooks/${e}/delete`,
          `/portal/webhooks/${e}/test`,
          `/portal/webhooks/deliveries/${d}/redeliver`,
        ],
      };
    }

    /** What a refused request must have left as it was. */
    async function snapshot() {
      const endpoints = await db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();
      const deliveries = await db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
      return JSON.stringify({ endpoints, deliveries });
    }

    test('no session: the pages go to sign-in, every action is 403, nothing changes', async () => {
      const { gets, posts } = await routesOnA();
      const before = await snapshot();
      const nobody = new PortalBrowser(t.app);
      for (const url of gets) {
        const res = await nobody.get(url);
        assert.equal(res.statusCode, 303, url);
        assert.match(String(res.headers.location), /^\/portal\/sign-in\?next=/);
      }
      for (const url of posts) assert.equal((await nobody.post(url, { url: 'https://8.8.8.8/x' })).statusCode, 403, url);
      assert.equal(await snapshot(), before);
    });

    test('a member_user of the same member and an operator: 403 on every page and action, no Webhooks link, nothing changes', async () => {
      const { gets, posts } = await routesOnA();
      const before = await snapshot();
      for (const browser of [userA, operator]) {
        for (const url of gets) assert.equal((await browser.get(url)).statusCode, 403, url);
        for (const url of posts) assert.equal((await browser.post(url, { url: 'https://8.8.8.8/x' })).statusCode, 403, url);
      }
      assert.doesNotMatch((await userA.get('/portal/')).body, /href="\/portal\/webhooks"/);
      assert.match((await adminA.get('/portal/')).body, /href="\/portal\/webhooks"/);
      assert.equal(await snapshot(), before);
    });

    test("another member's admin: every id of A's is 404, like one that does not exist; nothing changes, nothing of A's is shown", async () => {
      const { endpoint, gets, posts } = await routesOnA();
      const before = await snapshot();
      for (const url of [...gets.slice(1)]) {
        const res = await adminB.get(url);
        assert.equal(res.statusCode, 404, url);
        assert.doesNotMatch(res.body, /hooks\/a/);
      }
      for (const url of posts.slice(1)) {
        const res = await adminB.post(url);
        assert.equal(res.statusCode, 404, url);
        assert.doesNotMatch(res.body, /hooks\/a|whsec_/);
      }
      // Ids that do not exist answer the same; ids that are not ids are a 400.
      assert.equal((await adminB.get('/portal/webhooks/999999/deliveries')).statusCode, 404);
      assert.equal((await adminB.post('/portal/webhooks/999999/rotate')).statusCode, 404);
      assert.equal((await adminB.post('/portal/webhooks/deliveries/999999/redeliver')).statusCode, 404);
      for (const bad of ['0', '-1', '1e3', 'abc', '1.5', '9'.repeat(20)]) {
        assert.equal((await adminB.get(`/portal/webhooks/${bad}/deliveries`)).statusCode, 400, bad);
        assert.equal((await adminB.post(`/portal/webhooks/${bad}/delete`)).statusCode, 400, bad);
      }
      // B's own list names none of A's endpoints.
      const list = await adminB.get('/portal/webhooks');
      assert.equal(list.statusCode, 200);
      assert.doesNotMatch(list.body, /hooks\/a/);
      assert.match(text(list.body), /0 of at most 3 endpoints registered/);
      assert.equal(await snapshot(), before);
      assert.equal((await endpointsOf(memberA)).length, 1);
      assert.equal(endpoint.status, 'enabled');
    });

    test('CSRF: every POST without the token is 403 and changes nothing', async () => {
      const { posts } = await routesOnA();
      const before = await snapshot();
      for (const url of posts) {
        assert.equal((await adminA.post(url, { url: 'https://8.8.8.8/x' }, { csrf: null })).statusCode, 403, url);
        assert.equal((await adminA.post(url, { url: 'https://8.8.8.8/x' }, { origin: 'https://evil.example' })).statusCode, 403, url);
      }
      assert.equal(await snapshot(), before);
    });

    test('register: the whsec_ secret shown once (no-store), stored only sealed, never shown or logged again', async () => {
      const { res, secret } = await register(adminA, 'https://1.1.1.1/hooks/risklookup', 'ERP <script>alert(1)</script>');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(text(res.body), /Copy it now .* shown only this once and cannot be shown again/);
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
      // The description is text, never markup.
      assert.ok(!res.body.includes('<script>alert(1)'));
      assert.match(text(res.body), /ERP <script>alert\(1\)<\/script>/);
      const [row] = await endpointsOf(memberA);
      assert.deepEqual(await opened(row!.id), [secret, null], 'the shown secret is the one that signs');
      assert.ok(!JSON.stringify(row).includes(secret.slice(6)), 'stored sealed only');
      const list = await adminA.get('/portal/webhooks');
      assert.ok(!list.body.includes(secret.slice(6)), 'not shown again');
      assert.match(text(list.body), /https:\/\/1\.1\.1\.1\/hooks\/risklookup Status Enabled/);
      assert.match(text(list.body), /1 of at most 3 endpoints registered/);
      assert.ok(!t.logs.join('').includes(secret.slice(6)), 'never logged');
    });

    test('refusals worded: not https, not an address; a private, loopback or metadata address and one that does not resolve all get one answer naming no address, in English and Turkish', async () => {
      const refusedWords = (host: string) =>
        new RegExp(
          `${host.replace(/[.[\]]/g, '\\$&')} does not resolve to a public address \\(it resolves to a private or reserved address, or to none\\)\\. Webhooks only go to public addresses: give a host name that resolves to a public internet address\\.`,
        );
      const cases: Array<[string, RegExp, string | null]> = [
        ['http://hooks.example.com/x', /The address must start with https:\/\/: deliveries are sent over HTTPS only/, null],
        ['not a url', /“not a url” is not a web address such as https:\/\/hooks\.example\.com\/risklookup/, null],
        ['https://127.0.0.1/x', refusedWords('127.0.0.1'), null],
        ['https://localhost:8443/x', refusedWords('localhost'), '127.0.0.1'],
        ['https://169.254.169.254/latest/meta-data', refusedWords('169.254.169.254'), null],
        ['https://10.0.0.5/x', refusedWords('10.0.0.5'), null],
        ['https://[::1]/x', refusedWords('[::1]'.slice(1, -1)), null],
        ['https://[::ffff:192.168.1.1]/x', /does not resolve to a public address/, '192.168'],
        // The same answer for a name that does not resolve as for a private one: no oracle.
        ['https://hooks.nonexistent.invalid/x', refusedWords('hooks.nonexistent.invalid'), null],
        ['https://user:pw@8.8.8.8/x', /may not hold a user name or password/, null],
      ];
      for (const [url, words, hidden] of cases) {
        const res = await adminA.post('/portal/webhooks', { url, description: 'mine' });
        assert.equal(res.statusCode, 400, url);
        assert.match(text(res.body), words, url);
        if (hidden) assert.ok(!text(res.body).includes(hidden), `${url}: the address it resolved to is not shown`);
        assert.doesNotMatch(text(res.body), /leads to|a loopback address|a link-local address|private network address|could not be found/, url);
        assert.equal(secretOf(res.body), undefined);
        // The form keeps what was typed (escaped).
        assert.match(res.body, /id="webhook-url"[^>]*value="[^"]+"/);
      }
      await adminA.post('/portal/locale', { locale: 'tr', return_to: '/portal/' });
      try {
        const tr = await adminA.post('/portal/webhooks', { url: 'https://169.254.169.254/' });
        assert.match(
          text(tr.body),
          /169\.254\.169\.254 internete açık bir adrese çözümlenmiyor \(özel ya da ayrılmış bir adrese çözümleniyor ya da hiç çözümlenmiyor\)\. Bildirimler yalnızca internete açık adreslere gönderilir/,
        );
      } finally {
        await adminA.post('/portal/locale', { locale: 'en', return_to: '/portal/' });
      }
      assert.equal((await endpointsOf(memberA)).length, 0);
    });

    test('refused addresses are capped: the 21st registration of the quota day is a 429 page saying when registering opens again, in English and Turkish; another member is not affected', async () => {
      for (let i = 0; i < 20; i++) assert.equal((await adminA.post('/portal/webhooks', { url: `https://10.9.9.${i}/x` })).statusCode, 400);
      const capped = await adminA.post('/portal/webhooks', { url: 'https://1.1.1.1/after-cap' });
      assert.equal(capped.statusCode, 429);
      assert.match(
        text(capped.body),
        /No more endpoints today: 20 addresses of your member were refused today \(not a public address\)\. Registering opens again at 2026-11-22 00:00:00 Turkey time\./,
      );
      assert.equal(secretOf(capped.body), undefined);
      await adminA.post('/portal/locale', { locale: 'tr', return_to: '/portal/' });
      try {
        const tr = await adminA.post('/portal/webhooks', { url: 'https://1.1.1.1/after-cap' });
        assert.equal(tr.statusCode, 429);
        assert.match(text(tr.body), /Kayıt Türkiye saatiyle 2026-11-22 00:00:00 itibarıyla yeniden açılır/);
      } finally {
        await adminA.post('/portal/locale', { locale: 'en', return_to: '/portal/' });
      }
      assert.equal((await endpointsOf(memberA)).length, 0);
      await register(adminB, 'https://1.1.1.1/b-not-capped');
    });

    test('at most 3: five registrations at once make 3; the page then shows no form and says why; a 4th is refused', async () => {
      const results = await Promise.all([1, 2, 3, 4, 5].map((i) => adminA.post('/portal/webhooks', { url: `https://8.8.8.8/hook/${i}` })));
      const statuses = results.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [200, 200, 200, 409, 409]);
      for (const r of results.filter((r) => r.statusCode === 409))
        assert.match(text(r.body), /A member has at most 3 endpoints: delete one before adding another/);
      assert.equal((await endpointsOf(memberA)).length, 3);
      const list = await adminA.get('/portal/webhooks');
      assert.doesNotMatch(list.body, /action="\/portal\/webhooks" /);
      assert.match(text(list.body), /Your member has 3 endpoints, the most allowed: delete one to register another/);
      const fourth = await adminA.post('/portal/webhooks', { url: 'https://8.8.4.4/x' });
      assert.equal(fourth.statusCode, 409);
    });

    test('an address once per member: a form sent twice (at once, or again) registers one endpoint and says why not the other', async () => {
      const [a, b] = await Promise.all([1, 2].map(() => adminA.post('/portal/webhooks', { url: 'https://1.1.1.1/twice' })));
      assert.deepEqual([a!.statusCode, b!.statusCode].sort(), [200, 409]);
      const refused = a!.statusCode === 409 ? a! : b!;
      assert.match(
        text(refused.body),
        /https:\/\/1\.1\.1\.1\/twice is registered already: each message would be sent to it twice\. If its secret was lost, rotate the secret instead\./,
      );
      assert.equal(secretOf(refused.body), undefined);
      assert.equal((await endpointsOf(memberA)).length, 1);
      // Another member may use the same address.
      await register(adminB, 'https://1.1.1.1/twice');
    });

    test('rotate: a new secret once; the page says the old one stays valid 24 hours and until when; both open', async () => {
      const { secret: first } = await register(adminA, 'https://1.1.1.1/rotate');
      const [row] = await endpointsOf(memberA);
      const res = await adminA.post(`/portal/webhooks/${row!.id}/rotate`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      const second = secretOf(res.body);
      assert.ok(second && second !== first);
      shownSecrets.push(second);
      const until = new Date(NOON_TR + 24 * HOUR);
      assert.equal(until.toISOString(), '2026-11-22T09:00:00.000Z');
      assert.match(text(res.body), /The previous secret stays valid for 24 hours, until 2026-11-22 12:00 \(Turkey time\)/);
      assert.deepEqual(await opened(row!.id), [second, first]);
      const list = await adminA.get('/portal/webhooks');
      assert.match(text(list.body), /Previous secret valid until 2026-11-22 12:00/);
      assert.ok(!list.body.includes(second.slice(6)) && !list.body.includes(first.slice(6)));
      assert.ok(!t.logs.join('').includes(second.slice(6)));
    });

    test("a disabled endpoint: why, in the reader's language; a test event is refused; enabling checks the address again", async () => {
      await register(adminA, 'https://1.1.1.1/disabled');
      const [row] = await endpointsOf(memberA);
      const last = decideAfterAttempt({ kind: 'answered', status: 503, retryAfter: null }, MAX_ATTEMPTS, t.clock.now(), 0);
      assert.ok(last.kind === 'failed');
      await disableEndpoint(db, row!.id, last.disableEndpoint, t.clock.now());
      const list = await adminA.get('/portal/webhooks');
      assert.match(
        text(list.body),
        /Status Disabled since 2026-11-21 12:00 Why A message could not be delivered in 10 attempts over 3 days; the last attempt: answered 503, not a 2xx\./,
      );
      assert.match(list.body, /action="\/portal\/webhooks\/\d+\/enable"/);
      const tr = await adminA.get('/portal/webhooks', { 'accept-language': 'tr' });
      assert.equal(tr.statusCode, 200);
      const refused = await adminA.post(`/portal/webhooks/${row!.id}/test`);
      assert.equal(refused.statusCode, 409);
      assert.match(text(refused.body), new RegExp(`Endpoint ${row!.id} is disabled: enable it first`));
      // An address that has become private is refused on enabling, with the reason.
      await db.updateTable('webhook_endpoints').set({ url: 'https://192.168.0.10/x' }).where('id', '=', row!.id).execute();
      const stillPrivate = await adminA.post(`/portal/webhooks/${row!.id}/enable`);
      assert.equal(stillPrivate.statusCode, 400);
      assert.match(text(stillPrivate.body), /192\.168\.0\.10 does not resolve to a public address/);
      await db.updateTable('webhook_endpoints').set({ url: 'https://1.1.1.1/disabled' }).where('id', '=', row!.id).execute();
      const enabled = await adminA.post(`/portal/webhooks/${row!.id}/enable`);
      assert.equal(enabled.statusCode, 200);
      assert.match(text(enabled.body), /https:\/\/1\.1\.1\.1\/disabled is enabled again/);
      assert.equal((await endpointsOf(memberA))[0]!.status, 'enabled');
    });

    test('the 410 reason in Turkish', async () => {
      await register(adminA, 'https://1.1.1.1/gone');
      const [row] = await endpointsOf(memberA);
      const gone = decideAfterAttempt({ kind: 'answered', status: 410, retryAfter: null }, 1, t.clock.now(), 0);
      assert.ok(gone.kind === 'failed');
      await disableEndpoint(db, row!.id, gone.disableEndpoint, t.clock.now());
      await adminA.post('/portal/locale', { locale: 'tr', return_to: '/portal/' });
      try {
        const list = await adminA.get('/portal/webhooks');
        assert.match(text(list.body), /Neden Adres 410 Gone yanıtı verdi; bu, başka gönderim istenmediği anlamına gelir\./);
        assert.match(text(list.body), /Yeniden etkinleştir/);
      } finally {
        await adminA.post('/portal/locale', { locale: 'en', return_to: '/portal/' });
      }
    });

    test('test event, deliveries of the last 30 days paged 25 at a time, redeliver; a delivery being sent is not restarted', async () => {
      await register(adminA, 'https://1.1.1.1/deliveries');
      const [row] = await endpointsOf(memberA);
      const id = row!.id;
      const now = t.clock.now();
      // 31 days ago (not shown), then 29 old ones of every kind, each a minute apart.
      const rows = [
        {
          endpoint_id: id,
          webhook_id: 'evt_too_old',
          event_type: 'company.changed',
          payload: '{}',
          state: 'succeeded' as const,
          attempts: 1,
          last_status: 204,
          last_error: null,
          last_attempt_at: now - 31 * 24 * HOUR,
          next_attempt_at: now,
          created_at: now - 31 * 24 * HOUR,
        },
        ...Array.from({ length: 29 }, (_, i) => ({
          endpoint_id: id,
          webhook_id: `evt_${String(i).padStart(2, '0')}`,
          event_type: 'company.changed',
          payload: '{}',
          state: (['succeeded', 'failed', 'pending'] as const)[i % 3]!,
          attempts: (i % 3) + 1,
          last_status: i % 3 === 0 ? 204 : 500,
          last_error: i % 3 === 0 ? null : 'answered 500, not a 2xx',
          last_attempt_at: now - (40 - i) * 60_000,
          next_attempt_at: now + HOUR,
          created_at: now - (40 - i) * 60_000,
        })),
      ];
      await insertDeliveries(db, rows);
      const sent = await adminA.post(`/portal/webhooks/${id}/test`);
      assert.equal(sent.statusCode, 303);
      const location = String(sent.headers.location);
      assert.match(location, new RegExp(`^/portal/webhooks/${id}/deliveries\\?sent=\\d+$`));
      const first = await adminA.get(location);
      assert.equal(first.statusCode, 200);
      assert.match(text(first.body), /A test event was queued \(webhook-id msg_test_[A-Za-z0-9_-]+\)/);
      const bodyRows = first.body.match(/<tr id="delivery-\d+">/g) ?? [];
      assert.equal(bodyRows.length, 25, 'a page of 25');
      assert.match(text(first.body), /2026-11-21 12:00:00 webhook\.test msg_test_\S+ Waiting/);
      assert.match(text(first.body), /company\.changed evt_28 Failed 2 500 2026-11-21 11:48:00 answered 500, not a 2xx/);
      assert.match(text(first.body), /company\.changed evt_27 Delivered 1 204 2026-11-21 11:47:00 Redeliver/);
      assert.match(text(first.body), /company\.changed evt_26 Waiting next attempt 2026-11-21 13:00:00 3 500 2026-11-21 11:46:00 answered 500, not a 2xx/);
      const older = /href="(\/portal\/webhooks\/\d+\/deliveries\?before=\d+)" rel="next"/.exec(first.body)?.[1];
      assert.ok(older, 'a link to the older page');
      const second = await adminA.get(older.replace(/&amp;/g, '&'));
      assert.equal((second.body.match(/<tr id="delivery-\d+">/g) ?? []).length, 5);
      assert.match(text(second.body), /evt_00/);
      assert.doesNotMatch(second.body, /evt_too_old|rel="next"/);
      assert.match(second.body, new RegExp(`href="/portal/webhooks/${id}/deliveries">Newest deliveries`));
      // A link cannot make the page claim something was queued: an id of no delivery of this endpoint.
      const claimed = await adminA.get(`/portal/webhooks/${id}/deliveries?redelivered=999999`);
      assert.doesNotMatch(text(claimed.body), /queued again/);

      // Redeliver a failed one: pending again, attempts from 0, same webhook-id.
      const failed = await db.selectFrom('webhook_deliveries').select(['id', 'webhook_id']).where('webhook_id', '=', 'evt_01').executeTakeFirstOrThrow();
      const again = await adminA.post(`/portal/webhooks/deliveries/${failed.id}/redeliver`);
      assert.equal(again.statusCode, 303);
      assert.equal(again.headers.location, `/portal/webhooks/${id}/deliveries?redelivered=${failed.id}`);
      assert.match(text((await adminA.get(String(again.headers.location))).body), new RegExp(`Delivery ${failed.id} is queued again`));
      const restarted = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', failed.id).executeTakeFirstOrThrow();
      assert.deepEqual([restarted.state, restarted.attempts, restarted.webhook_id], ['pending', 0, 'evt_01']);
      // One being sent right now is not restarted under the sender.
      await db.updateTable('webhook_deliveries').set({ state: 'delivering' }).where('id', '=', failed.id).execute();
      const busy = await adminA.post(`/portal/webhooks/deliveries/${failed.id}/redeliver`);
      assert.equal(busy.statusCode, 409);
      assert.match(text(busy.body), new RegExp(`Delivery ${failed.id} is being sent right now: wait for its outcome`));
    });

    test('test events and redeliveries are capped per member and day: no unlimited sender of requests to any address (attack round)', async () => {
      await register(adminA, 'https://1.1.1.1/capped');
      await register(adminA, 'https://1.0.0.1/capped');
      const [first, second] = await endpointsOf(memberA);
      const statuses: number[] = [];
      for (let i = 0; i < MANUAL_SENDS_PER_DAY; i++) statuses.push((await adminA.post(`/portal/webhooks/${i % 2 ? first!.id : second!.id}/test`)).statusCode);
      assert.deepEqual(new Set(statuses), new Set([303]));
      const refused = await adminA.post(`/portal/webhooks/${first!.id}/test`);
      assert.equal(refused.statusCode, 409);
      assert.match(text(refused.body), new RegExp(`at most ${MANUAL_SENDS_PER_DAY} test events and redeliveries a day`, 'i'));
      const delivery = await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', first!.id).executeTakeFirstOrThrow();
      const again = await adminA.post(`/portal/webhooks/deliveries/${delivery.id}/redeliver`);
      assert.equal(again.statusCode, 409);
      assert.match(text(again.body), /test events and redeliveries a day/);
      const rows = await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', 'in', [first!.id, second!.id]).execute();
      assert.equal(rows.length, MANUAL_SENDS_PER_DAY, 'nothing queued beyond the cap');
      // Another member is not affected by A's use.
      const b = await register(adminB, 'https://1.1.1.1/b');
      assert.ok(b.secret);
      const [endpointB] = await db.selectFrom('webhook_endpoints').select('id').where('url', '=', 'https://1.1.1.1/b').execute();
      assert.equal((await adminB.post(`/portal/webhooks/${endpointB!.id}/test`)).statusCode, 303);
    });

    test('delete: the endpoint and its deliveries are gone, the page says so', async () => {
      await register(adminA, 'https://1.1.1.1/delete-me');
      const [row] = await endpointsOf(memberA);
      assert.equal((await adminA.post(`/portal/webhooks/${row!.id}/test`)).statusCode, 303);
      const res = await adminA.post(`/portal/webhooks/${row!.id}/delete`);
      assert.equal(res.statusCode, 200);
      assert.match(text(res.body), /https:\/\/1\.1\.1\.1\/delete-me is deleted/);
      assert.equal((await endpointsOf(memberA)).length, 0);
      assert.equal((await db.selectFrom('webhook_deliveries').select('id').execute()).length, 0);
      assert.equal((await adminA.post(`/portal/webhooks/${row!.id}/delete`)).statusCode, 404, 'a second click: no such endpoint');
    });

    test('no secret shown by any test reached the log', () => {
      assert.ok(shownSecrets.length >= 5);
      const logs = t.logs.join('');
      for (const secret of shownSecrets) assert.ok(!logs.includes(secret.slice(6)));
    });
  });
}
