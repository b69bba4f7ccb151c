import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportStatus } from './lifecycle.ts';
import type { ReportType } from './report-types.ts';
import { consensusScore, threatLevelOf, visibleReports, type ReportFacts } from './visibility.ts';

const claim = (by: number, status: ReportStatus = 'approved'): ReportFacts => ({ type: 'unpaid_debt', status, reportedBy: by });
const file = (type: ReportType = 'enforcement_judgment', status: ReportStatus = 'approved'): ReportFacts => ({
  type,
  status,
  reportedBy: null,
});

test('D12: two claims from two members stay hidden', () => {
  assert.equal(consensusScore([claim(1), claim(2)]), 2);
  assert.deepEqual(visibleReports([claim(1), claim(2)]), []);
});

test('D12: three claims from three members are all shown', () => {
  const reports = [claim(1), claim(2), claim(3)];
  assert.equal(visibleReports(reports).length, 3);
});

test('D12: three claims from one member count once and stay hidden', () => {
  assert.equal(consensusScore([claim(1), claim(1), claim(1)]), 1);
  assert.deepEqual(visibleReports([claim(1), claim(1), claim(1)]), []);
});

test('D12: a rejected, pending or withdrawn third claim does not count', () => {
  for (const status of ['rejected', 'pending', 'withdrawn', 'deactivated'] as const) {
    assert.deepEqual(visibleReports([claim(1), claim(2), claim(3, status)]), [], status);
  }
});

test('D12: one active official file lifts a single claim', () => {
  const reports = [claim(1), file('bounced_cheque')];
  assert.equal(consensusScore(reports), 3.5);
  assert.equal(visibleReports(reports).length, 2);
});

test('D12: an inactive official file lifts nothing and is not shown', () => {
  assert.deepEqual(visibleReports([claim(1), file('debt_assigned', 'pending')]), []);
});

test('D12: legacy types are visible when active and do not count toward consensus', () => {
  const legacy: ReportFacts[] = [
    { type: 'concordat', status: 'approved', reportedBy: 1 },
    { type: 'court_decision', status: 'approved', reportedBy: 2 },
  ];
  assert.equal(consensusScore([...legacy, claim(3)]), 1);
  assert.deepEqual(visibleReports([...legacy, claim(3)]), legacy);
});

test('D12: every official type is visible on approval, not before', () => {
  for (const type of ['enforcement_judgment', 'enforcement_bill', 'bounced_cheque', 'debt_assigned', 'enforcement_plain'] as const) {
    assert.equal(visibleReports([file(type)]).length, 1, type);
    assert.equal(visibleReports([file(type, 'pending')]).length, 0, type);
  }
});

test('spec 3.2: threat level from the visible count, 5 normal, 6 high, 0 not returned', () => {
  assert.equal(threatLevelOf(0), null);
  assert.equal(threatLevelOf(1), 'normal');
  assert.equal(threatLevelOf(5), 'normal');
  assert.equal(threatLevelOf(6), 'high');
});
