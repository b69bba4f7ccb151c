import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfTurkeyDay } from '../lib/calendar-date.ts';
import {
  DISPUTE_STATES,
  DISPUTE_STEPS,
  isDisputed,
  takeDisputeStep,
  type DisputeActor,
  type DisputeFacts,
  type DisputeStep,
  type StepInput,
} from './dispute-rules.ts';
import { NOT_SUPPORTED_REASON } from './dispute-effects.ts';
import type { DisputeOutcome } from './dispute-input.ts';

const at = (date: string, hh = 12) => startOfTurkeyDay(date) + hh * 3_600_000;
const operator: DisputeActor = { kind: 'operator', userId: 1 };
const filer: DisputeActor = { kind: 'member_user', userId: 2, memberId: 10 };
const otherMember: DisputeActor = { kind: 'member_user', userId: 3, memberId: 11 };
const system: DisputeActor = { kind: 'system', job: 'dispute-deadlines' };
const ACTORS = { operator, filer, otherMember, system } as const;

/** Told on 1 March: the member's last day is 16 March. Received on 27 February: the decision's last day is 29 March. */
const TOLD = at('2025-03-01', 10);
const IN_TIME = at('2025-03-10');
const LATE = at('2025-03-17', 0);

/** A dispute in each state, the state's outcome where decided: report 7 is member 10's claim, report 8 an official file. */
const SITUATIONS = [
  { name: 'open', state: 'open', outcome: null },
  { name: 'awaiting_member', state: 'awaiting_member', outcome: null },
  ...(['upheld', 'corrected', 'removed'] as const).map((outcome) => ({ name: `decided ${outcome}`, state: 'decided' as const, outcome })),
] as const;

function dispute(state: DisputeFacts['state'], outcome: DisputeOutcome | null = null): DisputeFacts {
  return {
    id: 3,
    state,
    outcome,
    receivedOn: '2025-02-27',
    membersToldAt: TOLD,
    reports: [
      { reportId: 7, status: 'approved', filingMemberId: 10, response: state === 'awaiting_member' ? 'awaited' : 'supported' },
      { reportId: 8, status: 'approved', filingMemberId: null, response: 'not_asked' },
    ],
  };
}

const VALID: Record<DisputeStep, StepInput> = {
  support: { step: 'support', reportId: 7, text: 'Invoice 2024/17 is unpaid; the delivery note is attached.' },
  withdraw: { step: 'withdraw', reportId: 7, note: 'paid meanwhile' },
  lapse: { step: 'lapse' },
  decide: { step: 'decide', outcome: 'upheld', reason: 'The enforcement file is in the register as reported.' },
  set_statement: { step: 'set_statement', text: 'We dispute the amount and have appealed.' },
};

/** Every (actor, state, step) D33 allows — support in time, the lapse once late — and nothing else. */
const ALLOWED = new Set([
  'filer awaiting_member support',
  'filer awaiting_member withdraw',
  'system awaiting_member lapse',
  'operator open decide',
  'operator awaiting_member decide',
  'operator decided upheld set_statement',
]);
const WHO: Record<DisputeStep, keyof typeof ACTORS> = { support: 'filer', withdraw: 'filer', lapse: 'system', decide: 'operator', set_statement: 'operator' };

test('D33: every actor × state × step: exactly the listed steps are taken, each refusal of the right kind', () => {
  let combinations = 0;
  for (const [actorName, actor] of Object.entries(ACTORS)) {
    for (const situation of SITUATIONS) {
      for (const step of DISPUTE_STEPS) {
        const key = `${actorName} ${situation.name} ${step}`;
        const result = takeDisputeStep(actor, dispute(situation.state, situation.outcome), VALID[step], step === 'lapse' ? LATE : IN_TIME);
        combinations++;
        assert.equal(result.ok, ALLOWED.has(key), key);
        if (result.ok) continue;
        // Another member never learns the dispute exists; a wrong role is forbidden; the right role at the wrong time is a conflict.
        const kind = actorName === 'otherMember' ? 'not_found' : actorName !== WHO[step] ? 'forbidden' : 'conflict';
        assert.equal(result.error.kind, kind, key);
      }
    }
  }
  assert.equal(combinations, 4 * 5 * 5);
  assert.deepEqual(DISPUTE_STATES, ['open', 'awaiting_member', 'decided']);
});

test('D33: where each allowed step leads', () => {
  const take = (actor: DisputeActor, state: DisputeFacts['state'], step: DisputeStep, outcome: DisputeOutcome | null = null) => {
    const r = takeDisputeStep(actor, dispute(state, outcome), VALID[step], step === 'lapse' ? LATE : IN_TIME);
    assert.ok(r.ok, step);
    return r;
  };
  const supported = take(filer, 'awaiting_member', 'support');
  assert.equal(supported.state, 'open', "the member's answer gives the turn back to the operator");
  assert.equal(supported.reports[0]!.response, 'supported');
  assert.deepEqual(supported.effects, []);
  const withdrawn = take(filer, 'awaiting_member', 'withdraw');
  assert.deepEqual(withdrawn.effects, [{ kind: 'withdraw', reportId: 7, from: 'approved', reason: 'withdrawn in dispute 3: paid meanwhile' }]);
  const lapsed = take(system, 'awaiting_member', 'lapse');
  assert.equal(lapsed.state, 'open');
  assert.deepEqual(lapsed.effects, [{ kind: 'deactivate', reportId: 7, from: 'approved', reason: NOT_SUPPORTED_REASON }]);
  assert.equal(NOT_SUPPORTED_REASON, 'not supported in a dispute');
  const decided = take(operator, 'awaiting_member', 'decide');
  assert.equal(decided.state, 'decided');
  assert.equal(decided.outcome, 'upheld');
  assert.equal(decided.reports[0]!.response, 'unanswered', 'deciding first closes the question to the member');
  assert.deepEqual(decided.effects, [], 'upheld: the reports stay as they are');
  const statement = take(operator, 'decided', 'set_statement', 'upheld');
  assert.equal(statement.text, 'We dispute the amount and have appealed.');
  assert.equal(statement.state, 'decided');
});

test('D33: with two members asked, the dispute waits until both have answered', () => {
  const two: DisputeFacts = {
    ...dispute('awaiting_member'),
    reports: [
      { reportId: 7, status: 'approved', filingMemberId: 10, response: 'awaited' },
      { reportId: 9, status: 'pending', filingMemberId: 12, response: 'awaited' },
    ],
  };
  const first = takeDisputeStep(filer, two, VALID.support, IN_TIME);
  assert.ok(first.ok);
  assert.equal(first.state, 'awaiting_member');
  const lapsed = takeDisputeStep(system, { ...two, reports: first.reports }, { step: 'lapse' }, LATE);
  assert.ok(lapsed.ok);
  assert.deepEqual(
    lapsed.reports.map((r) => r.response),
    ['supported', 'lapsed'],
  );
  // A pending claim was never shown: it is rejected, since D11 deactivates approved reports only.
  assert.deepEqual(lapsed.effects, [{ kind: 'reject', reportId: 9, from: 'pending', reason: NOT_SUPPORTED_REASON }]);
});

test('D33: the member`s 15 days in Turkey time, the first day not counted; withdrawing stays possible until the lapse', () => {
  const d = { ...dispute('awaiting_member'), membersToldAt: Date.UTC(2025, 2, 1, 22, 30) }; // 2 March 01:30 in Turkey
  const support = (now: number) => takeDisputeStep(filer, d, VALID.support, now);
  const lapse = (now: number) => takeDisputeStep(system, d, { step: 'lapse' }, now);
  assert.ok(support(Date.UTC(2025, 2, 17, 20, 59, 59)).ok, '17 March 23:59:59 in Turkey: the last day');
  const late = support(Date.UTC(2025, 2, 17, 21, 0, 0));
  assert.ok(!late.ok && late.error.problems[0]!.code === 'dispute.member_deadline_passed');
  assert.equal(!late.ok && late.error.message, 'the time to support ended on 2025-03-17');
  const early = lapse(Date.UTC(2025, 2, 17, 20, 59, 59));
  assert.ok(!early.ok && early.error.problems[0]!.code === 'dispute.member_deadline_not_passed');
  assert.ok(lapse(Date.UTC(2025, 2, 17, 21, 0, 0)).ok);
  assert.ok(takeDisputeStep(filer, d, VALID.withdraw, at('2025-03-20')).ok, 'D29: a member may withdraw its report at any time');
});

test('D33: a member answers once per report, and only for its own reports', () => {
  const answered = {
    ...dispute('awaiting_member'),
    reports: [
      { reportId: 7, status: 'approved' as const, filingMemberId: 10, response: 'supported' as const },
      { reportId: 9, status: 'approved' as const, filingMemberId: 12, response: 'awaited' as const },
    ],
  };
  const again = takeDisputeStep(filer, answered, VALID.withdraw, IN_TIME);
  assert.ok(!again.ok && again.error.kind === 'conflict' && again.error.problems[0]!.code === 'dispute.already_answered');
  const notMine = takeDisputeStep(filer, answered, { step: 'support', reportId: 9, text: 'x' }, IN_TIME);
  assert.ok(!notMine.ok);
  assert.equal(notMine.error.kind, 'not_found');
  assert.deepEqual(notMine.error.problems[0], {
    code: 'dispute.report_not_found_for_member',
    params: { id: 3, report: 9 },
    message: 'dispute 3 holds no report 9 of your member',
  });
});

test('D33: support needs its text; a withdrawal note is optional; the free-text rule holds for both', () => {
  const d = dispute('awaiting_member');
  const empty = takeDisputeStep(filer, d, { step: 'support', reportId: 7, text: '  ' }, IN_TIME);
  assert.ok(!empty.ok && empty.error.kind === 'invalid');
  assert.deepEqual(!empty.ok && empty.error.problems[0], { code: 'field.required', params: { field: 'support_text' }, message: 'support text is required' });
  const bidi = takeDisputeStep(filer, d, { step: 'support', reportId: 7, text: 'paid \u202Eon time' }, IN_TIME);
  assert.ok(!bidi.ok && bidi.error.problems[0]!.code === 'field.control_characters');
  const lines = takeDisputeStep(filer, d, { step: 'support', reportId: 7, text: 'Invoice 17\nDelivered 3 May' }, IN_TIME);
  assert.ok(lines.ok, 'line breaks are kept in a text with lines');
  const noNote = takeDisputeStep(filer, d, { step: 'withdraw', reportId: 7, note: '' }, IN_TIME);
  assert.ok(noNote.ok);
  assert.equal(noNote.effects[0]!.reason, 'withdrawn in dispute 3');
  const longNote = takeDisputeStep(filer, d, { step: 'withdraw', reportId: 7, note: 'x'.repeat(1001) }, IN_TIME);
  assert.ok(!longNote.ok && longNote.error.problems[0]!.code === 'field.too_long');
});

test('D33: the statement after an upheld decision: at most 500 characters, no control or bidi characters', () => {
  const upheld = dispute('decided', 'upheld');
  const statement = (text: string) => takeDisputeStep(operator, upheld, { step: 'set_statement', text }, IN_TIME);
  assert.ok(statement('ş'.repeat(500)).ok);
  const long = statement('ş'.repeat(501));
  assert.deepEqual(!long.ok && long.error.problems[0], {
    code: 'field.too_long',
    params: { field: 'statement', max: 500 },
    message: 'statement is longer than 500 characters',
  });
  for (const bad of ['a\u0007b', 'a\u2066b', 'a\u0000b']) {
    const r = statement(bad);
    assert.ok(!r.ok && r.error.problems[0]!.code === 'field.control_characters', JSON.stringify(bad));
  }
  const notUpheld = takeDisputeStep(operator, dispute('decided', 'corrected'), { step: 'set_statement', text: 'x' }, IN_TIME);
  assert.ok(!notUpheld.ok && notUpheld.error.problems[0]!.code === 'dispute.statement_needs_upheld');
});

test('D33: disputed means a dispute over the report is open or awaiting a member', () => {
  assert.equal(isDisputed([]), false);
  assert.equal(isDisputed(['open']), true);
  assert.equal(isDisputed(['awaiting_member']), true);
  assert.equal(isDisputed(['decided']), false);
  assert.equal(isDisputed(['decided', 'open']), true);
});
