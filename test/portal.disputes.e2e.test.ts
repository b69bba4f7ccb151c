/**
 * Issue 31's dispute walk in a real browser (Chromium through playwright-core) against a real
 * server on each engine: the operator records a dispute (check boxes, identification, a
 * document); the filing member sees it with its 15 days and supports it with a document; the API
 * marks the reports disputed; the operator decides `corrected` and the API shows the correction.
 * Then a claim left unsupported for 15 days (fake clock, the daily job on the runner) is
 * deactivated "not supported in a dispute", as the operator's company page and the member's
 * disputes page show. With UPDATE_SCREENSHOTS=1 each page is saved to docs/portal/disputes-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { launchChromium } from './helpers/browser.ts';
import { countries, makeKeyHolder, makeMember, nextVkn } from './helpers/factories.ts';
import { claimInput } from './helpers/filing.ts';
import { PDF_FILE } from './helpers/files.ts';
import { captureLog } from './helpers/jobs.ts';
import { makePortalUser, type PortalUser } from './helpers/portal.ts';
import { memberIdOf } from './helpers/users.ts';
import { totpCodeAt } from '../src/users/totp.ts';
import { fileReport, approveReport } from './helpers/use-cases.ts';
import { recordDispute } from './helpers/use-cases.ts';
import { createDisputes } from '../src/disputes/disputes.service.ts';
import { disputeLapseJob } from '../src/disputes/dispute-lapse.job.ts';
import { ensureJobRow } from '../src/jobs/job-state.repository.ts';
import { runPeriodicIfDue } from '../src/jobs/periodic-run.ts';
import { firstDue } from '../src/jobs/schedule.ts';
import { turkeyDateOf } from '../src/lib/calendar-date.ts';

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const DAY = 24 * 3_600_000;

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
  mkdirSync('docs/portal', { recursive: true });
  await page.screenshot({ path: `docs/portal/disputes-${name}.png`, fullPage: true });
}

type Item = { report_id: number; description: string; disputed: boolean; amount?: number };

for (const engine of ENGINES) {
  describe(`disputes in a browser: record, support, decide corrected; an unsupported claim lapses [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let key: string;
    let operator: PortalUser;
    const members: Record<string, PortalUser> = {};
    const problems: string[] = [];

    before(async () => {
      database = await engine.create();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      t = await makeTestApp(database, { publicUrl: base });
      const db = database.engine.db;
      key = await makeKeyHolder(db, t.clock, { ref: 'M-API', dailyLimit: 1000 });
      for (const [ref, name] of [
        ['M-2001', 'Anadolu Gıda'],
        ['M-2002', 'Marmara Lojistik'],
      ] as const) {
        await makeMember(db, t.clock, { ref });
        await db.updateTable('members').set({ name }).where('ref', '=', ref).execute();
        members[ref] = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: ref, email: `finans@${ref.toLowerCase()}.example` });
      }
      operator = await makePortalUser(db, t.clock, { role: 'operator', email: 'operator@bureau.example', name: 'Deniz Operatör' });
      await t.app.listen({ host: '127.0.0.1', port });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
    });

    const deps = () => ({ db: database.engine.db, clock: t.clock });
    const filer = async (ref: string) => ({ userId: members[ref]!.id, memberId: await memberIdOf(database.engine.db, ref) });
    /** A company with an approved enforcement file by M-2001 and an approved claim by M-2002. */
    async function company(name: string) {
      const taxId = nextVkn();
      const official = await fileReport({ ...deps(), countries }, await filer('M-2001'), {
        ...claimInput(taxId, { companyName: name, city: 'Kocaeli' }),
        type: 'enforcement_plain',
        amount: null,
        currency: null,
        description: 'Enforcement proceedings for three unpaid freight invoices.',
        case: { enforcement_office: 'Kocaeli 2. İcra Dairesi', file_number: '2026/4411', date: '2026-06-02' },
      });
      const claim = await fileReport({ ...deps(), countries }, await filer('M-2002'), claimInput(taxId, { companyName: name, city: 'Kocaeli' }));
      const op = { userId: operator.id };
      await approveReport(deps(), op, official.reportId);
      await approveReport(deps(), op, claim.reportId);
      return { taxId, official: official.reportId, claim: claim.reportId };
    }

    async function signedIn(user: PortalUser, locale: string): Promise<Page> {
      const context = await browser.newContext({ locale, viewport: { width: 1200, height: 800 } });
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && problems.push(m.text()));
      await page.goto(`${base}/portal/sign-in`);
      await page.locator('#email').fill(user.email);
      await page.locator('#password').fill(user.password);
      if (user.totpSecret) await page.locator('#code').fill(totpCodeAt(user.totpSecret, t.clock.now()));
      await page.locator('main form button[type=submit]').click();
      await page.waitForURL(/\/portal\/(operator\/)?$/);
      return page;
    }

    const items = async (taxId: string) => {
      const res = await fetch(`${base}/api/v1/search?q=${taxId}&type=tax_id&country=TR`, { headers: { 'x-api-key': key } });
      const body = (await res.json()) as { results: Array<{ report_count: number; reports: Item[] }> };
      return body.results[0] ?? { report_count: 0, reports: [] };
    };

    test('record → the member supports → decided corrected; an unsupported claim lapses after 15 days', async () => {
      const a = await company('Karadeniz Nakliyat Ltd. Şti.');
      // 1. The operator records the company's dispute: both reports, KEP, the grounds, a document.
      const op = await signedIn(operator, 'en-GB');
      await op.goto(`${base}/portal/operator/`);
      await op.getByRole('link', { name: 'Disputes by reported companies' }).click();
      await op.getByRole('link', { name: 'Record a dispute' }).click();
      await op.locator('input[name=tax_id]').fill(a.taxId);
      await op.getByRole('button', { name: 'Show its reports' }).click();
      await op.locator(`#r-${a.official}`).check();
      await op.locator(`#r-${a.claim}`).check();
      await op.locator('#d-method').selectOption('kep');
      await op.locator('#d-reference').fill('karadeniznakliyat@hs01.kep.tr');
      await op.locator('#d-grounds').fill('The invoices were paid on 2 October 2026; the receipts are attached.');
      await op.locator('#d-attachments').setInputFiles({ name: 'dekont-2026-10-02.pdf', mimeType: 'application/pdf', buffer: PDF_FILE });
      await shot(op, '1-record');
      await op.getByRole('button', { name: 'Record the dispute' }).click();
      await op.waitForURL(/\/portal\/operator\/disputes\/\d+\?done=record/);
      const disputeId = Number(/disputes\/(\d+)/.exec(op.url())![1]);
      const recorded = await op.locator('main').innerText();
      assert.match(recorded, /30 days left/);
      assert.match(recorded, /15 days left/);
      assert.match(recorded, /dekont-2026-10-02\.pdf/);
      assert.equal((await items(a.taxId)).reports.filter((r) => r.disputed).length, 2, 'both reports disputed in the API');
      assert.equal((await items(a.taxId)).report_count, 2, 'and as visible as before');

      // 2. The filing member (in Turkish) sees its report with its 15 days and supports it with a document.
      const member = await signedIn(members['M-2001']!, 'tr-TR');
      await member.getByRole('link', { name: 'İtirazlar' }).click();
      const asked = await member.locator('main').innerText();
      assert.match(asked, /15 gün kaldı/);
      assert.doesNotMatch(asked, new RegExp(`\\b${a.claim}\\b.*Desteklendi`), "another member's report is not shown");
      await member.locator(`#s-${disputeId}-${a.official}`).fill('İcra dosyası açık; borç ödenmedi. İcra dairesinin yazısı ekte.');
      await member.locator(`#a-${disputeId}-${a.official}`).setInputFiles({ name: 'icra-yazisi.pdf', mimeType: 'application/pdf', buffer: PDF_FILE });
      await member.getByRole('button', { name: 'Bildirimi destekle' }).click();
      await member.waitForURL(/done=support/);
      assert.match(await member.locator('main').innerText(), /Desteklendi/);
      await shot(member, '2-member-supported');

      // 3. The operator sees the support and decides corrected: the enforcement file's description.
      await op.goto(`${base}/portal/operator/disputes`);
      assert.match(await op.locator('main').innerText(), /Karadeniz Nakliyat/);
      await shot(op, '3-queue');
      await op.goto(`${base}/portal/operator/disputes/${disputeId}`);
      assert.match(await op.locator('main').innerText(), /İcra dosyası açık/);
      await op.locator('#o-corrected').check();
      await op.locator('#d-reason').fill('Two of the three invoices were paid; the enforcement record is corrected.');
      await op.locator(`#c-${a.official}-description`).fill('Enforcement proceedings for one unpaid freight invoice (two paid in October 2026).');
      await op.getByRole('button', { name: 'Decide', exact: true }).click();
      await op.waitForURL(/done=decide/);
      assert.match(await op.locator('main').innerText(), /Record corrected/);
      await shot(op, '4-decided-corrected');
      const corrected = await items(a.taxId);
      assert.equal(
        corrected.reports.find((r) => r.report_id === a.official)!.description,
        'Enforcement proceedings for one unpaid freight invoice (two paid in October 2026).',
      );
      assert.deepEqual(
        corrected.reports.map((r) => r.disputed),
        [false, false],
      );

      // 4. Another company's claim: nobody supports it; the daily job deactivates it after 15 days.
      const b = await company('Ege Depolama A.Ş.');
      await recordDispute(
        deps(),
        { userId: operator.id },
        {
          identificationMethod: 'notarised_letter',
          identificationReference: 'Beyoğlu 14. Noterliği, yevmiye 22871',
          receivedOn: turkeyDateOf(t.clock.now()),
          grounds: 'We never received these services.',
          reportIds: [b.claim],
        },
      );
      const job = disputeLapseJob({ disputes: createDisputes(deps()), log: captureLog() });
      const runDeps = { ...deps(), log: captureLog(), holder: 'e2e', leaseMs: 60_000, failureRetryMs: 60_000, stopping: new AbortController().signal };
      await ensureJobRow(database.engine.db, job.name, firstDue(job.schedule, t.clock.now()));
      await runPeriodicIfDue(job, runDeps);
      t.clock.advance(16 * DAY);
      assert.equal(await runPeriodicIfDue(job, runDeps), 'succeeded');
      assert.equal((await items(b.taxId)).report_count, 1, 'the claim left search');
      const op2 = await signedIn(operator, 'en-GB');
      const companyId = Number(
        (await database.engine.db.selectFrom('reports').select('company_id').where('id', '=', b.claim).executeTakeFirstOrThrow()).company_id,
      );
      await op2.goto(`${base}/portal/operator/companies/${companyId}`);
      const file = await op2.locator('main').innerText();
      assert.match(file, /not supported in a dispute/);
      assert.match(file, /Deactivated/);
      await shot(op2, '5-lapsed-company');
      const claimant = await signedIn(members['M-2002']!, 'tr-TR');
      await claimant.goto(`${base}/portal/disputes`);
      assert.match(await claimant.locator('main').innerText(), /Süresinde desteklenmedi/);
      await shot(claimant, '6-member-lapsed');
      assert.deepEqual(problems, []);
    });
  });
}
