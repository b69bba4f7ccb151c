/**
 * Issue 30's walk in a real browser (Chromium through playwright-core) against a real server on
 * each engine: a member_admin searches a tax ID nobody has reported yet and watches it from the
 * answer (the answer then says "Watching"; the watchlist page shows it without risk data), registers a
 * webhook endpoint on a local HTTPS receiver (allowed by RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE's
 * setting); three members' claims are filed, two approved; the operator approves the third in
 * the console, consensus is reached (D12) and the company.changed delivery arrives signed
 * (verified by the standardwebhooks package, not our code), shows as delivered in the portal, and
 * is redelivered with the same webhook-id. No script error, no CSP violation.
 * With UPDATE_SCREENSHOTS=1 the pages are saved to docs/portal/watch-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { launchChromium } from './helpers/browser.ts';
import { countries, makeCompanies, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { claimInput } from './helpers/filing.ts';
import { makePortalUser, type PortalUser } from './helpers/portal.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { startReceiver, type Receiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';
import { deliverDue, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import type { JobRunner } from '../src/jobs/job-runner.ts';
import { fileReport, approveReport } from './helpers/use-cases.ts';
import { totpCodeAt } from '../src/users/totp.ts';

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SHOTS_DIR = 'docs/portal';

async function shot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

/** The standardwebhooks package's verdict on one received request: its payload, or it throws. */
const verify = (secret: string, got: ReceivedWebhook) => new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Record<string, unknown>;

for (const engine of ENGINES) {
  describe(`issue 30's walk: watch from a search, consensus in the console, the signed delivery [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let receiver: Receiver;
    let world: WebhookWorld;
    let runner: JobRunner;
    let admin: PortalUser;
    let operator: PortalUser;
    let taxId = '';
    const claims: number[] = [];
    const problems: string[] = [];

    before(async () => {
      database = await engine.create();
      receiver = await startReceiver();
      // Near the real time: the receiver's library checks webhook-timestamp against its own clock.
      t = await makeTestApp(database, { webhookAllowPrivateAddresses: true }, Date.now());
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'M-3001' });
      admin = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-3001', email: 'zeynep@example.com', name: 'Zeynep Arslan' });
      operator = await makePortalUser(db, t.clock, { role: 'operator', email: 'operator@bureau.example', name: 'Deniz Operatör' });
      // A company nobody has reported yet (the search finds nothing), then three members' claims on it, pending.
      taxId = nextVkn();
      for (const ref of ['M-3101', 'M-3102', 'M-3103']) {
        await makeMember(db, t.clock, { ref });
        const filer = {
          userId: await makeUser(db, { email: `staff@${ref.toLowerCase()}.example`, role: 'member_user', memberRef: ref }),
          memberId: await memberIdOf(db, ref),
        };
        claims.push(
          (await fileReport({ db, clock: t.clock, countries }, filer, claimInput(taxId, { companyName: 'Karadeniz Nakliyat Ltd. Şti.', city: 'Samsun' })))
            .reportId,
        );
      }
      world = webhookWorld(db, engine.name, t.clock, { allowPrivate: true });
      runner = world.worker('e2e', { ca: receiver.ca }).runner;
      browser = await launchChromium();
    });
    after(async () => {
      await world?.drainAll();
      await browser?.close();
      await t?.close();
      await receiver?.close();
      await database?.drop();
    });

    async function signedIn(user: PortalUser): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1100, height: 800 } });
      const page = await context.newPage();
      page.on(
        'console',
        (m) => (m.type() === 'error' || /Content Security Policy/i.test(m.text())) && !/Failed to load resource/.test(m.text()) && problems.push(m.text()),
      );
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${base}/portal/sign-in`);
      await page.locator('#email').fill(user.email);
      await page.locator('#password').fill(user.password);
      if (user.totpSecret) await page.locator('#code').fill(totpCodeAt(user.totpSecret, t.clock.now()));
      await page.locator('main form button[type=submit]').click();
      await page.waitForURL(/\/portal\/(operator\/)?$/);
      return { context, page };
    }

    test('search → Watch → endpoint → third claim approved → company.changed signed → delivered in the portal → redeliver', async () => {
      const { context, page } = await signedIn(admin);
      const main = () => page.locator('main').innerText();

      // 1. A tax-ID search finds nothing yet; the company is watched from the answer.
      await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
      await page.locator('#q').fill(taxId);
      await page.locator('#type').selectOption('tax_id');
      await page.locator('#country').selectOption('TR');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/\/portal\/search\?/);
      await shot(page, 'watch-1-search');
      await page.getByRole('button', { name: `Watch TR ${taxId}` }).click();
      await page.waitForURL(/\/portal\/watchlist$/);
      assert.match(await main(), new RegExp(`TR ${taxId} is now on the watchlist\\.`));
      assert.match(await main(), /1 of 500 companies watched\./);
      const list = await main();
      for (const word of ['Karadeniz', 'Samsun', 'Threat', 'High', 'Normal']) assert.ok(!list.includes(word), `the watchlist does not say "${word}"`);
      await shot(page, 'watch-2-watchlist');
      await page.goBack();
      await page.reload();
      assert.match(await main(), /Watching/);

      // A mistyped tax ID in the add form: refused with words, the typed value kept.
      await page.goto(`${base}/portal/watchlist`);
      await page.getByLabel('Tax ID').fill(taxId.slice(0, 9));
      await page.locator('main form.search-form button[type=submit]').click();
      assert.match(await main(), /tax ID/i);
      assert.equal(await page.getByLabel('Tax ID').inputValue(), taxId.slice(0, 9));
      await shot(page, 'watch-3-refused');

      // 2. An endpoint on the local HTTPS receiver.
      const hookUrl = receiver.url('/risklookup/hook');
      await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('HTTPS address').fill(hookUrl);
      await page.getByRole('button', { name: 'Register the endpoint' }).click();
      const secret = (await page.locator('#webhook-secret').innerText()).trim();
      assert.match(secret, /^whsec_/);

      // 3. Two claims approved change nothing; the operator approves the third in the console.
      const ops = database.engine.db;
      const opId = Number((await ops.selectFrom('users').select('id').where('email', '=', operator.email).executeTakeFirstOrThrow()).id);
      await approveReport({ db: ops, clock: t.clock }, { userId: opId }, claims[0]!);
      await approveReport({ db: ops, clock: t.clock }, { userId: opId }, claims[1]!);
      await deliverDue(runner);
      assert.equal(receiver.received.length, 0, 'two claims are not visible (D12): no event');
      const op = await signedIn(operator);
      await op.page.goto(`${base}/portal/operator/queue`);
      await shot(op.page, 'watch-4-queue');
      await op.page.locator(`form[action="/portal/operator/reports/${claims[2]}/approve"] button`).click();
      await op.page.waitForURL(/done=/);
      assert.match(await op.page.locator('main').innerText(), /pending → approved/);
      await op.context.close();

      // 4. The delivery arrives signed, with what changed and no report content.
      await deliverDue(runner);
      await receiver.waitFor(1);
      const first = receiver.received[0]!;
      const payload = verify(secret, first) as { type: string; data: { country: string; tax_id: string; report_count: { before: number; after: number } } };
      assert.equal(payload.type, 'company.changed');
      assert.deepEqual([payload.data.country, payload.data.tax_id], ['TR', taxId]);
      assert.deepEqual(payload.data.report_count, { before: 0, after: 3 });
      assert.ok(!first.body.includes('freight') && !first.body.includes('Freight'), 'no report content in the delivery');
      const webhookId = String(first.headers['webhook-id']);

      // 5. Shown as delivered in the portal; redelivered with the same webhook-id and body.
      await page.goto(`${base}/portal/webhooks`);
      await page.getByRole('link', { name: 'Deliveries' }).first().click();
      const row = page.locator('table.deliveries tbody tr').first();
      assert.match(await row.innerText(), new RegExp(`company\\.changed\\s+${webhookId}\\s+Delivered\\s+1\\s+204`));
      await shot(page, 'watch-5-delivered');
      await row.getByRole('button', { name: `Redeliver ${webhookId}` }).click();
      await page.waitForURL(/redelivered=\d+$/);
      assert.match(await main(), /is queued again: the same webhook-id and body/);
      await shot(page, 'watch-6-redelivered');
      await deliverDue(runner);
      await receiver.waitFor(2);
      const again = receiver.received[1]!;
      assert.equal(again.headers['webhook-id'], webhookId);
      assert.equal(again.body, first.body);
      assert.equal(verify(secret, again).type, 'company.changed');
      await page.goto(page.url().split('?')[0]!);
      assert.match(await page.locator('table.deliveries tbody tr').first().innerText(), /Delivered/);

      // The watchlist in Turkish.
      await page.getByRole('button', { name: 'Türkçe' }).click();
      await page.goto(`${base}/portal/watchlist`);
      assert.match(await main(), /500 şirketten 1 tanesi izleniyor\./);
      await shot(page, 'watch-7-watchlist-tr');
      await context.close();
      assert.deepEqual(problems, []);
    });

    test("a near match watched from its line; the operator sets the member's watchlist cap in the console (confirmed); the member sees it", async () => {
      const [near] = await makeCompanies(database.engine, t.clock, [{ company_name: 'Ege Zeytin Tarım A.Ş.', city: 'İzmir', reports: [makeReport()] }]);
      const { context, page } = await signedIn(admin);
      const main = () => page.locator('main').innerText();
      await page.goto(`${base}/portal/search`);
      await page.locator('#q').fill('Ege Zeytn Tarım');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/\/portal\/search\?/);
      const line = page.locator('section.near li', { hasText: `TR ${near}` });
      await line.getByRole('button', { name: 'Watch Ege Zeytin Tarım A.Ş.' }).click();
      await page.waitForURL(/\/portal\/watchlist$/);
      assert.match(await main(), new RegExp(`TR ${near} is now on the watchlist\\.`));
      assert.match(await main(), /2 of 500 companies watched\./);

      // The operator lowers the cap to 2 in the member list; the console asks for the password and a new code.
      const opContext = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 800 } });
      const op = await opContext.newPage();
      op.on('pageerror', (e) => problems.push(e.message));
      await op.goto(`${base}/portal/sign-in`);
      t.clock.advance(30_000);
      await op.locator('#email').fill(operator.email);
      await op.locator('#password').fill(operator.password);
      await op.locator('#code').fill(totpCodeAt(operator.totpSecret!, t.clock.now()));
      await op.locator('main form button[type=submit]').click();
      await op.waitForURL(/\/portal\/operator\/$/);
      await op.goto(`${base}/portal/operator/members`);
      const capForm = op.locator('form[action="/portal/operator/members/M-3001/watchlist-cap"]');
      await capForm.locator('input[name=watchlist_cap]').fill('2');
      await capForm.getByRole('button', { name: 'Save' }).click();
      assert.match(await op.locator('main').innerText(), /change the member's watchlist cap/);
      t.clock.advance(30_000);
      await op.locator('#confirm_password').fill(operator.password);
      await op.locator('#confirm_code').fill(totpCodeAt(operator.totpSecret!, t.clock.now()));
      await op.locator('main form button[type=submit]').click();
      await op.waitForURL(/done=member\.watchlist-cap&target=M-3001/);
      assert.match(await op.locator('main').innerText(), /Done: watchlist cap changed, M-3001\./);
      assert.equal(await op.locator('form[action="/portal/operator/members/M-3001/watchlist-cap"] input[name=watchlist_cap]').inputValue(), '2');
      await shot(op, 'watch-8-console-cap');
      await opContext.close();

      await page.reload();
      assert.match(await main(), /2 of 2 companies watched\./);
      await context.close();
      assert.deepEqual(problems, []);
    });
  });
}
