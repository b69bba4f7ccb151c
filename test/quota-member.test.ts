/**
 * Issue 27, findings 1 and 2 (D18 and D28 amended), on every engine, through the real app:
 * - the API's day belongs to the member: regenerating the key (portal, CLI) continues the count,
 *   so a limit of 3 gives 3 answers a day however often the key is regenerated; an operator's
 *   raised limit applies at once;
 * - portal searches count per user and per member: inviting, searching, disabling and inviting
 *   again gives no more than the member's allowance; disabled users' searches still count.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeMember } from './helpers/factories.ts';
import { anonymousBrowser, confirmFields, makePortalUser, signIn, type PortalBrowser } from './helpers/portal.ts';
import type { Database } from '../src/db/schema.ts';
import { createServices } from '../src/services.ts';
import { parseConfig } from '../src/config.ts';
import { setMemberKeyDailyLimit } from '../src/members/members.service.ts';
import type { SearchBody } from './helpers/bodies.ts';
import { carryOverKeyCounts } from '../src/db/migrations/0013-member-quota.ts';
import { buildCountryCatalogue } from '../src/countries/catalogue.ts';
import { identifyKeyHolder } from '../src/keys/auth.service.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';
import { AppError } from '../src/lib/errors.ts';
import { memberSubject, portalMemberSubject, quotaOn } from '../src/quota/allowance.ts';
import { answerSearch, type SearchUseCaseDeps, type Searcher } from '../src/search/answer-search.ts';

const keyOf = (body: string) => /<code id="new-key"[^>]*>\s*([A-Za-z0-9]{64})\s*<\/code/.exec(body)?.[1];
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

for (const engine of ENGINES) {
  describe(`quota per member (issue 27, findings 1 and 2) [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      t = await makeTestApp(database, { portalDailyLimit: 2, portalMemberDailyLimit: 5 });
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Kotadeneme Lojistik A.Ş.' }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const english = async (browser: PortalBrowser) => {
      assert.equal((await browser.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
      return browser;
    };

    test('finding 1: regenerating the key 3 times with a daily limit of 3 gives 3 answers that day, not 9', async () => {
      await makeMember(db, t.clock, { ref: 'M-REGEN' });
      await setMemberKeyDailyLimit(db, t.clock, 'M-REGEN', 3);
      const admin = await english(await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-REGEN' })));
      const rounds: number[][] = [];
      for (let round = 0; round < 3; round++) {
        const generated = await admin.post('/portal/api/key');
        assert.equal(generated.statusCode, 200);
        const key = keyOf(generated.body)!;
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await search(t.app, key, 'q=Kotadeneme')).statusCode);
        rounds.push(statuses);
      }
      assert.deepEqual(rounds, [
        [200, 200, 200, 429],
        [429, 429, 429, 429],
        [429, 429, 429, 429],
      ]);
      // A key issued from the CLI continues the day too, and keeps the member's limit.
      const cliKey = (
        await createServices({ db, clock: t.clock, config: parseConfig({}, {}) }).memberAdmin.issueKey({ kind: 'cli', user: 'test' }, { ref: 'M-REGEN' })
      ).result.key;
      const refused = await search(t.app, cliKey, 'q=Kotadeneme');
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.headers['x-ratelimit-limit'], '3');
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.match(text((await admin.get('/portal/api')).body), /Used today 3 \/ 3/);
    });

    test('D18 amended: a limit raised by an operator applies at once to the day in progress', async () => {
      const key = (
        await createServices({ db, clock: t.clock, config: parseConfig({}, {}) }).memberAdmin.issueKey({ kind: 'cli', user: 'test' }, { ref: 'M-REGEN' })
      ).result.key;
      assert.equal((await search(t.app, key, 'q=Kotadeneme')).statusCode, 429);
      await createServices({ db, clock: t.clock, config: parseConfig({}, {}) }).memberAdmin.setKeyDailyLimit(
        { kind: 'cli', user: 'test' },
        { ref: 'M-REGEN', dailyLimit: 5 },
      );
      const fourth = await search(t.app, key, 'q=Kotadeneme');
      assert.equal(fourth.statusCode, 200);
      assert.deepEqual(
        {
          used: fourth.json<SearchBody>().meta.queries_used_today,
          remaining: fourth.json<SearchBody>().meta.remaining_today,
          limit: fourth.headers['x-ratelimit-limit'],
        },
        { used: 4, remaining: 1, limit: '5' },
      );
      assert.equal((await search(t.app, key, 'q=Kotadeneme')).statusCode, 200);
      assert.equal((await search(t.app, key, 'q=Kotadeneme')).statusCode, 429);
      // Regenerating keeps the raised limit (it is the member's, not the key's).
      const next = (
        await createServices({ db, clock: t.clock, config: parseConfig({}, {}) }).memberAdmin.issueKey({ kind: 'cli', user: 'test' }, { ref: 'M-REGEN' })
      ).result.key;
      assert.equal((await search(t.app, next, 'q=Kotadeneme')).headers['x-ratelimit-limit'], '5');
    });

    test('finding 2: invite, search, disable, invite again gives no more than the member allowance (user 2, member 5)', async () => {
      await makeMember(db, t.clock, { ref: 'M-CYCLE' });
      const adminUser = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-CYCLE' });
      const admin = await english(await signIn(t.app, adminUser));
      const rounds: number[][] = [];
      for (let round = 0; round < 4; round++) {
        const user = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'M-CYCLE' });
        const browser = await signIn(t.app, user);
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await browser.get('/portal/search?q=Kotadeneme')).statusCode);
        rounds.push(statuses);
        assert.equal((await admin.post(`/portal/users/${user.id}/disable`)).statusCode, 303);
      }
      assert.deepEqual(rounds, [
        [200, 200, 429],
        [200, 200, 429],
        [200, 429, 429],
        [429, 429, 429],
      ]);
      // The admin, who searched nothing today, is refused with the member's allowance named.
      const refused = await admin.get('/portal/search?q=Kotadeneme');
      assert.equal(refused.statusCode, 429);
      assert.match(text(refused.body), /Your member's 5 portal searches for today are used up/);
      assert.match(text(refused.body), /Your member: 0 of 5 portal searches left today/);
      assert.match(text(refused.body), /2 of 2 searches left today/);
    });

    test("console: an operator sets a member's portal allowance with its password and a new code; a member's user or no session cannot", async () => {
      await makeMember(db, t.clock, { ref: 'M-CONSOLE' });
      const operator = await makePortalUser(db, t.clock, { role: 'operator' });
      const console_ = await english(await signIn(t.app, operator, t.clock));
      const url = '/portal/operator/members/M-CONSOLE/portal-limit';
      const page = await console_.get('/portal/operator/members');
      assert.match(page.body, /action="\/portal\/operator\/members\/M-CONSOLE\/portal-limit"/);
      assert.match(page.body, /name="portal_daily_limit"[^>]*value="5"/, "the server's default is shown");
      const limit = async () =>
        (await db.selectFrom('members').select('portal_daily_limit').where('ref', '=', 'M-CONSOLE').executeTakeFirstOrThrow()).portal_daily_limit;

      const memberUser = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'M-CONSOLE' }), t.clock);
      assert.equal((await memberUser.post(url, { portal_daily_limit: '900' })).statusCode, 403);
      assert.equal((await (await anonymousBrowser(t.app)).post(url, { portal_daily_limit: '900' })).statusCode, 403);
      assert.equal((await console_.post(url, { portal_daily_limit: '900' })).statusCode, 403, 'asks for the confirmation');
      assert.equal(await limit(), null);
      const bad = await console_.post(url, { portal_daily_limit: '0', ...confirmFields(operator, t.clock) });
      assert.equal(bad.statusCode, 400);
      assert.equal(await limit(), null);
      const done = await console_.post(url, { portal_daily_limit: '900', ...confirmFields(operator, t.clock) });
      assert.equal(done.statusCode, 303);
      assert.equal(Number(await limit()), 900);
      const logged = await db.selectFrom('operator_log').select(['action', 'target']).where('action', '=', 'member.portal_daily_limit').execute();
      assert.deepEqual(logged, [{ action: 'member.portal_daily_limit', target: 'member:M-CONSOLE' }]);
    });

    /** The search use case on the test database's quota, with a search that finds nothing (the quota is what is tested). */
    const useCase = (): SearchUseCaseDeps => ({
      countries: buildCountryCatalogue(),
      search: { find: () => Promise.resolve({ results: [], truncated: false, nearMatches: [] }) },
      quota: quotaOn(db),
      clock: t.clock,
    });
    const INPUT = { q: 'Kotadeneme', type: 'name', country: null } as const;
    const outcomes = async (searchers: Searcher[]) => {
      const settled = await Promise.allSettled(searchers.map((s) => answerSearch(useCase(), INPUT, s)));
      for (const o of settled) if (o.status === 'rejected') assert.ok(o.reason instanceof AppError && o.reason.reason === 'rate_limited', String(o.reason));
      return settled.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    };
    const counter = async (subject: string) =>
      Number(
        (await db.selectFrom('usage_counters').select('used').where('subject', '=', subject).where('day', '=', quotaDayOf(t.clock.now())).executeTakeFirst())
          ?.used ?? 0,
      );

    test('D18 amended, concurrency: 40 searches at once, half in flight on the key being regenerated, half on the new key, 17 left: exactly 17 answers', async () => {
      await makeMember(db, t.clock, { ref: 'M-RACE' });
      const oldKey = (await issueKey(db, t.clock, 'M-RACE', 20)).key;
      for (let i = 0; i < 3; i++) assert.equal((await search(t.app, oldKey, 'q=Kotadeneme')).statusCode, 200);
      const day = quotaDayOf(t.clock.now());
      // The old key's requests were authenticated before the regeneration: they are in flight.
      const before = await identifyKeyHolder(db, oldKey, day);
      const newKey = (await issueKey(db, t.clock, 'M-RACE', undefined)).key;
      const after = await identifyKeyHolder(db, newKey, day);
      const searcherOf = (h: typeof before): Searcher => ({
        kind: 'api_key',
        memberId: h.memberId,
        memberRef: h.memberRef,
        dailyLimit: h.dailyLimit,
        usage: h.usage,
      });
      const answered = await outcomes(Array.from({ length: 40 }, (_, i) => searcherOf(i % 2 === 0 ? before : after)));
      assert.equal(answered.length, 17);
      // Each answer took its own unit of the member's day: 4..20, none shared.
      assert.deepEqual(
        answered.map((a) => a.response.meta.queries_used_today).sort((a, b) => a! - b!),
        Array.from({ length: 17 }, (_, i) => i + 4),
      );
      assert.equal(await counter(memberSubject(before.memberId)), 20);
      assert.equal((await search(t.app, newKey, 'q=Kotadeneme')).statusCode, 429);
    });

    test('D28 amended, concurrency: 30 portal searches at once by 3 users, member allowance 7: exactly 7; a user cap refused takes nothing of the member', async () => {
      await makeMember(db, t.clock, { ref: 'M-PRACE' });
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'M-PRACE').executeTakeFirstOrThrow();
      const memberId = Number(member.id);
      const users = await Promise.all([0, 1, 2].map(() => makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'M-PRACE' })));
      const portal = (userId: number, dailyLimit: number, memberDailyLimit: number): Searcher => ({
        kind: 'portal_user',
        userId,
        dailyLimit,
        memberId,
        memberDailyLimit,
      });
      const answered = await outcomes(Array.from({ length: 30 }, (_, i) => portal(users[i % 3]!.id, 100, 7)));
      assert.equal(answered.length, 7);
      assert.equal(await counter(portalMemberSubject(memberId)), 7);
      const perUser = await Promise.all(users.map((u) => counter(`user:${u.id}`)));
      assert.equal(
        perUser.reduce((a, b) => a + b, 0),
        7,
        'the users together took what the member gave',
      );
      // The user's own cap binds first: 10 at once by a fresh user with 2 a day give 2, and the
      // member's day grows by those 2 only (the refused ones rolled back).
      const fresh = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'M-PRACE' });
      const capped = await outcomes(Array.from({ length: 10 }, () => portal(fresh.id, 2, 100)));
      assert.equal(capped.length, 2);
      assert.deepEqual([await counter(`user:${fresh.id}`), await counter(portalMemberSubject(memberId))], [2, 9]);
    });

    test('D28 amended: the member portal allowance raised by an operator applies at once; the page shows both allowances', async () => {
      await createServices({ db, clock: t.clock, config: parseConfig({}, {}) }).memberAdmin.setPortalDailyLimit(
        { kind: 'cli', user: 'test' },
        { ref: 'M-CYCLE', dailyLimit: 6 },
      );
      const user = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'M-CYCLE' });
      const browser = await english(await signIn(t.app, user));
      const page = await browser.get('/portal/search?q=Kotadeneme');
      assert.equal(page.statusCode, 200);
      assert.match(text(page.body), /1 of 2 searches left today/);
      assert.match(text(page.body), /Your member: 0 of 6 portal searches left today/);
      assert.equal((await browser.get('/portal/search?q=Kotadeneme')).statusCode, 429);
      const member = await db.selectFrom('members').select('portal_daily_limit').where('ref', '=', 'M-CYCLE').executeTakeFirstOrThrow();
      assert.equal(Number(member.portal_daily_limit), 6);
    });
  });
}

for (const engine of ENGINES) {
  describe(`migration 0013 carries the per-key counts over [${engine.name}]`, () => {
    let database: TestDatabase;

    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test("today's and earlier per-key counts become the member's (summed per day), nothing reset; the key's last use and limit kept", async () => {
      const { db } = database.engine;
      const clock = { now: () => Date.UTC(2026, 10, 21, 9) };
      await makeMember(db, clock, { ref: 'M-OLD' });
      await makeMember(db, clock, { ref: 'M-OTHER' });
      const first = await issueKey(db, clock, 'M-OLD', 70);
      await issueKey(db, clock, 'M-OLD', 70);
      await issueKey(db, clock, 'M-OTHER', 5);
      // As 0012 left them: counters per key, no member limit, no last use.
      const keys = await db
        .selectFrom('api_keys')
        .innerJoin('members', 'members.id', 'api_keys.member_id')
        .select(['api_keys.id', 'members.ref', 'members.id as memberId', 'api_keys.prefix'])
        .orderBy('api_keys.id')
        .execute();
      const [oldA, oldB, other] = keys;
      assert.equal(oldA!.prefix, first.prefix);
      await db.updateTable('members').set({ key_daily_limit: null }).execute();
      await db
        .insertInto('usage_counters')
        .values([
          { subject: `key:${oldA!.id}`, day: '2026-11-21', used: 30 },
          { subject: `key:${oldB!.id}`, day: '2026-11-21', used: 25 },
          { subject: `key:${oldA!.id}`, day: '2026-11-20', used: 70 },
          { subject: `key:${other!.id}`, day: '2026-11-21', used: 5 },
          { subject: 'user:1', day: '2026-11-21', used: 4 },
          { subject: 'addr:127.0.0.1', day: '2026-11-21', used: 9 },
        ])
        .execute();
      await carryOverKeyCounts(db as never);
      const rows = await db.selectFrom('usage_counters').select(['subject', 'day', 'used']).orderBy('subject').orderBy('day').execute();
      assert.deepEqual(
        rows.map((r) => `${r.subject} ${r.day} ${Number(r.used)}`),
        [
          'addr:127.0.0.1 2026-11-21 9',
          `member:${oldA!.memberId} 2026-11-20 70`,
          `member:${oldA!.memberId} 2026-11-21 55`,
          `member:${other!.memberId} 2026-11-21 5`,
          'user:1 2026-11-21 4',
        ].sort(),
      );
      const lastUse = await db.selectFrom('api_keys').select(['id', 'last_used_day']).orderBy('id').execute();
      assert.deepEqual(
        lastUse.map((k) => k.last_used_day),
        ['2026-11-21', '2026-11-21', '2026-11-21'],
      );
      const limits = await db.selectFrom('members').select(['ref', 'key_daily_limit']).orderBy('ref').execute();
      assert.deepEqual(
        limits.map((m) => [m.ref, Number(m.key_daily_limit)]),
        [
          ['M-OLD', 70],
          ['M-OTHER', 5],
        ],
      );
    });
  });
}
