import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importHeapGrowthOf, parseConfig } from './config.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD } from './search/near-match-score.ts';
import { DEFAULT_DATABASE_URL } from './db/database-url.ts';

test('near-match threshold: default, flag over environment, refused outside 0–1', () => {
  assert.equal(parseConfig({}, {}).nearMatchThreshold, DEFAULT_NEAR_MATCH_THRESHOLD);
  assert.equal(parseConfig({}, { RISKLOOKUP_NEAR_MATCH_THRESHOLD: '0.8' }).nearMatchThreshold, 0.8);
  assert.equal(parseConfig({ nearMatchThreshold: '.65' }, { RISKLOOKUP_NEAR_MATCH_THRESHOLD: '0.8' }).nearMatchThreshold, 0.65);
  for (const bad of ['1.5', 'x', '-0.1', '.']) {
    assert.throws(() => parseConfig({ nearMatchThreshold: bad }, {}), /near-match threshold .* from 0 to 1/, bad);
  }
});

test('every bad setting is reported together, each with its name and value', () => {
  assert.throws(
    () => parseConfig({ maxResults: '0' }, { RISKLOOKUP_DAILY_LIMIT: 'lots', RISKLOOKUP_DRAIN_GRACE_MS: '-1' }),
    (error: Error) =>
      /max results \(RISKLOOKUP_MAX_RESULTS\) must be a whole number from 1 to 50, got '0'/.test(error.message) &&
      /default daily limit \(RISKLOOKUP_DAILY_LIMIT\) must be a whole number from 1 to 10000000, got 'lots'/.test(error.message) &&
      /drain grace in ms \(RISKLOOKUP_DRAIN_GRACE_MS\) must be a whole number from 0 to 60000, got '-1'/.test(error.message),
  );
});

test('the drain grace is a setting: 1 s by default, shortened by RISKLOOKUP_DRAIN_GRACE_MS', () => {
  assert.equal(parseConfig({}, {}).drainGraceMs, 1000);
  assert.equal(parseConfig({}, { RISKLOOKUP_DRAIN_GRACE_MS: '100' }).drainGraceMs, 100);
});

test('the database URL: the flag, else DATABASE_URL, else the default', () => {
  assert.equal(parseConfig({ databaseUrl: 'sqlite:a.db' }, { DATABASE_URL: 'sqlite:b.db' }).databaseUrl, 'sqlite:a.db');
  assert.equal(parseConfig({}, { DATABASE_URL: 'sqlite:b.db' }).databaseUrl, 'sqlite:b.db');
  assert.equal(parseConfig({}, {}).databaseUrl, DEFAULT_DATABASE_URL);
});

test('the portal daily limit per member (D28 amended): 300 by default, RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT, a bad value reported', () => {
  assert.equal(parseConfig({}, {}).portalMemberDailyLimit, 300);
  assert.equal(parseConfig({}, { RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT: '1000' }).portalMemberDailyLimit, 1000);
  assert.throws(() => parseConfig({}, { RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT: '0' }), /RISKLOOKUP_PORTAL_MEMBER_DAILY_LIMIT\) must be a whole number from 1/);
});

test('the portal daily limit per user (D28): 100 by default, RISKLOOKUP_PORTAL_DAILY_LIMIT, a bad value reported', () => {
  assert.equal(parseConfig({}, {}).portalDailyLimit, 100);
  assert.equal(parseConfig({}, { RISKLOOKUP_PORTAL_DAILY_LIMIT: '250' }).portalDailyLimit, 250);
  assert.equal(parseConfig({}, {}).filingsPerMemberPerDay, 50);
  assert.equal(parseConfig({}, { RISKLOOKUP_FILINGS_PER_MEMBER_PER_DAY: '5' }).filingsPerMemberPerDay, 5);
  assert.throws(() => parseConfig({}, { RISKLOOKUP_FILINGS_PER_MEMBER_PER_DAY: '0' }), /RISKLOOKUP_FILINGS_PER_MEMBER_PER_DAY/);
  assert.throws(() => parseConfig({}, { RISKLOOKUP_PORTAL_DAILY_LIMIT: '0' }), /RISKLOOKUP_PORTAL_DAILY_LIMIT\) must be a whole number from 1/);
});

test('the users per member a member_admin may have: 25 by default, RISKLOOKUP_MAX_USERS_PER_MEMBER, a bad value reported', () => {
  assert.equal(parseConfig({}, {}).maxUsersPerMember, 25);
  assert.equal(parseConfig({}, { RISKLOOKUP_MAX_USERS_PER_MEMBER: '3' }).maxUsersPerMember, 3);
  assert.throws(() => parseConfig({}, { RISKLOOKUP_MAX_USERS_PER_MEMBER: 'many' }), /RISKLOOKUP_MAX_USERS_PER_MEMBER\) must be a whole number from 1/);
});

test('the public URL (one-time links, allowed form origin): flag, else RISKLOOKUP_PUBLIC_URL, else loopback; no trailing slash', () => {
  assert.equal(parseConfig({}, {}).publicUrl, 'http://127.0.0.1:8080');
  assert.equal(parseConfig({}, { RISKLOOKUP_PUBLIC_URL: 'https://risk.example.com/' }).publicUrl, 'https://risk.example.com');
  assert.equal(parseConfig({ publicUrl: 'https://a.example/risk/' }, { RISKLOOKUP_PUBLIC_URL: 'https://b.example' }).publicUrl, 'https://a.example/risk');
  for (const bad of ['ftp://x', 'not a url', 'https://x.example/?q=1', 'https://user:pw@x.example']) {
    assert.throws(() => parseConfig({ publicUrl: bad }, {}), /public URL \(RISKLOOKUP_PUBLIC_URL\)/, bad);
  }
});

test('webhook settings (D32): private addresses off by default; concurrency 64, 4 per endpoint; bad values named', () => {
  const defaults = parseConfig({}, {});
  assert.deepEqual([defaults.webhookAllowPrivateAddresses, defaults.webhookConcurrency, defaults.webhookConcurrencyPerEndpoint], [false, 64, 4]);
  assert.equal(parseConfig({}, { RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivateAddresses, true);
  assert.equal(parseConfig({}, { RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: 'off' }).webhookAllowPrivateAddresses, false);
  assert.throws(
    () => parseConfig({}, { RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: 'maybe' }),
    /RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE\) must be 1 or 0 \(true or false\), got 'maybe'/,
  );
  assert.throws(
    () => parseConfig({}, { RISKLOOKUP_WEBHOOK_CONCURRENCY: '2', RISKLOOKUP_WEBHOOK_CONCURRENCY_PER_ENDPOINT: '3' }),
    /webhook deliveries at once per endpoint \(3\) cannot exceed webhook deliveries at once \(2\)/,
  );
});

test('the delivery pace while serving: 250 a second by default, 0 turns it off, out of range named', () => {
  assert.equal(parseConfig({}, {}).webhookRateWhileServing, 250);
  assert.equal(parseConfig({}, { RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING: '0' }).webhookRateWhileServing, 0);
  assert.equal(parseConfig({}, { RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING: '170' }).webhookRateWhileServing, 170);
  for (const bad of ['-1', '100001', 'fast']) {
    assert.throws(
      () => parseConfig({}, { RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING: bad }),
      new RegExp(`RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING\\) must be a whole number from 0 to 100000, got '${bad}'`),
    );
  }
});

test('the in-memory index of names (issue 28): on by default, off by RISKLOOKUP_NAME_INDEX or the flag, a bad value reported', () => {
  assert.equal(parseConfig({}, {}).nameIndex, true);
  assert.equal(parseConfig({}, { RISKLOOKUP_NAME_INDEX: 'no' }).nameIndex, false);
  assert.equal(parseConfig({ nameIndex: 'yes' }, { RISKLOOKUP_NAME_INDEX: 'no' }).nameIndex, true);
  assert.equal(parseConfig({ nameIndex: 'off' }, {}).nameIndex, false);
  assert.throws(() => parseConfig({ nameIndex: 'maybe' }, {}), /in-memory index of names \(RISKLOOKUP_NAME_INDEX\) must be 1 or 0/);
});

test("V8's heap growth (issue 28): 50 % by default, the flag over RISKLOOKUP_HEAP_GROWTH_PERCENT, 0 for V8's own, a bad value reported", () => {
  assert.equal(parseConfig({}, {}).heapGrowthPercent, 50);
  assert.equal(parseConfig({}, { RISKLOOKUP_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
  assert.equal(parseConfig({ heapGrowthPercent: '30' }, { RISKLOOKUP_HEAP_GROWTH_PERCENT: '80' }).heapGrowthPercent, 30);
  assert.throws(
    () => parseConfig({ heapGrowthPercent: '-5' }, {}),
    /heap growth in percent \(RISKLOOKUP_HEAP_GROWTH_PERCENT\) must be a whole number from 0 to 1000/,
  );
});

test("a PostgreSQL import's heap growth (issue 28): 100 % unless RISKLOOKUP_HEAP_GROWTH_PERCENT says, 0 for V8's own, a bad value reported", () => {
  assert.deepEqual(importHeapGrowthOf({}), { percent: 100, problems: [] });
  assert.deepEqual(importHeapGrowthOf({ RISKLOOKUP_HEAP_GROWTH_PERCENT: '0' }), { percent: 0, problems: [] });
  assert.deepEqual(importHeapGrowthOf({ RISKLOOKUP_HEAP_GROWTH_PERCENT: '250' }), { percent: 250, problems: [] });
  assert.match(
    importHeapGrowthOf({ RISKLOOKUP_HEAP_GROWTH_PERCENT: 'lots' }).problems.join(),
    /RISKLOOKUP_HEAP_GROWTH_PERCENT\) must be a whole number from 0 to 1000/,
  );
});

test("V8's new space (issue 28): 8 MB at most by default, the flag over RISKLOOKUP_NEW_SPACE_MB, 2 without growth, a bad value or a contradiction reported", () => {
  assert.equal(parseConfig({}, {}).newSpaceMb, 8);
  assert.equal(parseConfig({}, {}).newSpaceGrowth, true);
  assert.equal(parseConfig({}, { RISKLOOKUP_NEW_SPACE_MB: '32' }).newSpaceMb, 32);
  assert.equal(parseConfig({ newSpaceMb: '4' }, { RISKLOOKUP_NEW_SPACE_MB: '8' }).newSpaceMb, 4);
  assert.equal(parseConfig({ newSpaceGrowth: 'no' }, {}).newSpaceMb, 2);
  assert.equal(parseConfig({ newSpaceGrowth: 'no', newSpaceMb: '2' }, {}).newSpaceMb, 2);
  for (const bad of ['5', '0', '64', '8.0', 'x'])
    assert.throws(() => parseConfig({ newSpaceMb: bad }, {}), /V8's new space in MB \(RISKLOOKUP_NEW_SPACE_MB\) must be one of 2, 4, 8, 16, 32/);
  assert.throws(() => parseConfig({ newSpaceGrowth: 'no' }, { RISKLOOKUP_NEW_SPACE_MB: '16' }), /choose one: no growth of V8's new space/);
});

test('the search cache (issue 28): 200 answers by default, the flag over RISKLOOKUP_SEARCH_CACHE_ENTRIES, 0 turns it off, a bad value reported', () => {
  assert.equal(parseConfig({}, {}).searchCacheEntries, 200);
  assert.equal(parseConfig({}, { RISKLOOKUP_SEARCH_CACHE_ENTRIES: '1000' }).searchCacheEntries, 1000);
  assert.equal(parseConfig({ searchCacheEntries: '0' }, { RISKLOOKUP_SEARCH_CACHE_ENTRIES: '1000' }).searchCacheEntries, 0);
  assert.throws(
    () => parseConfig({ searchCacheEntries: '-1' }, {}),
    /search cache entries \(RISKLOOKUP_SEARCH_CACHE_ENTRIES\) must be a whole number from 0 to 1000000/,
  );
});

test('the pooler in front of PostgreSQL: none by default, session or transaction from RISKLOOKUP_DB_POOLER, a bad value named with the choices', () => {
  assert.equal(parseConfig({}, {}).dbPooler, 'none');
  assert.equal(parseConfig({}, { RISKLOOKUP_DB_POOLER: ' Transaction ' }).dbPooler, 'transaction');
  assert.equal(parseConfig({}, { RISKLOOKUP_DB_POOLER: 'session' }).dbPooler, 'session');
  assert.throws(
    () => parseConfig({}, { RISKLOOKUP_DB_POOLER: 'pgbouncer' }),
    /RISKLOOKUP_DB_POOLER\) must be none .*, session .* or transaction .*, got 'pgbouncer'/,
  );
});
