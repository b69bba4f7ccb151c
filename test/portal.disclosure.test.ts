/**
 * The disclosure in the console (D34) through the real routes, on both engines: what is held on a
 * company (every report in every state, an expired one too, filing members only as "a member",
 * the history, lookups per month counted from real searches), as a page and as a PDF rendered to
 * PNG; every print in the operator log; operators only (member user: 403; no session: sign-in);
 * Turkish and English; free text escaped.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeClaimants, makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { makePortalUser, signIn, type PortalBrowser } from './helpers/portal.ts';
import { createRetention, RETENTION_JOB_ACTOR } from '../src/retention/retention.service.ts';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';

const NAME = 'Öztürk <Işıklı> Çağdaş Gıda A.Ş.';

for (const engine of ENGINES) {
  describe(`portal disclosure (D34) [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let operator: PortalBrowser;
    let member: PortalBrowser;
    let taxId: string;
    const dir = mkdtempSync(join(tmpdir(), 'disclosure-'));

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      await makeClaimants(db, t.clock, 1);
      [taxId] = (await makeCompanies(database.engine, t.clock, [
        {
          company_name: NAME,
          reports: [
            makeReport({
              type: 'enforcement_plain',
              case: { enforcement_office: 'İzmir 2. İcra Dairesi', file_number: '2019/77', date: '2019-03-01' },
              description: 'Eski <b>dosya</b>',
            }),
            makeReport({
              type: 'concordat',
              reported_by: 'M-CLAIM-1',
              concordat_start: '2026-01-01',
              concordat_end: '2027-01-01',
              description: 'Konkordato süreci',
            }),
            // The member's own claim of 2023: past its 3 years, expired; the member no longer sees it.
            makeReport({ type: 'unpaid_debt', reported_by: 'M-CLAIM-1', filed_at: '2023-01-05 10:00:00', description: 'Ödenmemiş eski fatura' }),
          ],
        },
      ])) as [string];
      // The 2019 file is past its 5 years: expired, kept for the operators.
      await createRetention({ db, clock: t.clock, settings: DEFAULT_RETENTION, recordCompanyChanges: () => Promise.resolve(0) }).run(RETENTION_JOB_ACTOR);
      // Three searches find it this month (the audit writer counts them with its batch).
      const key = await makeKeyHolder(db, t.clock, { ref: 'M-SEARCH' });
      for (let i = 0; i < 3; i++) assert.equal((await search(t.app, key, `q=${taxId}&type=tax_id&country=TR`)).statusCode, 200);
      for (let i = 0; i < 100; i++) {
        const row = await db.selectFrom('company_lookups').select('lookups').executeTakeFirst();
        if (Number(row?.lookups) === 3) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      operator = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'operator', email: 'op@disclosure.test' }), t.clock);
      member = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-CLAIM-1' }));
    });
    after(async () => {
      await t?.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const url = (path: string, lang?: string) => `/portal/operator/${path}?country=TR&tax_id=${taxId}${lang ? `&lang=${lang}` : ''}`;

    test('the page: every report in every state, "a member", the history, the lookups; escaped; logged', async () => {
      const page = await operator.get(url('disclosure'), { 'accept-language': 'en' });
      assert.equal(page.statusCode, 200, page.body.slice(0, 500));
      const body = page.body;
      assert.match(body, /Öztürk &lt;Işıklı&gt; Çağdaş Gıda A\.Ş\./, 'the name escaped');
      assert.doesNotMatch(body, /<Işıklı>|<b>dosya/, 'no free text as markup');
      assert.match(body, /Eski &lt;b&gt;dosya&lt;\/b&gt;/);
      assert.match(body, /Expired/, 'the expired report is shown to the operator');
      assert.match(body, /a member \(a claim\)/);
      assert.doesNotMatch(body, /M-CLAIM-1|Claimant/, 'the filing member is never named');
      assert.match(body, /the service, by itself/, 'the expiry step, by the service');
      assert.match(body, /<td>3<\/td>/, 'three lookups this month');
      assert.match(body, /href="\/portal\/operator\/disclosure\.pdf\?country=TR&amp;tax_id=\d+"/);
      const entry = (await listOperatorLog(database.engine.db)).find((e) => e.action === 'disclosure.print');
      assert.equal(entry?.actor, 'op@disclosure.test');
      assert.equal(entry?.target, `company:TR/${taxId}`);
      assert.deepEqual(entry?.after, { form: 'page', records: 3, shown: 1, lookups_12_months: 3 });
    });

    test('D33 in the disclosure: a dispute over one of its reports is shown, with its state and receipt', async () => {
      const db = database.engine.db;
      const company = await db.selectFrom('companies').select('id').where('tax_id_norm', '=', taxId).executeTakeFirstOrThrow();
      const report = await db.selectFrom('reports').select('id').where('company_id', '=', company.id).where('type', '=', 'concordat').executeTakeFirstOrThrow();
      const now = t.clock.now();
      const dispute = await db
        .insertInto('disputes')
        .values({
          company_id: company.id,
          state: 'awaiting_member',
          identification_method: 'kep',
          identification_reference: 'KEP-1',
          received_on: '2026-02-02',
          grounds: 'Borç ödendi',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('dispute_reports').values({ dispute_id: dispute.id, report_id: report.id, response: 'awaited', undecided: 1 }).execute();
      const body = (await operator.get(url('disclosure'), { 'accept-language': 'en' })).body;
      assert.match(body, new RegExp(`Dispute ${dispute.id}`));
      assert.match(body, /Under dispute/);
      assert.match(body, /2026-02-02/);
    });

    test('Turkish, and the form when no tax ID is given; a mistyped tax ID or an unknown company is refused in words', async () => {
      const tr = await operator.get(url('disclosure'), { 'accept-language': 'tr' });
      assert.equal(tr.statusCode, 200);
      assert.match(tr.body, /hakkında tutulan kayıtlar/);
      assert.match(tr.body, /Süresi doldu/);
      assert.match(tr.body, /bir üye \(üye bildirimi\)/);
      const form = await operator.get('/portal/operator/disclosure', { 'accept-language': 'en' });
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /<form method="get" action="\/portal\/operator\/disclosure"/);
      const typo = await operator.get('/portal/operator/disclosure?country=TR&tax_id=1234567891', { 'accept-language': 'en' });
      assert.equal(typo.statusCode, 400);
      const unknown = await operator.get('/portal/operator/disclosure?country=TR&tax_id=1111111114', { 'accept-language': 'en' });
      assert.ok([400, 404].includes(unknown.statusCode), String(unknown.statusCode));
    });

    test('the PDF: a download, every page rendered to PNG, the text in it; logged as a PDF print', async () => {
      const res = await operator.get(url('disclosure.pdf'), { 'accept-language': 'tr' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="disclosure-TR-\d+-\d{4}-\d{2}-\d{2}\.pdf"$/);
      const pdf = join(dir, `${engine.name}.pdf`);
      writeFileSync(pdf, res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      assert.match(text, /Öztürk <Işıklı> Çağdaş Gıda A\.Ş\./, 'the name as it is, in the PDF');
      assert.match(text, /bir üye/);
      assert.match(text, /Süresi doldu/);
      execFileSync('pdftoppm', ['-r', '60', '-png', pdf, join(dir, `${engine.name}-page`)]);
      const pages = readdirSync(dir).filter((f) => f.startsWith(`${engine.name}-page`) && f.endsWith('.png'));
      assert.ok(pages.length >= 1);
      for (const page of pages) assert.ok(statSync(join(dir, page)).size > 5000, `${page} has content`);
      if (process.env.DISCLOSURE_PNG_DIR) execFileSync('cp', [join(dir, pages.sort()[0]!), join(process.env.DISCLOSURE_PNG_DIR, `${engine.name}.png`)]);
      const entry = (await listOperatorLog(database.engine.db)).find((e) => e.action === 'disclosure.print');
      assert.equal((entry?.after as { form: string }).form, 'pdf');
    });

    test('operators only: a member user gets 403, no session goes to sign-in; nothing is logged', async () => {
      const before = (await listOperatorLog(database.engine.db, { limit: 1000 })).filter((e) => e.action === 'disclosure.print').length;
      for (const path of ['disclosure', 'disclosure.pdf']) {
        assert.equal((await member.get(url(path))).statusCode, 403, path);
        const anonymous = await t.app.inject({ method: 'GET', url: url(path) });
        assert.equal(anonymous.statusCode, 303, path);
        assert.match(String(anonymous.headers.location), /^\/portal\/sign-in/);
      }
      const after = (await listOperatorLog(database.engine.db, { limit: 1000 })).filter((e) => e.action === 'disclosure.print').length;
      assert.equal(after, before);
    });

    test('the console: the company page shows the expired report and links to the disclosure; the member does not see it', async () => {
      const open = await operator.get(`/portal/operator/companies?country=TR&tax_id=${taxId}`);
      const company = await operator.get(String(open.headers.location), { 'accept-language': 'en' });
      assert.equal(company.statusCode, 200);
      assert.match(company.body, /Expired/);
      assert.match(company.body, /href="\/portal\/operator\/disclosure\?country=TR&amp;tax_id=\d+"/);
      assert.match(company.body, /Ödenmemiş eski fatura/, 'the operator sees the expired claim');
      const mine = await member.get('/portal/reports', { 'accept-language': 'en' });
      assert.equal(mine.statusCode, 200);
      const ids = await database.engine.db.selectFrom('reports').select(['id', 'type', 'status']).where('reported_by', 'is not', null).execute();
      const current = ids.find((r) => r.type === 'concordat')!;
      const expired = ids.find((r) => r.type === 'unpaid_debt')!;
      assert.equal(expired.status, 'expired');
      assert.match(mine.body, new RegExp(`<td>${current.id}</td>`), "the member's current report");
      assert.doesNotMatch(mine.body, new RegExp(`<td>${expired.id}</td>|Expired`), 'its expired claim is the operators’ only');
    });
  });
}
