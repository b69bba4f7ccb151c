/**
 * Issue 12's steps 1–7 in a real browser (Chromium through playwright-core) against a real
 * server on each engine: an operator invites Ayşe, she accepts, signs the agreement, generates a key
 * that works on the API, regenerates it (the old key gets 403), looks at usage, searches (a
 * misspelt name shows a near match), and invites a member_user who can search but not reach the
 * API page. With UPDATE_SCREENSHOTS=1 each page is saved to docs/portal/<step>.png for the README.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { launchChromium } from './helpers/browser.ts';
import { makeCompanies, makeMember, makeReport } from './helpers/factories.ts';
import { inviteUser, oneTimeLinkOf } from '../src/users/users.service.ts';

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SHOTS_DIR = 'docs/portal';
const PASSWORD = 'correct horse battery staple';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function shot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

async function accept(page: Page, link: string, name: string) {
  await page.goto(link);
  await page.locator('#name').fill(name);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#password2').fill(PASSWORD);
  await page.locator('main form.stack button[type=submit]').click();
  await page.waitForURL(/\/portal\/$/);
}

for (const engine of ENGINES) {
  describe(`the member portal in a browser, steps 1–7 of issue 12 [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base: string;
    let browser: Browser;
    const problems: string[] = [];

    const api = (key: string, query: string) => fetch(`${base}/api/v1/search?${query}`, { headers: { 'x-api-key': key } });

    before(async () => {
      database = await engine.create();
      // The public URL (curl, invitation links) is this server's: take a free port first.
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      t = await makeTestApp(database, { publicUrl: base });
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'M-1001', agreementSigned: false });
      await db.updateTable('members').set({ name: 'Anadolu Gıda Ticaret A.Ş.' }).where('ref', '=', 'M-1001').execute();
      await makeCompanies(database.engine, t.clock, [
        {
          company_name: 'Karadeniz Nakliyat Ltd. Şti.',
          city: 'Samsun',
          reports: [
            makeReport({
              type: 'enforcement_plain',
              description: 'İlamsız icra takibi: navlun bedeli ödenmedi.',
              case: { enforcement_office: 'Samsun 3. İcra Dairesi', file_number: '2026/1182', date: '2026-03-02' },
            }),
            makeReport({
              type: 'bounced_cheque',
              description: 'Karşılıksız çek nedeniyle Cumhuriyet Başsavcılığına şikâyet.',
              amount: 48500,
              currency: 'TRY',
              case: { prosecutor_office: 'Samsun Cumhuriyet Başsavcılığı', investigation_number: '2026/20417' },
            }),
          ],
        },
        { company_name: 'Ege Tekstil Sanayi A.Ş.', city: 'İzmir', reports: [makeReport(), makeReport(), makeReport()] },
      ]);
      await t.app.listen({ host: '127.0.0.1', port });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
    });

    test('invite → accept → agreement → key → regenerate → usage → search → a colleague', async () => {
      const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1100, height: 800 } });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && problems.push(m.text()));
      // Every resource a page loads is ours and is there (the browser asks for /favicon.ico itself).
      page.on(
        'response',
        (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && r.request().resourceType() !== 'document' && problems.push(`${r.status()} ${r.url()}`),
      );
      page.on('pageerror', (e) => problems.push(e.message));

      // 1. The operator invites Ayşe and hands over the link.
      const invitation = await inviteUser(database.engine.db, t.clock, {
        email: 'ayse@example.com',
        role: 'member_admin',
        memberRef: 'M-1001',
        createdBy: 'cli',
      });
      // 2. She opens it, sets a password, lands on the member's home.
      await accept(page, oneTimeLinkOf(base, invitation.token), 'Ayşe Yılmaz');
      assert.match(await page.locator('main').innerText(), /Not signed yet/);
      await shot(page, '1-home');

      // 3. She reads and signs the data agreement.
      await page.goto(`${base}/portal/agreement`);
      await shot(page, '2-agreement');
      await page.getByLabel(/I have read and accept this agreement/).check();
      await page.getByRole('button', { name: 'Sign the agreement' }).click();
      await page.waitForURL(/signed=1/);
      assert.match(await page.locator('main').innerText(), /Signed on 2026-11-21 by Ayşe Yılmaz/);

      // 4. A key, shown once with a copy button and a curl; it works on the API.
      await page.goto(`${base}/portal/api`);
      await page.getByRole('button', { name: 'Generate a key' }).click();
      const firstKey = (await page.locator('#new-key').innerText()).trim();
      assert.match(firstKey, /^[A-Za-z0-9]{64}$/);
      assert.match(await page.locator('#curl').innerText(), new RegExp(`X-API-Key: ${firstKey}`));
      await shot(page, '3-api-new-key');
      assert.equal((await api(firstKey, 'q=Karadeniz+Nakliyat')).status, 200);
      assert.equal((await api(firstKey, 'q=Ege+Tekstil')).status, 200);

      // … regenerated: the old key is refused at once, the new one answers.
      await page.goto(`${base}/portal/api`);
      assert.match(await page.locator('main').innerText(), /Used today\s+2 \/ 100/);
      await shot(page, '4-api-key');
      await page.getByRole('button', { name: 'Regenerate the key' }).click();
      const secondKey = (await page.locator('#new-key').innerText()).trim();
      assert.notEqual(secondKey, firstKey);
      const old = await api(firstKey, 'q=Karadeniz+Nakliyat');
      assert.equal(old.status, 403);
      assert.equal(((await old.json()) as { reason: string }).reason, 'key_revoked');
      assert.equal((await api(secondKey, 'q=Karadeniz+Nakliyat')).status, 200);
      // The key is not shown again.
      await page.goto(`${base}/portal/api`);
      assert.equal(await page.locator('#new-key').count(), 0);
      assert.ok(!(await page.content()).includes(secondKey));

      // 6. Search (before usage, so the chart shows both channels): a name, then a misspelt one.
      await page.goto(`${base}/portal/search`);
      await page.getByLabel('Company name or tax ID').fill('Karadeniz Nakliyat');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const answer = await page.locator('main').innerText();
      assert.match(answer, /1 company found/);
      assert.match(answer, /Samsun 3\. İcra Dairesi/);
      assert.match(answer, /99 of 100 searches left today/);
      await shot(page, '6-search');
      await page.getByLabel('Company name or tax ID').fill('Karadenz Nakliyat');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      assert.match(await page.locator('main').innerText(), /No company matched “Karadenz Nakliyat”\. Close names:[\s\S]*Karadeniz Nakliyat Ltd\. Şti\./);
      await shot(page, '6-search-near-match');
      await page.getByRole('link', { name: 'Search by this tax ID' }).click();
      assert.match(await page.locator('main').innerText(), /1 company found/);

      // 5. Usage: API and portal apart, the chart and its table.
      await page.goto(`${base}/portal/usage`);
      const today = page.locator('table.data tbody tr').first();
      assert.deepEqual(await today.locator('th, td').allInnerTexts(), ['2026-11-21', '3', '3']);
      assert.equal(await page.locator('svg.usage-chart rect title').count(), 60);
      await shot(page, '5-usage');

      // 7. A colleague as member_user: can search, cannot reach the API page.
      await page.goto(`${base}/portal/users`);
      assert.match(await page.locator('main').innerText(), /Users who are not disabled: 1 of at most 25\. You can invite 24 more\./);
      await page.getByLabel('Email').fill('mehmet@example.com');
      await page.getByLabel(/User \(search and usage\)/).check();
      await page.getByRole('button', { name: 'Send invitation' }).click();
      const link = (await page.locator('#invite-link').innerText()).trim();
      assert.match(link, /\/portal\/accept\?token=/);
      await shot(page, '7-users');

      const colleague = await browser.newContext({ locale: 'tr-TR', viewport: { width: 1100, height: 800 } });
      const page2 = await colleague.newPage();
      await accept(page2, link, 'Mehmet Demir');
      await page2.goto(`${base}/portal/search?q=Ege+Tekstil`);
      assert.match(await page2.locator('main').innerText(), /“Ege Tekstil” için 1 firma bulundu/);
      await shot(page2, '7-search-member-user-tr');
      const refused = await page2.goto(`${base}/portal/api`);
      assert.equal(refused?.status(), 403);
      assert.equal(await page2.locator('nav a[href="/portal/api"]').count(), 0);
      await colleague.close();
      await context.close();
      assert.deepEqual(problems, []);
    });
  });
}
