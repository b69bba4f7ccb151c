/**
 * The watchlist and the event feed over HTTP (D31) on both engines: D17's outcomes in order, D2's
 * body and D3's headers showing the route's own allowance (never the search quota), tax IDs
 * checked as D9, the cap (exact under concurrency, an operator's own cap), answers that never
 * tell whether a company has records, paging, the feed's cursor, its 30 days, /metrics' count.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { countries, makeCompanies, makeKeyHolder, makeReport, nextVkn } from './helpers/factories.ts';
import { issueKey, revokeKey } from '../src/keys/keys.service.ts';
import { setMember } from '../src/members/members.service.ts';
import { recordCompanyChanges } from '../src/events/company-changes.ts';
import { eventRetentionJob } from '../src/events/event-feed.service.ts';
import { readEventsWritten } from '../src/events/events.repository.ts';
import { importLines } from '../src/import/import.service.ts';
import { companyLine } from './helpers/factories.ts';
import { createWatchlist } from '../src/watchlist/watchlist.service.ts';
import { cliActor } from '../src/actors/actor.ts';

for (const engine of ENGINES) {
  describe(`watchlist and event feed API [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { watchlistDailyLimit: 50, eventsDailyLimit: 40 });
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'WL-1', dailyLimit: 100 });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const call = (method: 'PUT' | 'DELETE' | 'GET', url: string, withKey: string | null = key) =>
      t.app.inject({ method, url, headers: withKey === null ? {} : { 'x-api-key': withKey } });

    test('PUT adds (idempotent), GET lists without risk data, DELETE removes; the answers do not depend on records', async () => {
      const [withRecords] = await makeCompanies(database.engine, t.clock, [{ company_name: 'Kayıtlı Metal A.Ş.', reports: [makeReport()] }]);
      const without = nextVkn();
      const a = await call('PUT', `/api/v1/watchlist/tr/${withRecords}`);
      const b = await call('PUT', `/api/v1/watchlist/TR/${without}`);
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(b.statusCode, 200, b.body);
      const shape = (body: string, taxId: string) => body.replace(taxId, 'X');
      assert.equal(shape(a.body, withRecords!), shape(b.body, without), 'the same answer with and without records');
      assert.deepEqual(a.json(), { success: true, added: true, watch: { country: 'TR', tax_id: withRecords, added_at: '2026-11-21 12:00:00' } });
      assert.equal(a.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(a.headers['cache-control'], 'no-store');
      const again = await call('PUT', `/api/v1/watchlist/TR/TR${withRecords}`);
      assert.equal(again.json<{ added: boolean }>().added, false, 'a country prefix is the same ID (D9) and a second PUT changes nothing');
      const list = await call('GET', '/api/v1/watchlist');
      assert.equal(list.statusCode, 200, list.body);
      const body = list.json<{ watch_count: number; cap: number; watches: Array<Record<string, string>>; next_cursor: string | null }>();
      assert.equal(body.watch_count, 2);
      assert.equal(body.cap, 500);
      assert.deepEqual(Object.keys(body.watches[0]!).sort(), ['added_at', 'country', 'tax_id']);
      assert.doesNotMatch(list.body, /Kayıtlı|threat|report/);
      const removed = await call('DELETE', `/api/v1/watchlist/TR/${without}`);
      assert.equal(removed.statusCode, 204);
      const gone = await call('DELETE', `/api/v1/watchlist/TR/${without}`);
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json<{ reason: string }>().reason, 'not_found');
      await call('DELETE', `/api/v1/watchlist/TR/${withRecords}`);
    });

    test('D9: a mistyped tax ID or an unknown country is a 400 naming the fix; the wrong method a 405', async () => {
      const valid = nextVkn();
      const mistyped = valid.slice(0, 9) + String((Number(valid[9]) + 1) % 10);
      const bad = await call('PUT', `/api/v1/watchlist/TR/${mistyped}`);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json<{ reason: string }>().reason, 'invalid_tax_id');
      assert.match(bad.json<{ error: string }>().error, /VKN/);
      const country = await call('PUT', `/api/v1/watchlist/XX/${nextVkn()}`);
      assert.equal(country.json<{ reason: string }>().reason, 'unsupported_country');
      const post = await t.app.inject({ method: 'POST', url: `/api/v1/watchlist/TR/${nextVkn()}`, headers: { 'x-api-key': key } });
      assert.equal(post.statusCode, 405);
      assert.equal(post.headers.allow, 'PUT, DELETE');
    });

    test('D17 in order, with D2 bodies; D3 headers show the watchlist allowance, and the search quota is untouched', async () => {
      const { db } = database.engine;
      const taxId = nextVkn();
      const missing = await call('PUT', `/api/v1/watchlist/TR/${taxId}`, null);
      assert.deepEqual([missing.statusCode, missing.json<{ reason: string }>().reason], [401, 'api_key_missing']);
      assert.equal(missing.headers['x-ratelimit-limit'], '1000', 'no known key: the anonymous allowance (D20)');
      const invalid = await call('GET', '/api/v1/events', 'x'.repeat(64));
      assert.deepEqual([invalid.statusCode, invalid.json<{ reason: string }>().reason], [401, 'api_key_invalid']);
      const revokedKey = await makeKeyHolder(db, t.clock, { ref: 'WL-REV' });
      await revokeKey(db, t.clock, 'WL-REV');
      const revoked = await call('GET', '/api/v1/watchlist', revokedKey);
      assert.deepEqual([revoked.statusCode, revoked.json<{ reason: string }>().reason], [403, 'key_revoked']);
      assert.equal(revoked.headers['x-ratelimit-limit'], '50', "the watchlist's allowance applies, even to a refused key");
      const suspendedKey = await makeKeyHolder(db, t.clock, { ref: 'WL-SUS' });
      await setMember(db, t.clock, 'WL-SUS', { status: 'suspended' });
      assert.equal((await call('GET', '/api/v1/events', suspendedKey)).json<{ reason: string }>().reason, 'member_suspended');
      const associateKey = await makeKeyHolder(db, t.clock, { ref: 'WL-ASSOC', tier: 'associate' });
      assert.equal((await call('PUT', `/api/v1/watchlist/TR/${taxId}`, associateKey)).json<{ reason: string }>().reason, 'member_not_full');
      const unsignedKey = await makeKeyHolder(db, t.clock, { ref: 'WL-UNSIGNED', agreementSigned: false });
      assert.equal((await call('PUT', `/api/v1/watchlist/TR/${taxId}`, unsignedKey)).json<{ reason: string }>().reason, 'agreement_unsigned');

      const fresh = await makeKeyHolder(db, t.clock, { ref: 'WL-Q', dailyLimit: 5 });
      const first = await call('PUT', `/api/v1/watchlist/TR/${taxId}`, fresh);
      assert.deepEqual([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-used']], ['50', '1']);
      const feed = await call('GET', '/api/v1/events', fresh);
      assert.deepEqual([feed.headers['x-ratelimit-limit'], feed.headers['x-ratelimit-used']], ['40', '1'], 'the feed has its own allowance');
      const s = await search(t.app, fresh, `q=${taxId}&type=tax_id&country=TR`);
      assert.equal(s.json<{ meta: { queries_used_today: number } }>().meta.queries_used_today, 1, 'watchlist calls took nothing from the search quota');
      for (let i = 0; i < 39; i++) await call('GET', '/api/v1/events', fresh);
      const spent = await call('GET', '/api/v1/events', fresh);
      assert.deepEqual([spent.statusCode, spent.json<{ reason: string }>().reason], [429, 'rate_limited']);
      assert.ok(Number(spent.headers['retry-after']) > 0);
      assert.equal((await call('GET', '/api/v1/watchlist', fresh)).statusCode, 200, 'the watchlist allowance is apart from the feed');
    });

    test('the cap: an operator sets it per member; at the cap a 409 names the fix; exact under concurrency', async () => {
      const { db } = database.engine;
      const capped = await makeKeyHolder(db, t.clock, { ref: 'WL-CAP' });
      await createWatchlist({ db, clock: t.clock, countries, defaultCap: 500 }).setCap(cliActor('tester'), { ref: 'WL-CAP', cap: 3 });
      const logged = await db.selectFrom('operator_log').selectAll().where('action', '=', 'member.watchlist_cap').executeTakeFirstOrThrow();
      assert.deepEqual(
        [logged.actor, logged.target, logged.before_json, logged.after_json],
        ['cli:tester', 'member:WL-CAP', '{"watchlist_cap":null}', '{"watchlist_cap":3}'],
      );
      const ids = Array.from({ length: 8 }, () => nextVkn());
      const answers = await Promise.all(ids.map((id) => call('PUT', `/api/v1/watchlist/TR/${id}`, capped)));
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 409, 409, 409, 409, 409]);
      const full = answers.find((a) => a.statusCode === 409)!;
      assert.equal(full.json<{ reason: string }>().reason, 'watchlist_full');
      assert.match(full.json<{ error: string }>().error, /3 companies.*remove one/);
      const list = (await call('GET', '/api/v1/watchlist?limit=2', capped)).json<{
        watch_count: number;
        cap: number;
        watches: unknown[];
        next_cursor: string;
      }>();
      assert.deepEqual([list.watch_count, list.cap, list.watches.length], [3, 3, 2]);
      const rest = (await call('GET', `/api/v1/watchlist?limit=2&after=${list.next_cursor}`, capped)).json<{ watches: unknown[]; next_cursor: null }>();
      assert.deepEqual([rest.watches.length, rest.next_cursor], [1, null]);
      assert.equal((await call('GET', '/api/v1/watchlist?after=nonsense', capped)).json<{ reason: string }>().reason, 'invalid_cursor');
    });

    test('the feed: oldest first, a stable cursor across pages and new events, a bad cursor is a 400, another member sees nothing, 30 days kept', async () => {
      const { db } = database.engine;
      const feedKey = await makeKeyHolder(db, t.clock, { ref: 'WL-FEED' });
      const otherKey = (await issueKey(db, t.clock, 'WL-1', 100)).key;
      const taxIds = [nextVkn(), nextVkn(), nextVkn()];
      for (const id of taxIds) await call('PUT', `/api/v1/watchlist/TR/${id}`, feedKey);
      const writtenBefore = await readEventsWritten(db);
      for (const id of taxIds) {
        t.clock.advance(1000);
        await importLines(database.engine, [companyLine({ company_name: 'Akış Gıda A.Ş.', tax_id: id, reports: [makeReport()] })], 'test', {
          countries,
          clock: t.clock,
        });
      }
      assert.equal(await readEventsWritten(db), writtenBefore + 3, 'the /metrics count moves with committed events');
      const first = (await call('GET', '/api/v1/events?limit=2', feedKey)).json<{
        events: Array<{ tax_id: string; id: string }>;
        next_cursor: string;
        has_more: boolean;
      }>();
      assert.deepEqual(
        first.events.map((e) => e.tax_id),
        taxIds.slice(0, 2),
      );
      assert.equal(first.has_more, true);
      const second = (await call('GET', `/api/v1/events?after=${first.next_cursor}`, feedKey)).json<{
        events: Array<{ tax_id: string }>;
        next_cursor: string;
        has_more: boolean;
      }>();
      assert.deepEqual(
        second.events.map((e) => e.tax_id),
        [taxIds[2]],
      );
      const empty = (await call('GET', `/api/v1/events?after=${second.next_cursor}`, feedKey)).json<{ events: unknown[]; next_cursor: string }>();
      assert.deepEqual([empty.events, empty.next_cursor], [[], second.next_cursor], 'nothing new: the same cursor back');
      const again = (await call('GET', `/api/v1/events?after=${first.next_cursor}`, feedKey)).json<{ events: Array<{ tax_id: string }> }>();
      assert.deepEqual(
        again.events.map((e) => e.tax_id),
        [taxIds[2]],
        'a cursor is stable: read twice, the same events',
      );
      for (const bad of ['abc', 'YzE6LTE', '%00', 'a'.repeat(50)]) {
        const res = await call('GET', `/api/v1/events?after=${bad}`, feedKey);
        assert.equal(res.statusCode, 400, bad);
      }
      assert.equal((await call('GET', '/api/v1/events?limit=0', feedKey)).statusCode, 400);
      const others = (await call('GET', '/api/v1/events', otherKey)).json<{ events: Array<{ tax_id: string }> }>();
      assert.ok(!others.events.some((e) => taxIds.includes(e.tax_id)), "another member's feed holds none of these");

      t.clock.advance(31 * 86_400_000);
      await db.transaction().execute((trx) => recordCompanyChanges(trx, t.clock.now(), [{ country: 'TR', taxIdNorm: taxIds[0]!, kinds: ['report_disputed'] }]));
      const log = { debug() {}, info() {}, warn() {} };
      await eventRetentionJob({ db, clock: t.clock, log }).run({ scheduledFor: t.clock.now(), signal: new AbortController().signal });
      const kept = (await call('GET', '/api/v1/events', feedKey)).json<{ events: Array<{ kinds: string[] }> }>();
      assert.deepEqual(
        kept.events.map((e) => e.kinds),
        [['report_disputed']],
        'events older than 30 days are gone, the new one stays',
      );
    });
  });
}
