import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfTurkeyDay } from '../lib/calendar-date.ts';
import { takeDisputeStep, type DisputeActor, type DisputeFacts } from './dispute-rules.ts';
import type { DecisionInput } from './dispute-input.ts';

const operator: DisputeActor = { kind: 'operator', userId: 1 };
const NOW = startOfTurkeyDay('2025-03-10') + 12 * 3_600_000;

/** An open dispute over an approved claim (7), a pending claim (9), an official file (8) and a report withdrawn meanwhile (6). */
const DISPUTE: DisputeFacts = {
  id: 4,
  state: 'open',
  outcome: null,
  receivedOn: '2025-03-01',
  membersToldAt: null,
  reports: [
    { reportId: 7, status: 'approved', filingMemberId: 10, response: 'supported' },
    { reportId: 9, status: 'pending', filingMemberId: 12, response: 'supported' },
    { reportId: 8, status: 'approved', filingMemberId: null, response: 'not_asked' },
    { reportId: 6, status: 'withdrawn', filingMemberId: 10, response: 'withdrawn' },
  ],
};

const decide = (input: DecisionInput) => takeDisputeStep(operator, DISPUTE, { step: 'decide', ...input }, NOW);
const codes = (r: ReturnType<typeof decide>) => (r.ok ? [] : r.error.problems.map((p) => p.code));

test('D33 upheld: the reports stay as they are', () => {
  const r = decide({ outcome: 'upheld', reason: 'The file is in the register as reported.' });
  assert.ok(r.ok);
  assert.equal(r.outcome, 'upheld');
  assert.deepEqual(r.effects, []);
  assert.equal(r.text, 'The file is in the register as reported.');
});

test('D33 removed: every report still pending or approved ends with the reason; those already out stay as they are', () => {
  const r = decide({ outcome: 'removed', reason: 'The debt was paid before the file was opened.' });
  assert.ok(r.ok);
  const reason = 'removed after dispute 4: The debt was paid before the file was opened.';
  assert.deepEqual(r.effects, [
    { kind: 'deactivate', reportId: 7, from: 'approved', reason },
    { kind: 'reject', reportId: 9, from: 'pending', reason },
    { kind: 'deactivate', reportId: 8, from: 'approved', reason },
  ]);
});

test('D33 corrected: the operator`s correction, on the reports it names, field by field', () => {
  const fields = { amount: 1250.5, currency: 'TRY' };
  const r = decide({ outcome: 'corrected', reason: 'The amount was 1,250.50, not 12,505.00.', corrections: [{ reportId: 7, fields }] });
  assert.ok(r.ok);
  assert.deepEqual(r.effects, [{ kind: 'correct', reportId: 7, fields, reason: 'corrected after dispute 4: The amount was 1,250.50, not 12,505.00.' }]);
});

test('a decision needs an outcome and the reason given to the company (KVKK art. 13), with every problem at once', () => {
  assert.deepEqual(codes(decide({ outcome: 'rejected', reason: ' ' })), ['dispute.outcome_invalid', 'field.required']);
  assert.deepEqual(codes(decide({ outcome: 'corrected', reason: 'x' })), ['dispute.correction_required']);
  assert.deepEqual(codes(decide({ outcome: 'upheld', reason: 'x', corrections: [{ reportId: 7, fields: { amount: 1 } }] })), [
    'dispute.correction_not_allowed',
  ]);
  assert.deepEqual(
    codes(
      decide({
        outcome: 'corrected',
        reason: 'x',
        corrections: [
          { reportId: 7, fields: {} },
          { reportId: 8, fields: { filed_at: '2020-01-01', type: 'x' } },
        ],
      }),
    ),
    ['dispute.correction_empty', 'dispute.correction_field_unknown', 'dispute.correction_field_unknown'],
  );
  assert.deepEqual(
    codes(
      decide({
        outcome: 'corrected',
        reason: 'x',
        corrections: [
          { reportId: 99, fields: { amount: 1 } },
          { reportId: 7, fields: { amount: 1 } },
          { reportId: 7, fields: { currency: 'EUR' } },
        ],
      }),
    ),
    ['dispute.correction_report_unknown', 'dispute.correction_twice'],
  );
  const refused = decide({ outcome: 'rejected', reason: '' });
  assert.ok(!refused.ok);
  assert.equal(refused.error.kind, 'invalid');
  assert.equal(refused.error.message, "the outcome must be upheld, corrected or removed, got 'rejected'; decision reason is required");
});
