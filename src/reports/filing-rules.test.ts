import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTransition, REPORT_STATUSES, type ReportStatus } from './lifecycle.ts';
import { checkFilingMember, checkStep, MODERATION_STEPS, type Actor, type ModerationStep } from './filing-rules.ts';

const operator: Actor = { kind: 'operator', userId: 1 };
const filer: Actor = { kind: 'member', userId: 2, memberId: 10 };
const otherMember: Actor = { kind: 'member', userId: 3, memberId: 11 };
const actors: readonly Actor[] = [operator, filer];
const report = (status: ReportStatus) => ({ id: 7, status, reportedBy: 10 });

/** Every (actor, status, step) that D29 allows, and nothing else. */
const ALLOWED = new Set([
  'operator pending approve',
  'operator pending reject',
  'operator approved deactivate',
  'member pending withdraw',
  'member approved withdraw',
]);

test('D29: exactly the listed steps by the listed roles, every other combination refused', () => {
  for (const actor of actors) {
    for (const status of REPORT_STATUSES) {
      for (const step of MODERATION_STEPS) {
        const result = checkStep(actor, report(status), step, 'because');
        const key = `${actor.kind} ${status} ${step}`;
        assert.equal(result.ok, ALLOWED.has(key), key);
      }
    }
  }
});

test('D29: the steps lead where they should', () => {
  const to = (actor: Actor, status: ReportStatus, step: ModerationStep) => {
    const r = checkStep(actor, report(status), step, 'x');
    return r.ok ? r.to : r.message;
  };
  assert.equal(to(operator, 'pending', 'approve'), 'approved');
  assert.equal(to(operator, 'pending', 'reject'), 'rejected');
  assert.equal(to(operator, 'approved', 'deactivate'), 'deactivated');
  assert.equal(to(filer, 'pending', 'withdraw'), 'withdrawn');
  assert.equal(to(filer, 'approved', 'withdraw'), 'withdrawn');
});

test('D29: a member cannot approve; an operator cannot withdraw a member report (forbidden)', () => {
  const approve = checkStep(filer, report('pending'), 'approve', null);
  assert.deepEqual(approve, {
    ok: false,
    kind: 'forbidden',
    message: 'only an operator may approve a report',
    problem: { code: 'report.operator_only', params: { step: 'approve' } },
  });
  const withdraw = checkStep(operator, report('approved'), 'withdraw', 'paid');
  assert.deepEqual(withdraw, {
    ok: false,
    kind: 'forbidden',
    message: 'only the filing member may withdraw its report',
    problem: { code: 'report.member_only', params: { step: 'withdraw' } },
  });
});

test('D29/D13: another member acting on a report gets not_found, never a hint that it exists', () => {
  for (const step of MODERATION_STEPS) {
    const result = checkStep(otherMember, report('pending'), step, 'x');
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.kind, 'not_found', step);
  }
});

test('D29: nobody acts on a final status', () => {
  for (const status of ['rejected', 'withdrawn', 'deactivated'] as const) {
    for (const actor of actors) {
      for (const step of MODERATION_STEPS) {
        const ok: boolean = checkStep(actor, report(status), step, 'x').ok;
        assert.equal(ok, false, `${actor.kind} ${status} ${step}`);
      }
    }
    const r = checkStep(operator, report(status), 'deactivate', 'x');
    assert.match(!r.ok ? r.message : '', /final/);
  }
});

test('D29: a reason is required to reject and to deactivate, a note to withdraw; approving needs none', () => {
  const cases: Array<[Actor, ReportStatus, ModerationStep]> = [
    [operator, 'pending', 'reject'],
    [operator, 'approved', 'deactivate'],
    [filer, 'approved', 'withdraw'],
    [filer, 'pending', 'withdraw'],
  ];
  for (const [actor, status, step] of cases) {
    for (const reason of [null, undefined, '', '   ']) {
      const result = checkStep(actor, report(status), step, reason);
      assert.equal(!result.ok && result.kind, 'invalid', `${step} with ${JSON.stringify(reason)}`);
    }
  }
  assert.match((checkStep(filer, report('pending'), 'withdraw', ' ') as { message: string }).message, /a note is required/);
  const approve = checkStep(operator, report('pending'), 'approve', null);
  assert.deepEqual(approve, { ok: true, from: 'pending', to: 'approved', reason: null });
  const reject = checkStep(operator, report('pending'), 'reject', '  no invoice attached ');
  assert.deepEqual(reject, { ok: true, from: 'pending', to: 'rejected', reason: 'no invoice attached' });
});

test('D29: an overlong reason is refused', () => {
  const result = checkStep(operator, report('pending'), 'reject', 'x'.repeat(1001));
  assert.equal(!result.ok && result.kind, 'invalid');
});

test("D11 stays the CLI's table: pending → withdrawn is a D29 member step only", () => {
  assert.notEqual(checkTransition('pending', 'withdrawn'), null);
  assert.equal(checkStep(filer, report('pending'), 'withdraw', 'paid').ok, true);
});

test('D29: only an active full member with a signed agreement files', () => {
  const good = { status: 'active', tier: 'full', agreementSignedOn: '2026-01-01' } as const;
  assert.equal(checkFilingMember(good), null);
  assert.match(checkFilingMember({ ...good, status: 'suspended' })!.message, /suspended/);
  assert.match(checkFilingMember({ ...good, status: 'terminated' })!.message, /terminated/);
  assert.match(checkFilingMember({ ...good, tier: 'associate' })!.message, /full members/);
  assert.match(checkFilingMember({ ...good, agreementSignedOn: null })!.message, /data agreement/);
  assert.deepEqual(checkFilingMember({ ...good, status: 'suspended' })!.params, { memberStatus: 'suspended' });
});
