import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfTurkeyDay } from '../lib/calendar-date.ts';
import { at, sampleDisclosureInput } from '../../test/helpers/disclosure-sample.ts';
import { buildDisclosure, disclosureMonths, lookupMonthOf } from './disclosure-view.ts';

test('D34: every report in every state, newest filing first (D13`s order), with what members see today', () => {
  const view = buildDisclosure(sampleDisclosureInput());
  assert.deepEqual(
    view.reports.map((r) => [r.id, r.status, r.shown]),
    [
      [60, 'pending', false],
      [57, 'approved', true],
      [58, 'withdrawn', false],
      [41, 'approved', true],
      [12, 'expired', false],
    ],
  );
  assert.equal(view.shownCount, 2, 'the official file makes the approved claim visible (D12)');
  assert.equal(view.printedAt, '2025-06-15 10:30:00');
});

test('D34: a filing member is only "a member": no member id, no one who took a step, anywhere in the view', () => {
  const view = buildDisclosure(sampleDisclosureInput());
  const json = JSON.stringify(view);
  assert.doesNotMatch(json, /reportedBy|memberId|userId|"operator"/);
  assert.deepEqual(
    view.reports.map((r) => r.source),
    ['member', 'member', 'member', 'bureau', 'bureau'],
  );
  assert.deepEqual(
    view.reports.find((r) => r.id === 58)!.history.map((h) => [h.from, h.to, h.by, h.reason]),
    [
      [null, 'pending', 'member', null],
      ['pending', 'approved', 'bureau', null],
      ['approved', 'withdrawn', 'member', 'Borç ödendi.'],
    ],
  );
  assert.equal(view.reports.find((r) => r.id === 12)!.history[1]!.by, 'system');
});

test('D34: each report`s retention end and what it is counted from; an expired one`s day of deletion', () => {
  const view = buildDisclosure(sampleDisclosureInput());
  const retention = (id: number) => view.reports.find((r) => r.id === id)!.retention;
  assert.deepEqual(retention(41), { anchor: { date: '2024-03-12', source: 'case.date' }, endsOn: '2029-03-12', deleteOn: null });
  assert.deepEqual(retention(57), { anchor: { date: '2025-01-31', source: 'event_date' }, endsOn: '2028-01-31', deleteOn: null });
  assert.deepEqual(retention(12), { anchor: { date: '2019-05-02', source: 'filed_at' }, endsOn: '2024-05-02', deleteOn: '2026-05-02' });
});

test('D33 in the disclosure: disputed while undecided; the statement only after an upheld decision', () => {
  const view = buildDisclosure(sampleDisclosureInput());
  const official = view.reports.find((r) => r.id === 41)!;
  assert.equal(official.disputed, false);
  assert.deepEqual(official.disputes, [
    {
      id: 2,
      state: 'decided',
      outcome: 'upheld',
      receivedOn: '2025-04-28',
      decidedOn: '2025-05-20',
      statement: 'Borç yapılandırılıyor; ödeme planı 2025 sonunda tamamlanacak.',
    },
  ]);
  assert.equal(view.reports.find((r) => r.id === 57)!.disputed, true);
  const corrected = buildDisclosure(
    sampleDisclosureInput({
      disputes: [{ id: 4, state: 'decided', outcome: 'corrected', receivedOn: '2025-04-28', decidedAt: at('2025-05-20'), reportIds: [41], statement: 'stray' }],
    }),
  );
  assert.equal(corrected.reports.find((r) => r.id === 41)!.disputes[0]!.statement, null);
});

test('D34: lookups per month of the last 12 in Turkey time, the current month last, months without any as 0', () => {
  const view = buildDisclosure(sampleDisclosureInput());
  assert.deepEqual(
    view.lookups.map((l) => `${l.month}:${l.count}`),
    [
      '2024-07:3',
      '2024-08:0',
      '2024-09:0',
      '2024-10:0',
      '2024-11:12',
      '2024-12:0',
      '2025-01:0',
      '2025-02:27',
      '2025-03:0',
      '2025-04:0',
      '2025-05:8',
      '2025-06:1250',
    ],
  );
  assert.equal(view.lookupsTotal, 1300, 'the month outside the 12 is not counted');
  // A month starts at 00:00 Turkey time, i.e. 21:00 UTC on the last day of the month before.
  const months = disclosureMonths(Date.UTC(2025, 0, 31, 21, 30)); // 1 February 00:30 in Turkey
  assert.equal(months[11]!.month, '2025-02');
  assert.equal(months[11]!.from, startOfTurkeyDay('2025-02-01'));
  assert.equal(months[11]!.until, startOfTurkeyDay('2025-03-01'));
  assert.equal(months[0]!.month, '2024-03');
  months.slice(1).forEach((m, i) => assert.equal(m.from, months[i]!.until, 'the windows touch'));
  assert.equal(lookupMonthOf(Date.UTC(2025, 0, 31, 20, 59, 59)), '2025-01');
  assert.equal(lookupMonthOf(Date.UTC(2025, 0, 31, 21, 0, 0)), '2025-02');
});

test('a company with nothing held: an empty list and twelve zero months', () => {
  const view = buildDisclosure(sampleDisclosureInput({ reports: [], history: [], disputes: [], lookups: [] }));
  assert.deepEqual(view.reports, []);
  assert.equal(view.lookups.length, 12);
  assert.equal(view.lookupsTotal, 0);
});
