import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, lastQuotaDays, usageCsv, usageSeries } from './usage-series.ts';

test('the last 30 quota days end with today in Turkey time (D19), oldest first', () => {
  // 2026-11-21 22:30 UTC is already 2026-11-22 01:30 in Turkey.
  const days = lastQuotaDays(Date.UTC(2026, 10, 21, 22, 30), 30);
  assert.equal(days.length, 30);
  assert.equal(days[29], '2026-11-22');
  assert.equal(days[0], '2026-10-24');
  assert.equal(new Set(days).size, 30);
});

test("the member's API counter (member:) and portal counters (user:) are summed apart; days outside and other counters are ignored", () => {
  const series = usageSeries(
    ['2026-11-20', '2026-11-21'],
    [
      { day: '2026-11-21', subject: 'member:1', used: 7 },
      { day: '2026-11-21', subject: 'user:9', used: 2 },
      { day: '2026-11-21', subject: 'portal:member:1', used: 2 },
      { day: '2026-11-19', subject: 'member:1', used: 50 },
    ],
  );
  assert.deepEqual(series, [
    { day: '2026-11-20', api: 0, portal: 0 },
    { day: '2026-11-21', api: 7, portal: 2 },
  ]);
});

test('CSV: header, one row per day, CRLF, RFC 4180 quoting, formulas neutralised', () => {
  assert.equal(usageCsv([{ day: '2026-11-21', api: 7, portal: 2 }]), 'day,api,portal\r\n2026-11-21,7,2\r\n');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvField('-1+2'), "'-1+2");
  assert.equal(csvField(-1), '-1');
});
