/**
 * Issue 27, findings 10 and 11, through the real routes on every engine: the sign-in's `next`
 * may only lead to a page that changes and counts nothing, and a multipart file part without a
 * file name (what Node's own FormData sends for an empty file input) is ignored when empty and
 * refused with a page when not, never a 500, nothing written.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember, nextVkn } from './helpers/factories.ts';
import { PDF_FILE } from './helpers/files.ts';
import { anonymousBrowser, makePortalUser, PORTAL_ORIGIN, signIn, type PortalBrowser } from './helpers/portal.ts';

const claim = (taxId: string) => ({
  company_name: 'Boş Dosya Ticaret A.Ş.',
  tax_id: taxId,
  country: 'TR',
  city: 'Bursa',
  type: 'unpaid_debt',
  event_date: '2026-10-15',
  amount: '100.00',
  currency: 'TRY',
  description: 'Unpaid invoice.',
});

/** The form as Node's FormData (undici) writes it: a File without a name is a part with no `filename`. */
async function postWithFormData(browser: PortalBrowser, fields: Record<string, string>, file: File) {
  const form = new FormData();
  form.append('_csrf', browser.csrf);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('attachments', file);
  const encoded = new Response(form);
  const payload = Buffer.from(await encoded.arrayBuffer());
  assert.doesNotMatch(payload.toString('latin1'), /name="attachments"; filename=/, 'the part has no filename, as Node sends it');
  return browser.app.inject({
    method: 'POST',
    url: '/portal/reports',
    headers: { 'content-type': encoded.headers.get('content-type')!, origin: PORTAL_ORIGIN, cookie: browser.cookieHeader() },
    payload,
  });
}

for (const engine of ENGINES) {
  describe(`portal attack edges [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(database.engine.db, t.clock, { ref: 'EDGE-1' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const counted = async () => {
      const [audit, usage] = await Promise.all([
        database.engine.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        database.engine.db
          .selectFrom('usage_counters')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('used'), eb.lit(0)).as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { audit: Number(audit.n), usage: Number(usage.n) };
    };

    test('finding 10: a sign-in whose next link runs a search lands on a page that counts nothing; the search is not run', async () => {
      const user = await makePortalUser(database.engine.db, t.clock, { role: 'member_user', memberRef: 'EDGE-1' });
      const before = await counted();
      for (const next of ['/portal/search?q=Anadolu%20Demir', '/portal/search?q=Anadolu&type=name', '/portal/reports/1/withdraw', '/portal/sign-out']) {
        const browser = await anonymousBrowser(t.app);
        // The link as an attacker sends it: the page keeps no `next` that is not allowed…
        const page = await browser.get(`/portal/sign-in?next=${encodeURIComponent(next)}`);
        assert.doesNotMatch(page.body, /name="next" value="\/portal\/(search\?|reports\/1|sign-out)/, next);
        // …and a form posted with it anyway is sent home.
        const res = await browser.post('/portal/sign-in', { email: user.email, password: user.password, next });
        assert.equal(res.statusCode, 303);
        assert.equal(res.headers.location, '/portal/', next);
        const landed = await browser.get(String(res.headers.location));
        assert.equal(landed.statusCode, 200);
      }
      assert.deepEqual(await counted(), before);
    });

    test('finding 10: next still leads to a page that shows and counts nothing', async () => {
      const user = await makePortalUser(database.engine.db, t.clock, { role: 'member_user', memberRef: 'EDGE-1' });
      for (const next of ['/portal/reports', '/portal/usage', '/portal/search']) {
        const browser = await anonymousBrowser(t.app);
        const page = await browser.get(`/portal/sign-in?next=${encodeURIComponent(next)}`);
        assert.match(page.body, new RegExp(`name="next" value="${next}"`));
        const res = await browser.post('/portal/sign-in', { email: user.email, password: user.password, next });
        assert.equal(res.headers.location, next);
      }
      const operator = await makePortalUser(database.engine.db, t.clock, { role: 'operator' });
      const browser = await anonymousBrowser(t.app);
      const code = (await import('../src/users/totp.ts')).totpCodeAt(operator.totpSecret!, t.clock.now());
      const res = await browser.post('/portal/sign-in', { email: operator.email, password: operator.password, code, next: '/portal/operator/companies/1' });
      assert.equal(res.headers.location, '/portal/operator/companies/1');
    });

    test('finding 11: an attachments part without a file name: empty, ignored (the report is filed); with content, refused with a page', async () => {
      const member = await signIn(t.app, await makePortalUser(database.engine.db, t.clock, { role: 'member_user', memberRef: 'EDGE-1' }));
      await member.get('/portal/reports/new');
      const reportsBefore = await database.engine.db.selectFrom('reports').select('id').execute();

      const refused = await postWithFormData(member, claim(nextVkn()), new File([PDF_FILE], ''));
      assert.equal(refused.statusCode, 400, refused.body.slice(0, 300));
      assert.match(refused.body, /class="notice error"/);
      assert.equal((await database.engine.db.selectFrom('reports').select('id').execute()).length, reportsBefore.length, 'nothing written');

      await member.get('/portal/reports/new');
      const empty = await postWithFormData(member, claim(nextVkn()), new File([], ''));
      assert.equal(empty.statusCode, 303, empty.body.slice(0, 300));
      const id = Number(/filed=(\d+)/.exec(String(empty.headers.location))?.[1]);
      const attachments = await database.engine.db.selectFrom('report_attachments').select('id').where('report_id', '=', id).execute();
      assert.deepEqual(attachments, []);
    });
  });
}
