/**
 * The operator console's administration pages through the real routes (D30): members, users,
 * the search audit and the operator log; no operator page or action reachable by a member user.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeKeyHolder, makeMember } from './helpers/factories.ts';
import { confirmFields, makePortalUser, signIn, type PortalBrowser, type PortalUser } from './helpers/portal.ts';
import { squash } from './helpers/files.ts';
import { registeredRoutes } from './helpers/routes.ts';

/** Values for each path parameter of the console's routes: every action, and ids that exist. */
const PARAMS: Record<string, string[]> = {
  id: ['1'],
  step: ['approve', 'reject', 'deactivate'],
  ref: ['C-1', 'C-KEY'],
  what: ['status', 'tier', 'agreement', 'limit', 'revoke-key', 'invite', 'disable', 'reset'],
};

/** Each registered operator route with its parameters filled in every way PARAMS allows. */
function operatorRequests(routes: Array<{ method: string; path: string }>): Array<{ method: string; url: string }> {
  const expand = (path: string): string[] => {
    const m = /:([a-z]+)/.exec(path);
    if (!m) return [path];
    return PARAMS[m[1]!]!.flatMap((value) => expand(path.replace(m[0], value)));
  };
  return routes
    .filter((r) => r.path.startsWith('/portal/operator') && r.method !== 'HEAD')
    .flatMap((r) => expand(r.path).map((url) => ({ method: r.method, url })));
}

for (const engine of ENGINES) {
  describe(`portal operator console [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let operator: PortalBrowser;
    let opUser: PortalUser;
    let memberAdmin: PortalBrowser;
    let key: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'C-1' });
      key = await makeKeyHolder(db, t.clock, { ref: 'C-KEY', dailyLimit: 100 });
      memberAdmin = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'C-1' }));
      opUser = await makePortalUser(db, t.clock, { role: 'operator', email: 'op@console.test' });
      operator = await signIn(t.app, opUser, t.clock);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('D30: no operator page or action is reachable by a member user (every registered operator route)', async () => {
      const requests = operatorRequests(registeredRoutes(t.app));
      assert.ok(requests.filter((r) => r.method === 'GET').length >= 8 && requests.filter((r) => r.method === 'POST').length >= 15, 'the route tree was read');
      await memberAdmin.get('/portal/');
      for (const { method, url } of requests) {
        const res =
          method === 'GET'
            ? await memberAdmin.get(url)
            : await memberAdmin.post(url, {
                ref: 'X',
                name: 'X',
                status: 'terminated',
                tier: 'associate',
                signed: 'no',
                daily_limit: '1',
                email: 'x@x.test',
                role: 'operator',
              });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
      }
      const member = await database.engine.db.selectFrom('members').select(['status', 'tier']).where('ref', '=', 'C-1').executeTakeFirstOrThrow();
      assert.equal(member.status, 'active');
      assert.equal(member.tier, 'full');
      const users = await database.engine.db.selectFrom('users').select('email').where('email', '=', 'x@x.test').execute();
      assert.deepEqual(users, []);
    });

    test('D30: members: add, status, limit and revoke from the console, each in the operator log page', async () => {
      assert.equal((await operator.get('/portal/operator/members')).statusCode, 200);
      assert.equal((await operator.post('/portal/operator/members', { ref: 'C-NEW', name: 'Yeni Nakliyat', tier: 'full' })).statusCode, 303);
      assert.equal((await operator.post('/portal/operator/members/C-NEW/status', { status: 'suspended', ...confirmFields(opUser, t.clock) })).statusCode, 303);
      assert.equal((await operator.post('/portal/operator/members/C-KEY/limit', { daily_limit: '3', ...confirmFields(opUser, t.clock) })).statusCode, 303);
      const api = await search(t.app, key, 'q=anything');
      assert.equal(api.headers['x-ratelimit-limit'], '3', 'the active key has the new limit at once');
      assert.equal((await operator.post('/portal/operator/members/C-KEY/revoke-key', {})).statusCode, 303);
      assert.equal((await search(t.app, key, 'q=anything')).statusCode, 403, 'revoked');
      const bad = await operator.post('/portal/operator/members/C-KEY/limit', { daily_limit: 'lots', ...confirmFields(opUser, t.clock) });
      assert.equal(bad.statusCode, 400);
      const page = await operator.get('/portal/operator/members');
      assert.match(squash(page.body), /<td>C-NEW<\/td><td>Yeni Nakliyat<\/td>/);
      const log = await operator.get('/portal/operator/log');
      for (const action of ['member.add', 'member.status', 'member.key_daily_limit', 'member.revoke_key'])
        assert.match(squash(log.body), new RegExp(`<td>${action.replace('.', '\\.')}</td>`), action);
      assert.ok(log.body.indexOf('member.revoke_key') < log.body.indexOf('member.add'), 'newest first');
    });

    test('D30: users: an invitation link is shown once to the operator, and logged without its secret', async () => {
      const res = await operator.post('/portal/operator/users/invite', {
        email: 'yeni@c-1.test',
        role: 'member_user',
        member: 'C-1',
        ...confirmFields(opUser, t.clock),
      });
      assert.equal(res.statusCode, 200, res.body.slice(0, 500));
      const token = /accept\?token=([A-Za-z0-9_-]+)/.exec(res.body)?.[1];
      assert.ok(token, 'the link is on the page');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match((await operator.get('/portal/operator/users')).body, /yeni@c-1\.test/);
      const log = await operator.get('/portal/operator/log');
      assert.match(log.body, /user\.invite/);
      assert.ok(!log.body.includes(token), 'never the secret');
      assert.equal((await operator.post('/portal/operator/users/disable', { email: 'yeni@c-1.test' })).statusCode, 303);
    });

    test('D30: the search audit page lists searches by member and day', async () => {
      const db = database.engine.db;
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'C-1').executeTakeFirstOrThrow();
      await db
        .insertInto('audit_log')
        .values({
          at: t.clock.now(),
          key_id: null,
          member_id: Number(member.id),
          q: 'x',
          type: 'name',
          country: null,
          status: 200,
          result_count: 1,
          response_ms: 2,
          client_address: '127.0.0.1',
        })
        .execute();
      const page = await operator.get('/portal/operator/audit');
      assert.equal(page.statusCode, 200);
      assert.match(squash(page.body), /<td>2026-11-21<\/td><td>C-1<\/td><td>Member C-1<\/td><td>api<\/td><td>1<\/td><td>1<\/td><td>1<\/td>/);
    });
  });
}
