/**
 * The webhook pages (D32) in a real browser (Chromium through playwright-core) against a real
 * server on each engine, with a local HTTPS receiver started here (allowed by
 * RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE's setting) and a delivery worker on the same database: a
 * member_admin registers an endpoint (the secret shown once), sends a test event, which arrives
 * signed (verified by the standardwebhooks package, not our code) and shows as delivered in the
 * portal; redelivers it (same webhook-id); rotates the secret (the old one still verifies for
 * 24 h); a 410 disables the endpoint and the page says why. No script error, no CSP violation.
 * With UPDATE_SCREENSHOTS=1 the pages are saved to docs/portal/webhooks-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { launchChromium } from './helpers/browser.ts';
import { makeMember } from './helpers/factories.ts';
import { makePortalUser, type PortalUser } from './helpers/portal.ts';
import { startReceiver, type Receiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';
import { deliverDue, webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import type { JobRunner } from '../src/jobs/job-runner.ts';

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SHOTS_DIR = 'docs/portal';

async function shot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

/** The standardwebhooks package's verdict on one received request: its payload, or it throws. */
const verify = (secret: string, got: ReceivedWebhook) => new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string };

for (const engine of ENGINES) {
  describe(`the webhook pages in a browser [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let receiver: Receiver;
    let world: WebhookWorld;
    let runner: JobRunner;
    let admin: PortalUser;
    const problems: string[] = [];

    before(async () => {
      database = await engine.create();
      receiver = await startReceiver();
      // Near the real time: the receiver's library checks webhook-timestamp against its own clock.
      t = await makeTestApp(database, { webhookAllowPrivateAddresses: true }, Date.now());
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'M-2001' });
      admin = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-2001', email: 'zeynep@example.com', name: 'Zeynep Arslan' });
      // The delivery worker `serve` runs, here on the test's clock, trusting the receiver's certificate.
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

    test('register → secret once → test event arrives signed → delivered in the portal → redeliver → rotate → 410 disables', async () => {
      const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1100, height: 800 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const page = await context.newPage();
      // A refused form answers 400 by design (Chromium logs that as a failed load); a failed resource shows below.
      page.on(
        'console',
        (m) => (m.type() === 'error' || /Content Security Policy/i.test(m.text())) && !/Failed to load resource/.test(m.text()) && problems.push(m.text()),
      );
      page.on(
        'response',
        (r) => r.status() >= 400 && r.request().resourceType() !== 'document' && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${r.url()}`),
      );
      page.on('pageerror', (e) => problems.push(e.message));
      const main = () => page.locator('main').innerText();
      const hookUrl = receiver.url('/risklookup/hook');

      await page.goto(`${base}/portal/sign-in`);
      await page.locator('#email').fill(admin.email);
      await page.locator('#password').fill(admin.password);
      await page.locator('main form button[type=submit]').click();
      await page.waitForURL(/\/portal\/$/);
      await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
      await page.waitForURL(/\/portal\/webhooks$/);
      assert.match(await main(), /0 of at most 3 endpoints registered/);

      // A plain-HTTP address is refused with the reason, the typed address kept.
      await page.getByLabel('HTTPS address').fill(hookUrl.replace('https:', 'http:'));
      await page.getByLabel('Description (optional)').fill('ERP hook');
      await page.getByRole('button', { name: 'Register the endpoint' }).click();
      assert.match(await main(), /The address must start with https:\/\/: deliveries are sent over HTTPS only/);
      assert.equal(await page.getByLabel('HTTPS address').inputValue(), hookUrl.replace('https:', 'http:'));
      await shot(page, 'webhooks-1-refused');

      // Registered: the signing secret, this once.
      await page.getByLabel('HTTPS address').fill(hookUrl);
      await page.getByRole('button', { name: 'Register the endpoint' }).click();
      const secret = (await page.locator('#webhook-secret').innerText()).trim();
      assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.match(await main(), /shown only this once and cannot be shown again/);
      // The copy button (our own script, under the CSP) puts exactly the secret on the clipboard.
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
      await shot(page, 'webhooks-2-secret');
      await page.goto(`${base}/portal/webhooks`);
      assert.ok(!(await page.content()).includes(secret.slice(6)), 'not shown again');
      assert.match(await main(), /Status\s+Enabled/);

      // A test event: queued, sent by the worker, verified by the receiver's library, shown as delivered.
      await page.getByRole('button', { name: `Send a test event to ${hookUrl}` }).click();
      await page.waitForURL(/\/deliveries\?sent=\d+$/);
      assert.match(await main(), /A test event was queued \(webhook-id msg_test_/);
      await deliverDue(runner);
      await receiver.waitFor(1);
      const first = receiver.received[0]!;
      assert.equal(first.path, '/risklookup/hook');
      assert.equal(verify(secret, first).type, 'webhook.test');
      const webhookId = String(first.headers['webhook-id']);
      await page.reload();
      const row = page.locator('table.deliveries tbody tr').first();
      assert.match(await row.innerText(), new RegExp(`webhook\\.test\\s+${webhookId}\\s+Delivered\\s+1\\s+204`));
      await shot(page, 'webhooks-3-deliveries');

      // Redelivered: the same message again (same webhook-id), signed again.
      await row.getByRole('button', { name: `Redeliver ${webhookId}` }).click();
      await page.waitForURL(/redelivered=\d+$/);
      assert.match(await main(), /is queued again: the same webhook-id and body/);
      await deliverDue(runner);
      await receiver.waitFor(2);
      const again = receiver.received[1]!;
      assert.equal(again.headers['webhook-id'], webhookId);
      assert.equal(again.body, first.body);
      assert.equal(verify(secret, again).type, 'webhook.test');
      await page.goto(page.url().split('?')[0]!);
      assert.match(await page.locator('table.deliveries tbody tr').first().innerText(), /Delivered\s+1\s+204/);

      // Rotated: a new secret once; the page says the old one signs for 24 more hours, and it does.
      await page.getByRole('link', { name: 'All endpoints' }).click();
      await page.getByRole('button', { name: `Rotate the signing secret of ${hookUrl}` }).click();
      const rotated = (await page.locator('#webhook-secret').innerText()).trim();
      assert.notEqual(rotated, secret);
      assert.match(await main(), /The previous secret stays valid for 24 hours, until \d{4}-\d\d-\d\d \d\d:\d\d \(Turkey time\)/);
      await shot(page, 'webhooks-4-rotated');
      await page.goto(`${base}/portal/webhooks`);
      await page.getByRole('button', { name: `Send a test event to ${hookUrl}` }).click();
      await page.waitForURL(/sent=\d+$/);
      // The receiver answers 410 Gone from now on: the endpoint is disabled at once, and the page says why.
      receiver.answer = () => ({ status: 410 });
      await deliverDue(runner);
      await receiver.waitFor(3);
      const third = receiver.received[2]!;
      assert.equal(verify(rotated, third).type, 'webhook.test', 'the new secret verifies');
      assert.equal(verify(secret, third).type, 'webhook.test', 'the old secret still verifies for 24 hours');
      await page.reload();
      assert.match(
        await page.locator('table.deliveries tbody tr').first().innerText(),
        /Failed\s+1\s+410\s+[\s\S]*answered 410 Gone: the receiver asked for no more deliveries/,
      );
      assert.match(await main(), /This endpoint is disabled/);
      await page.getByRole('link', { name: 'All endpoints' }).click();
      assert.match(await main(), /Disabled since[\s\S]*Why\s+The endpoint answered 410 Gone, which asks for no more deliveries\./);
      await shot(page, 'webhooks-5-disabled');

      // In Turkish, the same page and reason.
      await page.getByRole('button', { name: 'Türkçe' }).click();
      await page.waitForURL(/\/portal\/$/);
      await page.goto(`${base}/portal/webhooks`);
      assert.match(await main(), /Neden\s+Adres 410 Gone yanıtı verdi; bu, başka gönderim istenmediği anlamına gelir\./);
      await shot(page, 'webhooks-6-disabled-tr');

      // Enabled again: its test event is delivered once more.
      receiver.answer = () => ({ status: 204 });
      await page.getByRole('button', { name: `${hookUrl} adresini yeniden etkinleştir` }).click();
      assert.match(await main(), /yeniden etkin/);
      await context.close();
      assert.deepEqual(problems, []);
    });
  });
}
