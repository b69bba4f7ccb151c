/**
 * Each rule has one owner (issue 29), so every way in decides alike: D7's length, type and
 * country rules (search/search-params.ts) through the API, the portal's search page and
 * `risklookup search`; D17's rule on the member (members/member-access.ts) through the API, the
 * portal's search and the portal's filing form; the name and password rules (users.service.ts,
 * password-rules.ts) through the portal's link and the CLI's invitation; the company row from
 * typed values (companies/company-row.ts) through an import and a filing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { runCli } from './helpers/cli.ts';
import { makeCompanies, makeKeyHolder, makeReport, nextVkn } from './helpers/factories.ts';
import { postMultipart } from './helpers/multipart.ts';
import { anonymousBrowser, makePortalUser, signIn, type PortalBrowser } from './helpers/portal.ts';
import { readJson, type ErrorBody } from './helpers/bodies.ts';
import { inviteUser } from '../src/users/users.service.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';

/** The page's words without tags and with entities decoded enough for the assertions. */
const words = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

async function inEnglish(browser: PortalBrowser): Promise<PortalBrowser> {
  assert.equal((await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
  return browser;
}

for (const engine of ENGINES) {
  describe(`one rule, one decision on every way in [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    let user: PortalBrowser;
    const cli = (...args: string[]) => runCli([...args, '--db', database.url]);

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Kuraltek Lojistik A.Ş.', reports: [makeReport()] }]);
      key = await makeKeyHolder(db, t.clock, { ref: 'R-FULL', dailyLimit: 1000 });
      user = await inEnglish(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'R-FULL' })));
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('D7: q length, type and country — the API, the portal and the CLI refuse and accept the same queries', async () => {
      const cases: Array<{ q: string; type?: string; country?: string; reason: string | null; page: RegExp | null }> = [
        { q: 'ab', reason: 'invalid_parameter', page: /Enter 3 to 100 characters/ },
        { q: '  ab  ', reason: 'invalid_parameter', page: /Enter 3 to 100 characters/ },
        { q: 'k'.repeat(101), reason: 'invalid_parameter', page: /Enter 3 to 100 characters/ },
        { q: 'kuraltek', type: 'vkn', reason: 'invalid_parameter', page: /Search by name or by tax ID/ },
        { q: 'kuraltek', country: 'XX', reason: 'unsupported_country', page: /The country XX is not supported/ },
        { q: `  ${'k'.repeat(100)}  `, reason: null, page: null },
        { q: 'kuraltek', type: 'name', country: 'tr', reason: null, page: null },
      ];
      for (const c of cases) {
        const params = new URLSearchParams({ q: c.q, ...(c.type ? { type: c.type } : {}), ...(c.country ? { country: c.country } : {}) }).toString();
        const label = JSON.stringify(c);
        const api = await search(t.app, key, params);
        const page = await user.get(`/portal/search?${params}`);
        const run = await cli('search', c.q, ...(c.type ? ['--type', c.type] : []), ...(c.country ? ['--country', c.country] : []));
        if (c.reason === null) {
          assert.equal(api.statusCode, 200, label);
          assert.equal(page.statusCode, 200, label);
          assert.equal(run.code, 0, `${label}: ${run.stderr}`);
          continue;
        }
        const body = readJson<ErrorBody>(api.body);
        assert.equal(api.statusCode, 400, label);
        assert.equal(body.reason, c.reason, label);
        assert.equal(page.statusCode, 400, label);
        assert.match(words(page.body), c.page!, label);
        assert.equal(run.code, 2, label);
        assert.equal(run.stderr.trim(), `risklookup: ${body.error}`, `${label}: the CLI says what the API says`);
      }
    });

    test("D17's member rule: the API, the portal's search and the portal's filing refuse the same members, in D17's order", async () => {
      const db = database.engine.db;
      const cases = [
        {
          ref: 'R-ASSOC',
          tier: 'associate' as const,
          agreementSigned: true,
          reason: 'member_not_full',
          search: /Searching is for full members/,
          filing: /Only full members can file/,
        },
        {
          ref: 'R-UNSIGNED',
          tier: 'full' as const,
          agreementSigned: false,
          reason: 'agreement_unsigned',
          search: /data agreement is not signed yet/,
          filing: /agreement must be signed before filing/,
        },
        // Associate and unsigned: the tier is D17's earlier step, everywhere.
        {
          ref: 'R-BOTH',
          tier: 'associate' as const,
          agreementSigned: false,
          reason: 'member_not_full',
          search: /Searching is for full members/,
          filing: /Only full members can file/,
        },
      ];
      for (const c of cases) {
        const memberKey = await makeKeyHolder(db, t.clock, { ref: c.ref, tier: c.tier, agreementSigned: c.agreementSigned });
        const api = await search(t.app, memberKey, 'q=kuraltek');
        assert.equal(api.statusCode, 403, c.ref);
        assert.equal(readJson<ErrorBody>(api.body).reason, c.reason, c.ref);
        const browser = await inEnglish(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: c.ref })));
        const page = await browser.get('/portal/search?q=kuraltek');
        assert.equal(page.statusCode, 403, c.ref);
        assert.match(words(page.body), c.search, c.ref);
        await browser.get('/portal/reports/new');
        const filed = await postMultipart(browser, '/portal/reports', filingFields(nextVkn()), []);
        assert.equal(filed.statusCode, 403, c.ref);
        assert.match(words(filed.body), c.filing, c.ref);
      }
      const count = await db.selectFrom('reports').select(db.fn.countAll().as('n')).where('filed_by_user_id', 'is not', null).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0, 'nothing was filed');
    });

    test('names and passwords: the portal link and the CLI invitation refuse what the users service refuses', async () => {
      const db = database.engine.db;
      // The email rule: the CLI's invitation and the member admin's invitation page.
      const cliBad = await cli('user', 'invite', 'not-an-email', '--role', 'member_user', '--member', 'R-FULL');
      assert.equal(cliBad.code, 1);
      assert.match(cliBad.stderr, /'not-an-email' is not an email address such as ayse@example\.com/);
      const admin = await inEnglish(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'R-FULL' })));
      await admin.get('/portal/users');
      const pageBad = await admin.post('/portal/users/invite', { email: 'not-an-email', role: 'member_user' });
      assert.equal(pageBad.statusCode, 400);
      assert.match(words(pageBad.body), /Enter a valid email address/);
      // The name and password rules: the link's form, as the service refuses them.
      const link = await inviteUser(db, t.clock, {
        email: `named${Date.now()}@example.com`,
        role: 'member_user',
        memberRef: 'R-FULL',
        createdBy: 'test',
        keyRing: TEST_KEY_RING,
      });
      const anon = await inEnglish(await anonymousBrowser(t.app));
      await anon.get(`/portal/accept?token=${link.token}`);
      const accept = (name: string, password: string) => anon.post('/portal/accept', { token: link.token, name, password, password2: password });
      const noName = await accept('   ', 'a long enough passphrase for this');
      assert.equal(noName.statusCode, 400);
      assert.match(words(noName.body), /1 to 100 characters/);
      const shortPassword = await accept('Ayşe Yılmaz', 'short');
      assert.equal(shortPassword.statusCode, 400);
      const good = await accept('Ayşe Yılmaz', 'a long enough passphrase for this');
      assert.equal(good.statusCode, 303);
    });

    test('the company row from typed values: an import and a filing store the same name key and core', async () => {
      const db = database.engine.db;
      const imported = nextVkn();
      const filedTaxId = nextVkn();
      await makeCompanies(database.engine, t.clock, [{ company_name: '  Öztürk  İnşaat Tic. Ltd. Şti. ', tax_id: imported, reports: [makeReport()] }]);
      await user.get('/portal/reports/new');
      const filed = await postMultipart(user, '/portal/reports', { ...filingFields(filedTaxId), company_name: '  Öztürk  İnşaat Tic. Ltd. Şti. ' }, []);
      assert.equal(filed.statusCode, 303, filed.body.slice(0, 400));
      const rows = await db
        .selectFrom('companies')
        .select(['tax_id_norm', 'company_name', 'name_key', 'name_core'])
        .where('tax_id_norm', 'in', [imported, filedTaxId])
        .execute();
      assert.equal(rows.length, 2);
      const [a, b] = rows;
      assert.deepEqual([a!.company_name, a!.name_key, a!.name_core], [b!.company_name, b!.name_key, b!.name_core]);
      assert.notEqual(a!.name_core, '');
    });
  });
}

function filingFields(taxId: string): Record<string, string> {
  return {
    company_name: 'Kural Taşımacılık A.Ş.',
    tax_id: taxId,
    country: 'TR',
    city: 'Kocaeli',
    type: 'unpaid_debt',
    event_date: '2026-10-15',
    amount: '12500.00',
    currency: 'TRY',
    description: 'Three invoices unpaid since October.',
  };
}
