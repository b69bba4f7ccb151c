import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addDays, addMonths, startOfTurkeyDay, turkeyDateOf } from '../lib/calendar-date.ts';
import { OFFICIAL_TYPES, REPORT_TYPES, type ReportType } from '../reports/report-types.ts';
import {
  auditPurgeBefore,
  deleteExpiredBefore,
  deletionDueOn,
  expiryCutoffOf,
  hasComeBy,
  retentionAnchorOf,
  retentionEndOf,
  retentionStepOf,
  type RetentionFacts,
} from './retention-rules.ts';
import { DEFAULT_RETENTION, readRetentionSettings } from './retention-settings.ts';

const at = (date: string, hh = 12) => startOfTurkeyDay(date) + hh * 3_600_000;
const report = (type: ReportType, fields: Partial<RetentionFacts> = {}): RetentionFacts => ({
  type,
  eventDate: null,
  caseFields: null,
  courtDecisionDate: null,
  concordatEnd: null,
  filedAt: at('2024-06-01'),
  ...fields,
});
const S = DEFAULT_RETENTION;
const anyDate = fc
  .date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2090, 11, 31)), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const anyType = fc.constantFrom(...REPORT_TYPES);

test('D34: claims 3 years after the event, official files 5, a concordat 1 year after its end, a court decision 5 after it', () => {
  assert.equal(retentionEndOf(report('unpaid_debt', { eventDate: '2024-05-10' }), S).endsOn, '2027-05-10');
  for (const type of OFFICIAL_TYPES) assert.equal(retentionEndOf(report(type, { eventDate: '2024-05-10' }), S).endsOn, '2029-05-10', type);
  assert.equal(retentionEndOf(report('concordat', { concordatEnd: '2025-03-31', filedAt: at('2024-01-15') }), S).endsOn, '2026-03-31');
  assert.equal(retentionEndOf(report('court_decision', { courtDecisionDate: '2023-11-02' }), S).endsOn, '2028-11-02');
});

test('an imported report (no event date) ages from the date its public record carries, else from its filing', () => {
  const anchor = (type: ReportType, fields: Partial<RetentionFacts>) => retentionAnchorOf(report(type, fields));
  const enforcement = { enforcement_office: 'İstanbul 3. İcra', file_number: '2023/118', date: '2023-02-14' };
  assert.deepEqual(anchor('enforcement_plain', { caseFields: enforcement }), { date: '2023-02-14', source: 'case.date' });
  assert.deepEqual(anchor('enforcement_judgment', { caseFields: enforcement, courtDecisionDate: '2022-12-01' }), { date: '2023-02-14', source: 'case.date' });
  assert.deepEqual(anchor('enforcement_judgment', { courtDecisionDate: '2022-12-01' }), { date: '2022-12-01', source: 'court_decision_date' });
  const assigned = { collection_company: 'X Varlık', contract_number: 'T-9', assignment_date: '2021-07-30' };
  assert.deepEqual(anchor('debt_assigned', { caseFields: assigned }), { date: '2021-07-30', source: 'case.assignment_date' });
  // A bounced cheque's case has no date, nor has an imported claim: the filing's Turkey date.
  const cheque = { prosecutor_office: 'Ankara', investigation_number: '2024/55' };
  assert.deepEqual(anchor('bounced_cheque', { caseFields: cheque, filedAt: Date.UTC(2024, 4, 31, 22, 30) }), { date: '2024-06-01', source: 'filed_at' });
  assert.deepEqual(anchor('unpaid_debt', {}), { date: '2024-06-01', source: 'filed_at' });
  // A filed report's own event date comes first (D29).
  assert.deepEqual(anchor('enforcement_plain', { eventDate: '2023-01-20', caseFields: enforcement }), { date: '2023-01-20', source: 'event_date' });
});

test('a date after the filing (a typo in imported data) is read as the filing date; a concordat may end after it', () => {
  const typo = { enforcement_office: 'İzmir', file_number: '1', date: '2099-01-01' };
  assert.deepEqual(retentionAnchorOf(report('enforcement_plain', { caseFields: typo })), { date: '2024-06-01', source: 'case.date' });
  assert.deepEqual(retentionAnchorOf(report('court_decision', { courtDecisionDate: '2031-01-01' })), { date: '2024-06-01', source: 'court_decision_date' });
  assert.deepEqual(retentionAnchorOf(report('concordat', { concordatEnd: '2026-01-01' })), { date: '2026-01-01', source: 'concordat_end' });
  // A broken date in the row is passed over, never trusted.
  const broken = { enforcement_office: 'x', file_number: '1', date: '2023-02-30' };
  assert.equal(retentionAnchorOf(report('enforcement_bill', { caseFields: broken })).source, 'filed_at');
});

test('a leap day: 29 February plus whole years ends on 28 February (TBK art. 92), 29 again in a leap year', () => {
  assert.equal(retentionEndOf(report('unpaid_debt', { eventDate: '2024-02-29' }), S).endsOn, '2027-02-28');
  assert.equal(retentionEndOf(report('enforcement_bill', { eventDate: '2024-02-29' }), S).endsOn, '2029-02-28');
  const fourYears = readRetentionSettings({ keptMonths: { unpaid_debt: 48 } }).settings;
  assert.equal(retentionEndOf(report('unpaid_debt', { eventDate: '2024-02-29' }), fourYears).endsOn, '2028-02-29');
});

test('D4: a report leaves at 00:00 Turkey time of its end day (21:00 UTC the evening before), not a moment earlier', () => {
  const r = { ...report('unpaid_debt', { eventDate: '2022-03-15' }), status: 'approved', expiredAt: null };
  assert.equal(retentionStepOf(r, Date.UTC(2025, 2, 14, 20, 59, 59, 999), S), 'keep');
  assert.equal(retentionStepOf(r, Date.UTC(2025, 2, 14, 21, 0, 0), S), 'expire');
});

test('every status but expired ages the same way; an expired one is deleted 2 years after it was expired, with its history', () => {
  for (const status of ['pending', 'approved', 'rejected', 'withdrawn', 'deactivated']) {
    const r = { ...report('enforcement_plain', { eventDate: '2019-01-10' }), status, expiredAt: null };
    assert.equal(retentionStepOf(r, at('2024-01-09'), S), 'keep', status);
    assert.equal(retentionStepOf(r, at('2024-01-10'), S), 'expire', status);
  }
  // Expired late (the first run after the upgrade): still two full years for the operators.
  const expired = { ...report('enforcement_plain', { eventDate: '2010-01-10' }), status: 'expired', expiredAt: at('2025-07-01', 3) };
  assert.equal(deletionDueOn(expired.expiredAt, S), '2027-07-01');
  assert.equal(retentionStepOf(expired, at('2027-06-30', 23), S), 'keep');
  assert.equal(retentionStepOf(expired, at('2027-07-01', 0), S), 'delete');
  assert.throws(() => retentionStepOf({ ...expired, expiredAt: null }, at('2027-07-01'), S), /without the time it expired/);
});

test('the job`s cut-off: a report is past retention exactly when its anchor is at or before the cut-off', () => {
  fc.assert(
    fc.property(anyType, anyDate, anyDate, fc.integer({ min: 1, max: 120 }), (type, anchor, today, months) => {
      const settings = readRetentionSettings({ keptMonths: { [type]: months, unpaid_debt: Math.min(months, 36) } }).settings;
      const now = at(today, 5);
      const due = hasComeBy(addMonths(anchor, settings.keptMonths[type]), now);
      assert.equal(anchor <= expiryCutoffOf(type, now, settings), due, `${type} anchor ${anchor}, today ${today}, ${months} months`);
    }),
  );
  // The end of February: 29, 30 and 31 January 2024 all end on 29 February 2024 with one month.
  const oneMonth = readRetentionSettings({ keptMonths: { concordat: 1 } }).settings;
  assert.equal(expiryCutoffOf('concordat', at('2024-02-29'), oneMonth), '2024-01-31');
  assert.equal(expiryCutoffOf('concordat', at('2024-02-28'), oneMonth), '2024-01-28');
});

test('the deletion cut-off: an expired report is deleted exactly when its deletion day has come', () => {
  fc.assert(
    fc.property(anyDate, fc.integer({ min: 0, max: 86_399_999 }), anyDate, fc.integer({ min: 0, max: 60 }), (expiredOn, offset, today, months) => {
      const settings = readRetentionSettings({ expiredKeptMonths: months }).settings;
      const expiredAt = startOfTurkeyDay(expiredOn) + offset;
      const now = at(today, 2);
      assert.equal(expiredAt < deleteExpiredBefore(now, settings), hasComeBy(deletionDueOn(expiredAt, settings), now));
    }),
  );
});

test('a retention end is never before the anchor, and (but for a concordat) never later than counted from the filing', () => {
  fc.assert(
    fc.property(anyType, anyDate, anyDate, (type, eventDate, filedOn) => {
      const facts = report(type, { eventDate, courtDecisionDate: eventDate, concordatEnd: eventDate, filedAt: at(filedOn) });
      const { anchor, endsOn } = retentionEndOf(facts, S);
      assert.ok(endsOn > anchor.date);
      if (type !== 'concordat') assert.ok(endsOn <= addMonths(turkeyDateOf(facts.filedAt), S.keptMonths[type]));
    }),
  );
});

test('audit records (D21) are kept 365 days by default', () => {
  const now = at('2025-06-01');
  assert.equal(auditPurgeBefore(now, S), now - 365 * 86_400_000);
  assert.equal(turkeyDateOf(auditPurgeBefore(now, S)), addDays('2025-06-01', -365));
});
