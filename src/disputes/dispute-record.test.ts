import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfTurkeyDay } from '../lib/calendar-date.ts';
import { checkRecord, type ReportForDispute } from './dispute-record.ts';
import type { DisputeActor } from './dispute-rules.ts';
import type { RecordInput } from './dispute-input.ts';

const NOW = startOfTurkeyDay('2025-03-10') + 12 * 3_600_000;
const operator: DisputeActor = { kind: 'operator', userId: 1 };
const claim = (reportId: number, memberId: number, extra: Partial<ReportForDispute> = {}): ReportForDispute => ({
  reportId,
  companyId: 5,
  status: 'approved',
  filingMemberId: memberId,
  undecidedDisputeId: null,
  ...extra,
});
const official: ReportForDispute = { reportId: 8, companyId: 5, status: 'approved', filingMemberId: null, undecidedDisputeId: null };
const INPUT: RecordInput = {
  identificationMethod: 'kep',
  identificationReference: 'ornek.ticaret@hs01.kep.tr, message 2025-0311',
  receivedOn: '2025-03-08',
  grounds: 'The cheque was paid on 2 March; the bank letter is attached.',
  reportIds: [7, 8, 7],
};
const codes = (r: ReturnType<typeof checkRecord>) => (r.ok ? [] : r.error.problems.map((p) => p.code));

test('D33: an operator records; the filing members are told at once and the dispute awaits them', () => {
  const r = checkRecord(operator, INPUT, [claim(7, 10), official], NOW);
  assert.ok(r.ok);
  assert.equal(r.state, 'awaiting_member');
  assert.equal(r.membersToldAt, NOW);
  assert.deepEqual(r.membersToTell, [10]);
  assert.equal(r.companyId, 5);
  assert.deepEqual(r.input.reportIds, [7, 8], 'a report named twice is one report');
  assert.deepEqual(r.input.identification, { method: 'kep', reference: 'ornek.ticaret@hs01.kep.tr, message 2025-0311' });
  assert.deepEqual(
    r.reports.map((x) => [x.reportId, x.response]),
    [
      [7, 'awaited'],
      [8, 'not_asked'],
    ],
  );
});

test('D33: over official files only, nobody is asked: the dispute is the operator`s at once', () => {
  const r = checkRecord(operator, { ...INPUT, reportIds: [8] }, [official], NOW);
  assert.ok(r.ok);
  assert.equal(r.state, 'open');
  assert.equal(r.membersToldAt, null);
  assert.deepEqual(r.membersToTell, []);
});

test('D33: only an operator records a dispute', () => {
  for (const actor of [
    { kind: 'member_user', userId: 2, memberId: 10 },
    { kind: 'system', job: 'x' },
  ] as const) {
    const r = checkRecord(actor, INPUT, [claim(7, 10), official], NOW);
    assert.ok(!r.ok);
    assert.equal(r.error.kind, 'forbidden');
    assert.deepEqual(r.error.problems[0]!.code, 'dispute.operator_only');
  }
});

test('each identification method D33 names is taken; anything else is refused', () => {
  for (const method of ['kep', 'e_signature', 'notarised_letter'])
    assert.ok(checkRecord(operator, { ...INPUT, identificationMethod: method }, [claim(7, 10), official], NOW).ok);
  assert.deepEqual(codes(checkRecord(operator, { ...INPUT, identificationMethod: 'phone call' }, [claim(7, 10), official], NOW)), [
    'dispute.identification_method',
  ]);
});

test('what the operator typed: every problem at once, each with its field', () => {
  const r = checkRecord(
    operator,
    { identificationMethod: 'email', identificationReference: '', receivedOn: '2025-3-8', grounds: 'a\u202Eb', reportIds: [] },
    [],
    NOW,
  );
  assert.ok(!r.ok);
  assert.equal(r.error.kind, 'invalid');
  assert.deepEqual(
    r.error.problems.map((p) => [p.code, p.params]),
    [
      ['dispute.identification_method', { value: 'email' }],
      ['field.required', { field: 'identification_reference' }],
      ['dispute.received_on_invalid', { value: '2025-3-8' }],
      ['field.control_characters', { field: 'grounds' }],
      ['dispute.no_reports', undefined],
    ],
  );
  const tooMany = Array.from({ length: 51 }, (_, i) => i + 1);
  assert.deepEqual(codes(checkRecord(operator, { ...INPUT, reportIds: tooMany }, [], NOW)), ['dispute.too_many_reports']);
  assert.deepEqual(codes(checkRecord(operator, { ...INPUT, grounds: 'x'.repeat(2001) }, [claim(7, 10)], NOW)), ['field.too_long']);
});

test('the day of receipt: not after today, not more than a year back (a typed year), in Turkey time', () => {
  const lateEvening = Date.UTC(2025, 2, 9, 21, 30); // 10 March 00:30 in Turkey
  assert.ok(checkRecord(operator, { ...INPUT, receivedOn: '2025-03-10' }, [claim(7, 10), official], lateEvening).ok);
  const future = checkRecord(operator, { ...INPUT, receivedOn: '2025-03-11' }, [claim(7, 10), official], lateEvening);
  assert.equal(!future.ok && future.error.message, 'the request cannot have been received on 2025-03-11, after today (2025-03-10)');
  assert.deepEqual(codes(checkRecord(operator, { ...INPUT, receivedOn: '2024-03-09' }, [claim(7, 10), official], NOW)), ['dispute.received_on_too_early']);
  assert.ok(checkRecord(operator, { ...INPUT, receivedOn: '2024-03-10' }, [claim(7, 10), official], NOW).ok);
});

test('which reports: the company`s own, pending or approved, in no other undecided dispute', () => {
  const found = [
    claim(7, 10),
    claim(9, 11, { companyId: 6 }),
    claim(10, 11, { status: 'withdrawn' }),
    claim(11, 11, { status: 'expired' }),
    claim(12, 11, { undecidedDisputeId: 2 }),
    claim(13, 12, { status: 'pending' }),
  ];
  const r = checkRecord(operator, { ...INPUT, reportIds: [7, 9, 10, 11, 12, 13, 404] }, found, NOW);
  assert.ok(!r.ok);
  assert.deepEqual(
    r.error.problems.map((p) => [p.code, p.params]),
    [
      ['dispute.report_of_other_company', { id: 9 }],
      ['dispute.report_not_disputable', { id: 10, status: 'withdrawn' }],
      ['dispute.report_not_disputable', { id: 11, status: 'expired' }],
      ['dispute.report_already_disputed', { id: 12, dispute: 2 }],
      ['report.not_found', { id: 404 }],
    ],
  );
  const unknown = checkRecord(operator, { ...INPUT, reportIds: [404] }, [], NOW);
  assert.ok(!unknown.ok && unknown.error.kind === 'not_found');
  assert.ok(checkRecord(operator, { ...INPUT, reportIds: [13] }, found, NOW).ok, 'a pending report can be disputed');
});
