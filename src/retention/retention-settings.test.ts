import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPORT_TYPES } from '../reports/report-types.ts';
import { DEFAULT_RETENTION, keptMonthsVariable, readRetentionSettings } from './retention-settings.ts';

test('D34 defaults: claims 36 months, official files and court decisions 60, concordats 12; expired 24 months; audit 365 days', () => {
  const { settings, problems } = readRetentionSettings();
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, DEFAULT_RETENTION);
  assert.deepEqual(settings.keptMonths, {
    enforcement_judgment: 60,
    enforcement_bill: 60,
    bounced_cheque: 60,
    debt_assigned: 60,
    enforcement_plain: 60,
    unpaid_debt: 36,
    concordat: 12,
    court_decision: 60,
  });
  assert.ok(Object.isFrozen(settings) && Object.isFrozen(settings.keptMonths));
});

test('each type has its own variable; a given value wins over the environment', () => {
  assert.deepEqual(REPORT_TYPES.map(keptMonthsVariable).slice(0, 2), [
    'RISKLOOKUP_RETENTION_MONTHS_ENFORCEMENT_JUDGMENT',
    'RISKLOOKUP_RETENTION_MONTHS_ENFORCEMENT_BILL',
  ]);
  const env = { RISKLOOKUP_RETENTION_MONTHS_CONCORDAT: '6', RISKLOOKUP_EXPIRED_KEPT_MONTHS: '12', RISKLOOKUP_AUDIT_RETENTION_DAYS: '400' };
  const fromEnv = readRetentionSettings({}, env).settings;
  assert.equal(fromEnv.keptMonths.concordat, 6);
  assert.equal(fromEnv.expiredKeptMonths, 12);
  assert.equal(fromEnv.auditKeptDays, 400);
  const given = readRetentionSettings({ keptMonths: { concordat: 3 }, expiredKeptMonths: '0' }, env).settings;
  assert.equal(given.keptMonths.concordat, 3);
  assert.equal(given.expiredKeptMonths, 0, '0: an expired report is deleted on the next run');
});

test('every bad value is reported together, with its variable, the allowed range and what was given', () => {
  const { settings, problems } = readRetentionSettings(
    {},
    { RISKLOOKUP_RETENTION_MONTHS_UNPAID_DEBT: 'three years', RISKLOOKUP_EXPIRED_KEPT_MONTHS: '-1', RISKLOOKUP_AUDIT_RETENTION_DAYS: '0' },
  );
  assert.deepEqual(problems, [
    "months unpaid_debt reports are kept (RISKLOOKUP_RETENTION_MONTHS_UNPAID_DEBT) must be a whole number from 1 to 120, got 'three years'",
    "months an expired report stays for the operators (RISKLOOKUP_EXPIRED_KEPT_MONTHS) must be a whole number from 0 to 60, got '-1'",
    "days search audit records are kept (RISKLOOKUP_AUDIT_RETENTION_DAYS) must be a whole number from 1 to 3650, got '0'",
  ]);
  assert.deepEqual(settings, DEFAULT_RETENTION, 'a refused value keeps its default while the problems are reported');
  assert.match(readRetentionSettings({ keptMonths: { court_decision: 121 } }).problems[0]!, /from 1 to 120, got '121'/);
});

test('a claim kept longer than an official file is refused, saying what to change', () => {
  assert.deepEqual(readRetentionSettings({ keptMonths: { unpaid_debt: 60 } }).problems, []);
  assert.deepEqual(readRetentionSettings({ keptMonths: { unpaid_debt: 48, bounced_cheque: 40, debt_assigned: 40 } }).problems, [
    'unpaid_debt reports would be kept 48 months, longer than official files (RISKLOOKUP_RETENTION_MONTHS_BOUNCED_CHEQUE, RISKLOOKUP_RETENTION_MONTHS_DEBT_ASSIGNED: 40): ' +
      "a member's claim may not outlive an official record; lower RISKLOOKUP_RETENTION_MONTHS_UNPAID_DEBT to 40 or less, or raise the official types",
  ]);
});
