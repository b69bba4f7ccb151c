import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { vkn } from '../demo/valid-ids.ts';
import { checkFilingInput, type FilingInput } from './filing-input.ts';

const countries = buildCountryCatalogue();
const TODAY = '2026-11-21';
const claim = (overrides: Partial<FilingInput> = {}): FilingInput => ({
  companyName: 'Örnek Lojistik A.Ş.',
  taxId: vkn('123456789'),
  country: 'tr',
  city: 'İzmir',
  type: 'unpaid_debt',
  eventDate: '2026-10-01',
  amount: '1250.50',
  currency: 'try',
  description: 'Invoice 2026/118 unpaid for 60 days.',
  ...overrides,
});
/** The English words of each problem (what the CLI and the API print). */
const problemsOf = (input: FilingInput) => checkFilingInput(input, countries, TODAY).problems.map((p) => p.message);
/** Each problem's code and values (what the portal words in the member's language). */
const codesOf = (input: FilingInput) => checkFilingInput(input, countries, TODAY).problems.map(({ code, params }) => ({ code, params }));

test('D29: a good claim is cleaned (country, currency upper-cased; amount in minor units; tax ID canonical)', () => {
  const { filing } = checkFilingInput(claim({ taxId: `TR ${vkn('123456789')}` }), countries, TODAY);
  assert.ok(filing);
  assert.equal(filing.company.country, 'TR');
  assert.equal(filing.company.taxIdNorm, vkn('123456789'));
  assert.equal(filing.company.nameCore, 'ornek lojistik');
  assert.deepEqual(
    { ...filing.report },
    {
      type: 'unpaid_debt',
      eventDate: '2026-10-01',
      description: 'Invoice 2026/118 unpaid for 60 days.',
      amountMinor: 125050,
      currency: 'TRY',
      courtDecisionDate: null,
      caseJson: null,
    },
  );
});

test("D9: a mistyped tax ID is refused with the API's message naming the formats", () => {
  const [problem] = problemsOf(claim({ taxId: '1234567891' }));
  assert.match(problem!, /^'1234567891' is not a valid TR tax ID: expected VKN \(10 digits with check digits/);
  assert.deepEqual(problemsOf(claim({ country: 'XX' })), ['country "XX" is not a supported 2-letter country code']);
});

test('D29: the event date is a calendar date, not in the future', () => {
  assert.deepEqual(problemsOf(claim({ eventDate: '2026-11-21' })), []);
  assert.deepEqual(problemsOf(claim({ eventDate: '2026-11-22' })), ['event date 2026-11-22 is in the future (today is 2026-11-21)']);
  assert.match(problemsOf(claim({ eventDate: '2026-02-30' }))[0]!, /YYYY-MM-DD/);
});

test('D29: description required, at most 2000 characters', () => {
  assert.deepEqual(problemsOf(claim({ description: 'x'.repeat(2000) })), []);
  assert.deepEqual(problemsOf(claim({ description: 'x'.repeat(2001) })), ['description is longer than 2000 characters']);
  assert.deepEqual(problemsOf(claim({ description: '  ' })), ['description is required']);
  // A bidi control would reverse the text an operator reads (lib/bidi-controls.ts).
  assert.deepEqual(problemsOf(claim({ description: 'Fatura \u202Eödenmedi' })), ['description contains control characters']);
});

test('D29/D14: a claim needs amount and currency; amounts have at most 2 decimals and an ISO 4217 currency', () => {
  assert.deepEqual(problemsOf(claim({ amount: '', currency: '' })), ['an unpaid_debt report needs the amount and its currency']);
  assert.deepEqual(problemsOf(claim({ amount: '10.555' })), ['amount must have at most 2 decimals, got 10.555']);
  assert.match(problemsOf(claim({ currency: 'ABC' }))[0]!, /ISO 4217/);
  assert.match(problemsOf(claim({ amount: 'ten' }))[0]!, /amount must be a number/);
});

test('D14: an enforcement file needs its whole case; a claim takes no case; legacy types are not filed', () => {
  const enforcement = claim({
    type: 'enforcement_plain',
    amount: null,
    currency: null,
    case: { enforcement_office: 'İstanbul 3. İcra', file_number: '2026/55' },
  });
  assert.deepEqual(problemsOf(enforcement), ['case.date is required']);
  // A form's date field left empty is missing once, not also "must be a date".
  assert.deepEqual(problemsOf({ ...enforcement, case: { ...enforcement.case, date: '' } }), ['case.date is required']);
  assert.deepEqual(problemsOf({ ...enforcement, case: { ...enforcement.case, date: '1.3.2026' } }), ['case.date must be a date YYYY-MM-DD']);
  const whole = { ...enforcement, case: { enforcement_office: 'İstanbul 3. İcra', file_number: '2026/55', date: '2026-03-01' } };
  assert.deepEqual(problemsOf(whole), []);
  assert.deepEqual(problemsOf(claim({ case: { enforcement_office: 'x' } })), ['case is not used for unpaid_debt reports; leave it out']);
  assert.match(problemsOf(claim({ type: 'concordat' }))[0]!, /type must be one of/);
  assert.deepEqual(problemsOf(claim({ type: 'bounced_cheque', amount: null, currency: null })), [
    'case is required for bounced_cheque reports: prosecutor_office, investigation_number',
  ]);
  assert.deepEqual(problemsOf(claim({ courtDecisionDate: '2026-01-01' })), ['court_decision_date is not used for unpaid_debt']);
});

test('every problem is listed at once', () => {
  assert.equal(problemsOf({ ...claim(), companyName: '', city: '', taxId: '', eventDate: '', description: '' }).length, 5);
});

test('D29/D14: a typed amount is checked on its digits before conversion: at most 13 integer digits and 2 decimals', () => {
  assert.deepEqual(problemsOf(claim({ amount: '9999999999999.99' })), []);
  assert.equal(checkFilingInput(claim({ amount: '9999999999999.99' }), countries, TODAY).filing?.report.amountMinor, 999_999_999_999_999);
  assert.deepEqual(problemsOf(claim({ amount: '99999999999999999999' })), [
    'amount must be at most 9999999999999.99 (13 digits before the decimal point), got "99999999999999999999"',
  ]);
  assert.deepEqual(problemsOf(claim({ amount: '10000000000000' })), [
    'amount must be at most 9999999999999.99 (13 digits before the decimal point), got "10000000000000"',
  ]);
  // A float would read this as 1 and take it; it has more than 2 decimals.
  assert.deepEqual(problemsOf(claim({ amount: '1.0000000000000001' })), ['amount must have at most 2 decimals, got 1.0000000000000001']);
  assert.deepEqual(problemsOf(claim({ amount: '0001250,5' })), []);
});

test('D29: an event date before 1900-01-01 is refused as a typing slip', () => {
  assert.deepEqual(problemsOf(claim({ eventDate: '0001-01-01' })), ['event date 0001-01-01 is before 1900-01-01: check the year']);
  assert.deepEqual(problemsOf(claim({ eventDate: '1899-12-31' })), ['event date 1899-12-31 is before 1900-01-01: check the year']);
  assert.deepEqual(problemsOf(claim({ eventDate: '1900-01-01' })), []);
});

test('every problem carries its code and values beside its words, naming the form field', () => {
  assert.deepEqual(codesOf({ ...claim(), companyName: '', eventDate: '2026-11-22', amount: 'ten' }), [
    { code: 'field.required', params: { field: 'company_name' } },
    { code: 'filing.event_date_future', params: { date: '2026-11-22', today: TODAY } },
    { code: 'filing.amount_not_number', params: { value: 'ten' } },
  ]);
  assert.deepEqual(codesOf(claim({ taxId: '1234567891' })), [{ code: 'tax_id.invalid', params: { value: '1234567891', country: 'TR' } }]);
  assert.deepEqual(codesOf(claim({ type: 'enforcement_plain', amount: null, currency: null, case: { enforcement_office: 'x', file_number: '1' } })), [
    { code: 'field.required', params: { field: 'case.date' } },
  ]);
});
