/**
 * The report pages through the real routes on every engine (D29, D30): a member files through the
 * multipart form, sees it under "My reports"; an operator moderates from the queue; downloads are
 * attachments with nosniff and reach only the filing member and operators; three members' approved
 * claims turn visible in the API at the third, and one withdrawal hides them again.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeKeyHolder, makeMember, nextVkn } from './helpers/factories.ts';
import { EXE_FILE, PDF_FILE, squash } from './helpers/files.ts';
import { postMultipart, type FilePart } from './helpers/multipart.ts';
import { makePortalUser, PORTAL_ORIGIN, PortalBrowser, signIn } from './helpers/portal.ts';

const claimFields = (taxId: string) => ({
  company_name: 'Sayfa Taşımacılık A.Ş.',
  tax_id: taxId,
  country: 'TR',
  city: 'Kocaeli',
  type: 'unpaid_debt',
  event_date: '2026-10-15',
  amount: '12500.00',
  currency: 'TRY',
  description: 'Three invoices unpaid since October.',
});

const pdf = (fileName = 'fatura.pdf'): FilePart => ({ name: 'attachments', fileName, type: 'application/pdf', content: PDF_FILE });

for (const engine of ENGINES) {
  describe(`portal report pages [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    const members: PortalBrowser[] = [];
    let operator: PortalBrowser;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      key = await makeKeyHolder(db, t.clock, { ref: 'P-SEARCH', dailyLimit: 1000 });
      for (const ref of ['P-1', 'P-2', 'P-3']) {
        await makeMember(db, t.clock, { ref });
        members.push(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: ref, email: `user@${ref.toLowerCase()}.test` })));
      }
      const op = await makePortalUser(db, t.clock, { role: 'operator', email: 'op@bureau.test' });
      operator = await signIn(t.app, op, t.clock);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const idFrom = (location: unknown) => Number(/filed=(\d+)/.exec(String(location))?.[1]);
    const fileThroughForm = async (browser: PortalBrowser, taxId: string, files: FilePart[] = []) => {
      await browser.get('/portal/reports/new');
      const res = await postMultipart(browser, '/portal/reports', claimFields(taxId), files);
      assert.equal(res.statusCode, 303, res.body.slice(0, 600));
      return idFrom(res.headers.location);
    };
    const attachmentIdOf = async (reportId: number) =>
      Number((await database.engine.db.selectFrom('report_attachments').select('id').where('report_id', '=', reportId).executeTakeFirstOrThrow()).id);

    test('D29: a member files through the form and sees it pending under "My reports", with its attachment', async () => {
      const id = await fileThroughForm(members[0]!, nextVkn(), [pdf()]);
      const page = await members[0]!.get(`/portal/reports?filed=${id}`);
      assert.equal(page.statusCode, 200);
      assert.match(squash(page.body), new RegExp(`<td>${id}</td><td>Sayfa Taşımacılık A.Ş.`));
      assert.match(page.body, /Beklemede|Pending/);
      assert.match(squash(page.body), /href="\/portal\/reports\/attachments\/\d+">fatura.pdf</);
    });

    test('D29: the same enforcement form posted three times: one report, the replays get 409 with the reason', async () => {
      const fields = {
        ...claimFields(nextVkn()),
        type: 'enforcement_plain',
        amount: '',
        currency: '',
        case_enforcement_office: 'Kocaeli 2. İcra',
        case_file_number: '2026/555',
        case_date: '2026-10-16',
      };
      await members[1]!.get('/portal/reports/new');
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await postMultipart(members[1]!, '/portal/reports', fields, []));
      assert.deepEqual(
        answers.map((a) => a.statusCode),
        [303, 409, 409],
        answers.map((a) => a.body.slice(0, 300)).join('\n'),
      );
      // In the page's language (Turkish by default), not the service's English.
      assert.match(answers[1]!.body, /aynı türde, aynı olay tarihli \(ve aynı dosya numaralı\) bekleyen ya da onaylanmış bir bildirimi zaten var/);
    });

    test('D29: a renamed .exe, a fourth file, a file over 5 MB and a mistyped tax ID are refused, nothing written', async () => {
      const countBefore = (await database.engine.db.selectFrom('reports').select('id').execute()).length;
      await members[0]!.get('/portal/reports/new');
      const exe = await postMultipart(members[0]!, '/portal/reports', claimFields(nextVkn()), [
        { name: 'attachments', fileName: 'fatura.pdf', type: 'application/pdf', content: EXE_FILE },
      ]);
      assert.equal(exe.statusCode, 400);
      assert.match(exe.body, /“fatura.pdf” eki bir Windows programı, belge değil/);
      assert.match(exe.body, /value="Sayfa Taşımacılık A.Ş."/, 'the form keeps what was typed');
      const badId = await postMultipart(members[0]!, '/portal/reports', claimFields('1234567891'), []);
      assert.equal(badId.statusCode, 400);
      assert.match(badId.body, /“1234567891” geçerli bir TR vergi numarası değil: beklenen VKN/);
      const four = await postMultipart(members[0]!, '/portal/reports', claimFields(nextVkn()), [pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf'), pdf('d.pdf')]);
      assert.equal(four.statusCode, 413);
      assert.match(four.body, /en çok 3 ek/, 'the limits, in the page language');
      const big = Buffer.concat([PDF_FILE, Buffer.alloc(5 * 1024 * 1024, 0x20)]);
      const tooBig = await postMultipart(members[0]!, '/portal/reports', claimFields(nextVkn()), [{ ...pdf('buyuk.pdf'), content: big }]);
      assert.equal(tooBig.statusCode, 400);
      assert.match(tooBig.body, /“buyuk.pdf” eki çok büyük: bir ek en çok 5 MB olabilir/);
      assert.equal((await database.engine.db.selectFrom('reports').select('id').execute()).length, countBefore);
    });

    test('D29: an upload without a member session is refused before its body is read', async () => {
      const anonymous = new PortalBrowser(t.app);
      const res = await postMultipart(anonymous, '/portal/reports', claimFields(nextVkn()), [pdf()], { csrf: 'x' });
      assert.equal(res.statusCode, 403);
      assert.equal((await postMultipart(operator, '/portal/reports', claimFields(nextVkn()), [pdf()])).statusCode, 403, 'nor by an operator');
      // A body that cannot be parsed shows the order: refused (403), not a parse error (400).
      const garbage = await t.app.inject({
        method: 'POST',
        url: '/portal/reports',
        headers: { 'content-type': 'multipart/form-data; boundary=x', origin: PORTAL_ORIGIN },
        payload: 'not multipart at all',
      });
      assert.equal(garbage.statusCode, 403);
    });

    test("D9 as typed: the form's check answers with the API's rule, check digits included, in the form's language", async () => {
      const taxId = nextVkn();
      const good = await members[0]!.get(`/portal/reports/check-tax-id?country=TR&tax_id=TR${taxId}`);
      assert.equal(good.statusCode, 200);
      assert.deepEqual(good.json(), { valid: true, canonical: taxId, id_type: 'VKN' });
      const bad = await members[0]!.get('/portal/reports/check-tax-id?country=TR&tax_id=1234567891');
      assert.deepEqual(bad.json<{ valid: boolean }>().valid, false);
      assert.match(bad.json<{ message: string }>().message, /^“1234567891” geçerli bir TR vergi numarası değil: beklenen VKN \(10 rakam, kontrol basamaklı/);
      const english = await members[0]!.get('/portal/reports/check-tax-id?country=TR&tax_id=1234567891', { 'accept-language': 'en' });
      assert.match(english.json<{ message: string }>().message, /^'1234567891' is not a valid TR tax ID: expected VKN \(10 digits with check digits/);
      // A hand-made URL with a parameter twice gets the portal's refusal that names it (issue 27, finding 9), not a 500.
      for (const query of ['country=TR&country=DE&tax_id=123', 'country=TR&tax_id=1&tax_id=2']) {
        const twice = await members[0]!.get(`/portal/reports/check-tax-id?${query}`);
        assert.equal(twice.statusCode, 400, query);
        assert.match(twice.body, /“(country|tax_id)” parametresi adreste birden fazla kez verilmiş/);
      }
      const form = await members[0]!.get('/portal/reports/new');
      assert.match(form.body, /<script src="\/portal\/reports\/tax-id-check.js" defer><\/script>/);
      const script = await members[0]!.get('/portal/reports/tax-id-check.js');
      assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    });

    test('D27: the multipart form needs its CSRF token', async () => {
      await members[0]!.get('/portal/reports/new');
      const res = await postMultipart(members[0]!, '/portal/reports', claimFields(nextVkn()), [], { csrf: null });
      assert.equal(res.statusCode, 403);
    });

    test('D29: downloads are attachments with nosniff, for the filing member and operators only', async () => {
      const id = await fileThroughForm(members[1]!, nextVkn(), [pdf('dekont.pdf')]);
      const attachment = await attachmentIdOf(id);
      for (const [browser, url] of [
        [members[1]!, `/portal/reports/attachments/${attachment}`],
        [operator, `/portal/operator/attachments/${attachment}`],
      ] as const) {
        const res = await browser.get(url);
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-type'], 'application/pdf');
        assert.equal(res.headers['content-disposition'], `attachment; filename="dekont.pdf"; filename*=UTF-8''dekont.pdf`);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.ok(res.rawPayload.equals(PDF_FILE));
      }
      const other = await members[2]!.get(`/portal/reports/attachments/${attachment}`);
      const missing = await members[2]!.get(`/portal/reports/attachments/${attachment + 1000}`);
      assert.equal(other.statusCode, 404);
      assert.equal(other.body.replace(`/${attachment}"`, '/ID"'), missing.body.replace(`/${attachment + 1000}"`, '/ID"'), 'the same page as for no attachment');
      assert.equal((await members[2]!.get(`/portal/operator/attachments/${attachment}`)).statusCode, 403, 'no operator page for a member');
    });

    test('D30: the operator rejects from the queue with a reason; the member sees the outcome and the reason', async () => {
      const id = await fileThroughForm(members[2]!, nextVkn(), [pdf()]);
      const queue = await operator.get('/portal/operator/queue');
      assert.equal(queue.statusCode, 200);
      assert.match(queue.body, new RegExp(`action="/portal/operator/reports/${id}/reject"`));
      assert.match(queue.body, /P-3 \(Member P-3\)/, 'the operator sees who filed it');
      const refused = await operator.post(`/portal/operator/reports/${id}/reject`, { reason: '', return_to: '/portal/operator/queue' });
      assert.equal(refused.statusCode, 400);
      const done = await operator.post(`/portal/operator/reports/${id}/reject`, { reason: 'no invoice attached', return_to: '/portal/operator/queue' });
      assert.equal(done.statusCode, 303);
      const mine = await members[2]!.get('/portal/reports');
      assert.match(mine.body, /no invoice attached/);
      assert.match(mine.body, /Reddedildi|Rejected/);
      assert.ok(!mine.body.includes('op@bureau.test'), 'the operator is not named to the member');
      assert.equal((await members[2]!.post(`/portal/operator/reports/${id}/approve`, {})).statusCode, 403, 'a member cannot reach the operator action');
    });

    test("D12 end to end: three members' claims approved in the console show in the API at the third; one withdrawal hides them", async () => {
      const taxId = nextVkn();
      const ids: number[] = [];
      for (const browser of members) ids.push(await fileThroughForm(browser, taxId));
      const api = async () => (await search(t.app, key, `q=${taxId}&type=tax_id&country=TR`)).json<{ result_count: number }>().result_count;
      // The portal's search answers from the same service: the same count, in words (Turkish by default).
      const portal = async () => {
        const page = await members[0]!.get(`/portal/search?q=${taxId}&type=tax_id&country=TR`);
        assert.equal(page.statusCode, 200);
        return page.body.includes('1 firma bulundu') ? 1 : page.body.includes(`${taxId} vergi numarası için risk kaydı yok`) ? 0 : NaN;
      };
      for (const [i, id] of ids.entries()) {
        assert.equal(await api(), 0, `before approval ${i + 1}`);
        assert.equal(await portal(), 0, `portal, before approval ${i + 1}`);
        const res = await operator.post(`/portal/operator/reports/${id}/approve`, { reason: '', return_to: '/portal/operator/queue' });
        assert.equal(res.statusCode, 303, res.body.slice(0, 300));
      }
      assert.equal(await api(), 1, 'visible at the third approved claim');
      assert.equal(await portal(), 1, 'portal: visible at the third approved claim');
      const company = await operator.get(`/portal/operator/companies?country=TR&tax_id=${taxId}`);
      assert.equal(company.statusCode, 303);
      const file = await operator.get(String(company.headers.location));
      assert.match(file.body, /P-1 \(Member P-1\)[\s\S]*P-2|P-2[\s\S]*P-1/);
      await members[1]!.get('/portal/reports');
      const withdrawn = await members[1]!.post(`/portal/reports/${ids[1]}/withdraw`, { note: 'the debt was paid' });
      assert.equal(withdrawn.statusCode, 303);
      assert.equal(await api(), 0, 'hidden again at once');
      assert.equal(await portal(), 0, 'portal: hidden again at once');
      const other = await members[0]!.post(`/portal/reports/${ids[1]}/withdraw`, { note: 'x' });
      assert.equal(other.statusCode, 404, "another member's report: not found");
    });
  });
}
