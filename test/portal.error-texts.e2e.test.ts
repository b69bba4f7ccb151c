/**
 * D27 in a real browser (Chromium through playwright-core) on each engine: a member whose browser
 * asks for Turkish types a mistyped tax ID into "File a report" and reads the hint under the field
 * in Turkish, then files with a date in the future and an amount that is no number and reads each
 * problem in Turkish; a browser asking for English reads the same in English.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { launchChromium } from './helpers/browser.ts';
import { makeMember } from './helpers/factories.ts';
import { makePortalUser, type PortalUser } from './helpers/portal.ts';

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

/** `UPDATE_SCREENSHOTS=1`: the refused form in each language into docs/portal/, as the other walks do. */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

const WORDS = {
  'tr-TR': {
    hint: /^“1234567891” geçerli bir TR vergi numarası değil: beklenen VKN \(10 rakam, kontrol basamaklı/,
    problems: [
      /^“1234567891” geçerli bir TR vergi numarası değil/,
      /^Olay tarihi \(2026-12-01\) gelecekte bir tarih \(bugün 2026-11-21\)\.$/,
      /^Tutar 1250,50 gibi bir sayı olmalı; “on bin” sayı değil\.$/,
    ],
  },
  'en-GB': {
    hint: /^'1234567891' is not a valid TR tax ID: expected VKN \(10 digits with check digits/,
    problems: [
      /^'1234567891' is not a valid TR tax ID/,
      /^The date of the event, 2026-12-01, is in the future \(today is 2026-11-21\)\.$/,
      /^The amount must be a number such as 1250\.50; “on bin” is not\.$/,
    ],
  },
} as const;

for (const engine of ENGINES) {
  describe(`a refused filing in the browser's language [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let user: PortalUser;

    before(async () => {
      database = await engine.create();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      t = await makeTestApp(database, { publicUrl: base });
      await makeMember(database.engine.db, t.clock, { ref: 'M-TR' });
      user = await makePortalUser(database.engine.db, t.clock, { role: 'member_user', memberRef: 'M-TR' });
      await t.app.listen({ host: '127.0.0.1', port });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
    });

    for (const locale of ['tr-TR', 'en-GB'] as const) {
      test(`${locale}: the tax-ID hint and every problem of the refused form`, async () => {
        const context = await browser.newContext({ locale, viewport: { width: 1200, height: 800 } });
        try {
          const page = await context.newPage();
          const scriptErrors: string[] = [];
          page.on('pageerror', (e) => scriptErrors.push(e.message));
          await page.goto(`${base}/portal/sign-in`);
          await page.locator('#email').fill(user.email);
          await page.locator('#password').fill(user.password);
          await page.locator('main form button[type=submit]').click();
          await page.waitForURL(/\/portal\/$/);
          await page.goto(`${base}/portal/reports/new`);
          await page.locator('#f-company_name').fill('Karadeniz Nakliyat Ltd. Şti.');
          await page.locator('#f-tax_id').fill('1234567891');
          const hint = page.locator('#tax-id-hint.error');
          await hint.waitFor();
          assert.match(await hint.innerText(), WORDS[locale].hint);
          await page.locator('#f-city').fill('Samsun');
          await page.locator('#f-type').selectOption('unpaid_debt');
          await page.locator('#f-event_date').fill('2026-12-01');
          await page.locator('#f-amount').fill('on bin');
          await page.locator('#f-currency').fill('TRY');
          await page.locator('#f-description').fill('Four freight invoices of September unpaid.');
          await page.locator('main form button[type=submit]').click();
          const items = page.locator('[role=alert] li');
          await items.first().waitFor();
          const problems = await items.allInnerTexts();
          assert.equal(problems.length, WORDS[locale].problems.length, problems.join('\n'));
          WORDS[locale].problems.forEach((pattern, i) => assert.match(problems[i]!, pattern));
          assert.equal(await page.locator('#f-city').inputValue(), 'Samsun', 'the form keeps what was typed');
          if (SCREENSHOTS && engine.name === 'sqlite') {
            mkdirSync('docs/portal', { recursive: true });
            await page.screenshot({ path: `docs/portal/reports-refused-${locale}.png`, fullPage: true });
          }
          assert.deepEqual(scriptErrors, []);
        } finally {
          await context.close();
        }
      });
    }
  });
}
