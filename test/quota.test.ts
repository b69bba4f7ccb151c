/** Quota (D3, D18, D19) and the anonymous allowance (D20), on every engine. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/assertions.ts';
import { setMember } from '../src/members/members.service.ts';
import { createMemberUsage } from '../src/quota/member-usage.service.ts';
import { cliActor } from '../src/actors/actor.ts';
import type { SearchBody } from './helpers/bodies.ts';

for (const engine of ENGINES) {
  describe(`quota [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { anonDailyLimit: 5 });
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Quotatest Lojistik A.Ş.' }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('D18: 60 parallel requests with 17 left give exactly 17 answers of 200', async () => {
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-PAR', dailyLimit: 20 });
      for (let i = 0; i < 3; i++) assert.equal((await search(t.app, key, 'q=Quotatest')).statusCode, 200);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const answers = await Promise.all(
        Array.from({ length: 60 }, () =>
          fetch(`http://127.0.0.1:${port}/api/v1/search.php?q=Quotatest`, { headers: { 'x-api-key': key } }).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as SearchBody,
          })),
        ),
      );
      const ok = answers.filter((a) => a.status === 200);
      assert.equal(ok.length, 17);
      assert.equal(answers.filter((a) => a.status === 429).length, 43);
      // Every 200 saw a different count: no two requests shared a unit.
      const used = ok.map((a) => a.body.meta.queries_used_today).sort((a, b) => a - b);
      assert.deepEqual(
        used,
        Array.from({ length: 17 }, (_, i) => i + 4),
      );
    });

    test('D18/D19: 429 when used up, with Retry-After and the reset at midnight UTC+3', async () => {
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-LIM', dailyLimit: 2 });
      const first = await search(t.app, key, 'q=Quotatest');
      assert.equal(first.headers['x-ratelimit-limit'], '2');
      assert.equal(first.headers['x-ratelimit-remaining'], '1');
      assert.equal(first.headers['x-ratelimit-used'], '1');
      // Test clock: 2026-11-21 12:00 Turkey time; the next reset is 2026-11-21 21:00:00 UTC.
      const reset = Date.UTC(2026, 10, 21, 21, 0, 0) / 1000;
      assert.equal(first.headers['x-ratelimit-reset'], String(reset));
      // The IETF draft fields beside them: the same quota, 1 left, 12 hours to the reset.
      assert.equal(first.headers['ratelimit-policy'], '"daily";q=2;w=86400');
      assert.equal(first.headers.ratelimit, `"daily";r=1;t=${12 * 3600}`);
      t.clock.advance(1500);
      const second = await search(t.app, key, 'q=Quotatest');
      assert.equal(second.json<SearchBody>().meta.remaining_today, 0);
      assert.equal(second.headers.ratelimit, `"daily";r=0;t=${12 * 3600 - 1}`);
      const refused = await search(t.app, key, 'q=Quotatest');
      const body = assertErrorBody(refused, 429, 'rate_limited');
      assert.match(body.error, /used up/);
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.equal(refused.headers['retry-after'], String(12 * 3600 - 1));
      assert.equal(refused.headers.ratelimit, `"daily";r=0;t=${12 * 3600 - 1}`);
    });

    test('D18: 400, 403 and 429 do not count against the key', async () => {
      const db = database.engine.db;
      const key = await makeKeyHolder(db, t.clock, { ref: 'M-COUNT', dailyLimit: 3 });
      for (const q of ['q=ab', 'q=abc&type=x', 'q=%25%25%25', 'q=1111111111&type=tax_id&country=TR', 'q=a&q=b']) {
        assert.equal((await search(t.app, key, q)).statusCode, 400, q);
      }
      await setMember(db, t.clock, 'M-COUNT', { status: 'suspended' });
      assert.equal((await search(t.app, key, 'q=Quotatest')).statusCode, 403);
      await setMember(db, t.clock, 'M-COUNT', { status: 'active' });
      const ok = await search(t.app, key, 'q=Quotatest');
      assert.equal(ok.json<SearchBody>().meta.queries_used_today, 1);
      await search(t.app, key, 'q=Quotatest');
      await search(t.app, key, 'q=Quotatest');
      for (let i = 0; i < 3; i++) assert.equal((await search(t.app, key, 'q=Quotatest')).statusCode, 429);
      const usage = await createMemberUsage({ db, clock: t.clock }).apiByDay(cliActor('test'), { ref: 'M-COUNT' });
      assert.deepEqual(usage.days, [{ day: '2026-11-21', used: 3 }]);
    });

    test('D19: 20:59:59 and 21:00:00 UTC fall on different quota days', async () => {
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-DAY', dailyLimit: 1 });
      t.clock.set(Date.UTC(2026, 10, 21, 20, 59, 59));
      assert.equal((await search(t.app, key, 'q=Quotatest')).statusCode, 200);
      assert.equal((await search(t.app, key, 'q=Quotatest')).statusCode, 429);
      t.clock.set(Date.UTC(2026, 10, 21, 21, 0, 0));
      const next = await search(t.app, key, 'q=Quotatest');
      assert.equal(next.statusCode, 200);
      assert.equal(next.json<SearchBody>().meta.queries_used_today, 1);
      assert.equal(next.headers['x-ratelimit-reset'], String(Date.UTC(2026, 10, 22, 21, 0, 0) / 1000));
    });

    test('D20: requests without a known key use the address allowance, then 429', async () => {
      t.clock.set(Date.UTC(2026, 11, 1, 9, 0, 0));
      const countries = await t.app.inject({ url: '/api/v1/countries.php' });
      assert.equal(countries.headers['x-ratelimit-limit'], '5');
      assert.equal(countries.headers['x-ratelimit-remaining'], '4');
      assert.equal(countries.headers['ratelimit-policy'], '"daily";q=5;w=86400');
      assert.equal(countries.headers.ratelimit, `"daily";r=4;t=${12 * 3600}`);
      assertErrorBody(await search(t.app, null, 'q=abc'), 401, 'api_key_missing');
      assertErrorBody(await search(t.app, 'x'.repeat(64), 'q=abc'), 401, 'api_key_invalid');
      assertErrorBody(await t.app.inject({ url: '/nowhere' }), 404, 'not_found');
      const last = await t.app.inject({ url: '/api/v1/countries' });
      assert.equal(last.headers['x-ratelimit-remaining'], '0');
      assertErrorBody(await search(t.app, null, 'q=abc'), 429, 'rate_limited');
      assertErrorBody(await t.app.inject({ url: '/api/v1/countries' }), 429, 'rate_limited');
    });
  });
}
