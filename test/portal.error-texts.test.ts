/**
 * D27: every refusal a portal page shows is in the page's language, with what is wrong and how to
 * fix it, never the services' English (which stays the API's and the CLI's). Through the real
 * routes on every engine: the filing form's field problems, an attachment, the duplicate and the
 * daily limit; a member's withdrawal; the operator console's actions; a search's 400; a request
 * refused before any route.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember, nextVkn } from './helpers/factories.ts';
import { EXE_FILE, squash } from './helpers/files.ts';
import { postMultipart } from './helpers/multipart.ts';
import { makePortalUser, type PortalBrowser, signIn } from './helpers/portal.ts';

const TURKISH = { 'accept-language': 'tr-TR,tr;q=0.9' };
const ENGLISH = { 'accept-language': 'en-GB,en;q=0.9' };

/** The page's alert: the refused form's list items, or an error page's text. */
function alertOf(body: string): string[] {
  const alert = /<(div|p) class="notice error" role="alert">([\s\S]*?)<\/\1>/.exec(body)?.[2];
  assert.ok(alert !== undefined, `no alert on the page: ${squash(body).slice(0, 600)}`);
  const items = [...alert.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => squash(m[1]!).trim());
  return items.length > 0 ? items : [squash(alert).trim()];
}

/** Words of the services' English messages that must not reach a Turkish page. */
const ENGLISH_WORDS =
  /\b(is required|is not a valid|is in the future|must be a number|attachment '|already has|is not valid|has no active key|belongs to no member|a reason is required|must be 3 to 100|requests take no body)\b/;

const invalidClaim = {
  company_name: '',
  tax_id: '1234567891',
  country: 'TR',
  city: 'Kocaeli',
  type: 'unpaid_debt',
  event_date: '2026-12-01',
  amount: 'on bin',
  currency: 'TRY',
  description: 'Unpaid since October.',
};
const goodEnforcement = (taxId: string) => ({
  company_name: 'Hata Metni Lojistik A.Ş.',
  tax_id: taxId,
  country: 'TR',
  city: 'Bursa',
  type: 'enforcement_plain',
  event_date: '2026-10-15',
  amount: '',
  currency: '',
  description: 'Enforcement file opened.',
  case_enforcement_office: 'Bursa 4. İcra Dairesi',
  case_file_number: '2026/777',
  case_date: '2026-10-16',
});

for (const engine of ENGINES) {
  describe(`portal refusals in the page's language [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let member: PortalBrowser;
    let limited: PortalBrowser;
    let operator: PortalBrowser;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { filingsPerMemberPerDay: 2 });
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'TR-1' });
      await makeMember(db, t.clock, { ref: 'TR-2' });
      member = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'TR-1' }));
      limited = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'TR-2' }));
      operator = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'operator' }), t.clock);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('D29: a refused filing lists each problem in Turkish, naming the field and what to fix', async () => {
      await member.get('/portal/reports/new', TURKISH);
      const res = await postMultipart(member, '/portal/reports', invalidClaim, [], { headers: TURKISH });
      assert.equal(res.statusCode, 400);
      const [company, taxId, eventDate, amount, ...rest] = alertOf(res.body);
      assert.equal(company, 'Şirket adı zorunludur.');
      assert.match(taxId!, /^“1234567891” geçerli bir TR vergi numarası değil: beklenen VKN \(10 rakam, kontrol basamaklı, ör\. \d+\) ya da TCKN \(11 rakam/);
      assert.equal(eventDate, 'Olay tarihi (2026-12-01) gelecekte bir tarih (bugün 2026-11-21).');
      assert.equal(amount, 'Tutar 1250,50 gibi bir sayı olmalı; “on bin” sayı değil.');
      assert.deepEqual(rest, []);
      assert.doesNotMatch(squash(res.body), ENGLISH_WORDS);
      assert.match(res.body, /value="Kocaeli"/, 'the form keeps what was typed');
    });

    test('D29: the same refused filing in English, in the same words as the form', async () => {
      const res = await postMultipart(member, '/portal/reports', invalidClaim, [], { headers: ENGLISH });
      assert.equal(res.statusCode, 400);
      const [company, taxId, eventDate, amount] = alertOf(res.body);
      assert.equal(company, 'Company name is required.');
      assert.match(taxId!, /^&#39;1234567891&#39; is not a valid TR tax ID: expected VKN \(10 digits with check digits, e\.g\. \d+\) or TCKN/);
      assert.equal(eventDate, 'The date of the event, 2026-12-01, is in the future (today is 2026-11-21).');
      assert.equal(amount, 'The amount must be a number such as 1250.50; “on bin” is not.');
    });

    test('D29: an attachment, a duplicate and the daily limit are refused in Turkish', async () => {
      const exe = await postMultipart(member, '/portal/reports', goodEnforcement(nextVkn()), [
        { name: 'attachments', fileName: 'dekont.pdf', type: 'application/pdf', content: EXE_FILE },
      ]);
      assert.equal(exe.statusCode, 400);
      assert.deepEqual(alertOf(exe.body), ['“dekont.pdf” eki bir Windows programı, belge değil: PDF, PNG ya da JPEG dosyası ekleyin.']);
      const fields = goodEnforcement(nextVkn());
      assert.equal((await postMultipart(limited, '/portal/reports', fields, [])).statusCode, 303);
      const twice = await postMultipart(limited, '/portal/reports', fields, []);
      assert.equal(twice.statusCode, 409);
      assert.match(alertOf(twice.body)[0]!, /^Üyenizin bu şirket hakkında aynı türde, aynı olay tarihli .* bu bildirim daha önce yapılmış\.$/);
      assert.equal((await postMultipart(limited, '/portal/reports', goodEnforcement(nextVkn()), [])).statusCode, 303);
      const third = await postMultipart(limited, '/portal/reports', goodEnforcement(nextVkn()), []);
      assert.equal(third.statusCode, 409);
      assert.deepEqual(alertOf(third.body), [
        'Üyeniz bugün 2 bildirim yaptı; bir üye bir günde en fazla bu kadar bildirim yapabilir. Türkiye saatiyle 00:00’dan sonra (2026-11-22) yeniden bildirim yapabilirsiniz.',
      ]);
    });

    test('D29: a withdrawal without a note is refused in Turkish', async () => {
      await member.get('/portal/reports/new');
      const filed = await postMultipart(member, '/portal/reports', goodEnforcement(nextVkn()), []);
      const id = /filed=(\d+)/.exec(String(filed.headers.location))?.[1];
      await member.get('/portal/reports');
      const res = await member.post(`/portal/reports/${id}/withdraw`, { note: ' ' });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(alertOf(res.body), ['Bildirimi geri çekmek için not zorunludur: nedenini yazın.']);
    });

    test("D30: the console's member, key, user and report actions are refused in Turkish, values escaped", async () => {
      await operator.get('/portal/operator/members');
      const badRef = await operator.post('/portal/operator/members', { ref: '<b>x', name: 'Yeni Üye', tier: 'full' });
      assert.equal(badRef.statusCode, 400);
      assert.deepEqual(alertOf(badRef.body), [
        '“&lt;b&gt;x” geçerli bir üye numarası değil: 1 ile 64 arasında harf, rakam, &#39;.&#39;, &#39;_&#39; ya da &#39;-&#39; kullanın.',
      ]);
      const noKey = await operator.post('/portal/operator/members/TR-1/revoke-key', {});
      assert.equal(noKey.statusCode, 404);
      assert.deepEqual(alertOf(noKey.body), ['TR-1 üyesinin iptal edilecek etkin anahtarı yok.']);
      const operatorOfMember = await operator.post('/portal/operator/users/invite', { email: 'yeni@operator.example', role: 'operator', member: 'TR-1' });
      assert.equal(operatorOfMember.statusCode, 400);
      assert.deepEqual(alertOf(operatorOfMember.body), ['Operatör hiçbir üyeye bağlı değildir: üye alanını boş bırakın.']);
      const badId = await operator.get('/portal/operator/companies?country=TR&tax_id=1234567891');
      assert.equal(badId.statusCode, 400);
      assert.match(alertOf(badId.body)[0]!, /^“1234567891” geçerli bir TR vergi numarası değil/);
      const filed = await postMultipart(member, '/portal/reports', goodEnforcement(nextVkn()), []);
      const id = /filed=(\d+)/.exec(String(filed.headers.location))?.[1];
      const reject = await operator.post(`/portal/operator/reports/${id}/reject`, { reason: '', return_to: '/portal/operator/queue' });
      assert.equal(reject.statusCode, 400);
      assert.deepEqual(alertOf(reject.body), ['Bu adım (ret) için gerekçe zorunludur: nedenini yazın.']);
      for (const page of [badRef, noKey, operatorOfMember, badId, reject]) assert.doesNotMatch(squash(page.body), ENGLISH_WORDS);
    });

    test('D30: the same console refusal in English', async () => {
      const noKey = await operator.post('/portal/operator/members/TR-1/revoke-key', {}, { headers: ENGLISH });
      assert.equal(noKey.statusCode, 404);
      assert.deepEqual(alertOf(noKey.body), ['Member TR-1 has no active key to revoke.']);
    });

    test("D28: a search's 400 says in Turkish what is wrong with it", async () => {
      const short = await member.get('/portal/search?q=ab', TURKISH);
      assert.equal(short.statusCode, 400);
      assert.match(squash(short.body), /\(Baştaki ve sondaki boşluklar sayılmadan 3 ile 100 arasında karakter girin\.\)/);
      const generic = await member.get(`/portal/search?q=${encodeURIComponent('A.Ş. Ltd')}`, TURKISH);
      assert.equal(generic.statusCode, 400);
      assert.match(squash(generic.body), /“A\.Ş\. Ltd” çok genel: hukuki biçim ekleri ve noktalama atıldığında/);
      for (const page of [short, generic]) assert.doesNotMatch(alertOf(page.body).join(' '), /lang="en"|is too generic|must be 3 to 100/);
    });

    test('a request refused before any route (a GET with a body) gets a page in Turkish', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/portal/sign-in', headers: { ...TURKISH, 'content-type': 'text/plain' }, payload: 'x' });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(alertOf(res.body), ['GET istekleri gövde içeremez.']);
    });
  });
}
