import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { vkn } from '../demo/valid-ids.ts';
import { AppError, DomainError, ERROR_REASONS, type ErrorReason } from '../lib/errors.ts';
import { PROBLEM_PARAMS, type ProblemCode } from '../lib/problems.ts';
import { checkFilingInput } from '../reports/filing-input.ts';
import { checkTaxId } from '../companies/tax-id.ts';
import { MESSAGES, type MessageKey } from './messages/index.ts';
import { appErrorText, DERIVED_PARAMS, domainErrorTexts, problemText, reasonText } from './problem-text.ts';

const CODES = Object.keys(PROBLEM_PARAMS) as ProblemCode[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

test('every problem a service can refuse with has words in Turkish and English, using only the values it carries', () => {
  for (const code of CODES) {
    const key = `problem.${code}` as MessageKey;
    assert.ok(key in MESSAGES, `${code}: no text in the portal catalogue (src/portal/messages/problems-*.ts)`);
    const { tr, en } = MESSAGES[key];
    assert.notEqual(tr, en, `${code}: the Turkish text is the English one`);
    const known = [...PROBLEM_PARAMS[code], ...(DERIVED_PARAMS[code] ?? [])];
    for (const [locale, text] of [
      ['tr', tr],
      ['en', en],
    ]) {
      for (const name of placeholders(text!)) assert.ok(known.includes(name), `${code} (${locale}): {${name}} is none of its values (${known.join(', ')})`);
    }
  }
});

test('every D2 reason has words in Turkish and English, for a refusal without a problem', () => {
  for (const reason of Object.keys(ERROR_REASONS) as ErrorReason[]) {
    const key = `error.reason.${reason}` as MessageKey;
    assert.ok(key in MESSAGES, reason);
    assert.notEqual(MESSAGES[key].tr, MESSAGES[key].en, reason);
    assert.equal(reasonText('tr', reason), MESSAGES[key].tr);
  }
});

const countries = buildCountryCatalogue();
const filing = {
  companyName: 'A.Ş.',
  taxId: vkn('123456789'),
  country: 'TR',
  city: '',
  type: 'enforcement_plain',
  eventDate: '2026-12-01',
  amount: '12,345',
  currency: '',
  description: 'x'.repeat(2001),
  case: { enforcement_office: 'İzmir 3. İcra', file_number: '2026/1' },
};

test('a filing refused for six things: each named in Turkish by its field, nothing of the English left', () => {
  const { problems } = checkFilingInput(filing, countries, '2026-11-21');
  const error = new DomainError('invalid', problems.map((p) => p.message).join('; '), problems);
  assert.deepEqual(domainErrorTexts('tr', error), [
    'Şirket adında hukuki biçim ekleri (A.Ş., Ltd. gibi) dışında harf ya da rakam yok.',
    'Şehir zorunludur.',
    'Olay tarihi (2026-12-01) gelecekte bir tarih (bugün 2026-11-21).',
    'Açıklama en çok 2000 karakter olabilir.',
    'Tutarın kuruş kısmı en çok 2 basamak olabilir; 12,345 daha fazlasını içeriyor.',
    'Dosya tarihi zorunludur.',
  ]);
  assert.match(error.message, /amount must have at most 2 decimals, got 12\.345/, 'the English stays as it was');
  assert.deepEqual(domainErrorTexts('en', error), [
    'The company name has no letters or digits beyond legal forms (such as A.Ş. or Ltd.).',
    'City is required.',
    'The date of the event, 2026-12-01, is in the future (today is 2026-11-21).',
    'Description is longer than 2000 characters.',
    'The amount must have at most 2 decimals; 12,345 has more.',
    'Date of the file is required.',
  ]);
});

test("a mistyped tax ID: the formats the country expects, in the reader's language; the English as the API says it", () => {
  const check = checkTaxId('1234567891', countries.get('TR')!);
  assert.ok(!check.valid);
  assert.equal(problemText('en', check.problem, check.message), `${check.message}.`);
  assert.match(
    problemText('tr', check.problem, check.message),
    /^“1234567891” geçerli bir TR vergi numarası değil: beklenen VKN \(10 rakam, kontrol basamaklı, ör\. \d+\) ya da TCKN \(11 rakam/,
  );
});

test('a file over the limit is named with the limit, not a size the portal never read whole', () => {
  const problem = { code: 'attachment.too_large', params: { file: 'a.pdf', max: 5 } } as const;
  assert.equal(problemText('tr', problem, 'x'), '“a.pdf” eki çok büyük: bir ek en çok 5 MB olabilir.');
  assert.equal(problemText('en', problem, 'x'), 'Attachment “a.pdf” is larger than 5 MB.');
});

test('report types, statuses, steps and member statuses are put in words', () => {
  assert.equal(
    problemText('tr', { code: 'report.status_not_allowed', params: { id: 7, status: 'rejected', statuses: 'pending, approved', step: 'withdraw' } }, 'x'),
    '7 numaralı bildirimin durumu “Reddedildi”: bu adım (geri çekme) yalnızca “Beklemede” ya da “Onaylandı” durumundaki bildirimlere uygulanır.',
  );
  assert.equal(
    problemText('tr', { code: 'filing.member_not_active', params: { memberStatus: 'suspended' } }, 'x'),
    'Üyeliğiniz askıya alınmış durumda: yalnızca etkin üyeler bildirim yapabilir.',
  );
  assert.equal(
    problemText('en', { code: 'report.case_required', params: { type: 'bounced_cheque', caseFields: 'prosecutor_office, investigation_number' } }, 'x'),
    "A report of the type “Bounced cheque” needs its case details: Public prosecutor's office, Investigation number.",
  );
});

test("where a problem cannot be worded, the service's English is shown rather than nothing", () => {
  // A country the catalogue does not know: its formats cannot be described.
  assert.equal(problemText('tr', { code: 'tax_id.invalid', params: { value: '1', country: 'XX' } }, 'the English'), 'the English');
  // An AppError without a problem: its reason's words in Turkish, its message in English.
  const bare = new AppError('rate_limited', "This API key's daily quota of 5 requests is used up");
  assert.equal(appErrorText('tr', bare), 'Günlük hak doldu; Türkiye saatiyle gece yarısı yenilenir.');
  assert.equal(appErrorText('en', bare), bare.message);
});
