import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDisclosure } from '../../disclosure/disclosure-view.ts';
import { sampleDisclosureInput, SAMPLE_COMPANY } from '../../../test/helpers/disclosure-sample.ts';
import { disclosureBody, disclosureTitle } from './disclosure.page.ts';

const view = buildDisclosure(sampleDisclosureInput());
/** The page's text without tags, entities decoded, spaces collapsed: what a reader sees. */
const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

test('D34 page, Turkish: the company, each record with its history and disputes, the 12 months', () => {
  const page = text(disclosureBody(view, 'tr', '/portal/operator/disclosure.pdf?x=1').text);
  assert.equal(disclosureTitle(view, 'tr'), `${SAMPLE_COMPANY.name} hakkında tutulan kayıtlar`);
  for (const expected of [
    'Öztürk Işıklı Çağdaş Gıda Sanayi ve Ticaret A.Ş.',
    'İzmir',
    'Tutulan kayıt: 5. Bugün aramalarda üyelere gösterilen: 2.',
    '57 numaralı kayıt: Ödenmemiş borç (üye bildirimi)',
    'Kaynak bir üye (üye bildirimi)',
    'Tutar 12.500,00 TRY',
    'Saklama süresi sonu 2029-03-12 (icra dosyasının tarihi esas alınarak: 2024-03-12)',
    'Tamamen silineceği tarih 2026-05-02',
    'Onaylandı durumundan Geri çekildi durumuna bir üye Borç ödendi.',
    '3 numaralı itiraz Başvuru tarihi 2025-06-10 Durum Üyenin yanıtı bekleniyor',
    'Sonuç Kayıt korundu',
    'Şirketin açıklaması Borç yapılandırılıyor',
    'Haziran 2025 1.250',
    'Toplam 1.300',
    'PDF olarak indir',
  ]) {
    assert.ok(page.includes(expected), `missing: ${expected}`);
  }
});

test('D34 page, English: the same document in the other language', () => {
  const page = text(disclosureBody(view, 'en', null).text);
  for (const expected of [
    'Records held: 5. Shown to members in searches today: 2.',
    'Record 41: Enforcement (without judgment)',
    'Source an official record, entered by the bureau',
    'Amount 48,250.75 TRY',
    'from Approved to Expired the service, by itself',
    'Dispute 2 Received on 2025-04-28 State Decided Outcome Record upheld Decided on 2025-05-20',
    'June 2025 1,250',
  ]) {
    assert.ok(page.includes(expected), `missing: ${expected}`);
  }
  assert.ok(!page.includes('Download as PDF'), 'no link when there is no PDF to download');
});

test('D34 page: names no member and no person; the reviewer is reminded of free text', () => {
  const page = disclosureBody(view, 'en', null).text;
  assert.doesNotMatch(page, /\b(member|user) (10|11|12)\b|reportedBy/);
  assert.match(text(page), /check that none names a member/);
});

test('every value is escaped: a company name or text with markup shows as text', () => {
  const hostile = buildDisclosure(
    sampleDisclosureInput({
      company: { ...SAMPLE_COMPANY, name: '<script>alert(1)</script> "Ltd"' },
      disputes: [
        { id: 9, state: 'decided', outcome: 'upheld', receivedOn: '2025-06-01', decidedAt: null, reportIds: [41], statement: '<img src=x onerror=alert(1)>' },
      ],
    }),
  );
  const page = disclosureBody(hostile, 'tr', '/x?a=1&b="2"').text;
  assert.doesNotMatch(page, /<script>|<img/);
  assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;Ltd&quot;/);
  assert.match(page, /&lt;img src=x onerror=alert\(1\)&gt;/);
  assert.match(page, /href="\/x\?a=1&amp;b=&quot;2&quot;"/);
});
