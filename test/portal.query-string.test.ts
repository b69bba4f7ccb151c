/**
 * Issue 27, finding 9, through the real routes on every engine: every portal query string goes
 * through one parser that refuses a repeated parameter with a 400 page in the reader's language
 * (it was a 500 on the operator's company look-up: `raw.replace is not a function`). The routes
 * come from Fastify's own table; the parameter names from walking the portal's pages as each
 * role (links, GET forms, redirects), so a route or parameter added later is covered too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { makePortalUser, signIn, type PortalBrowser } from './helpers/portal.ts';
import { crawlPortal } from './helpers/portal-crawl.ts';
import { registeredRoutes } from './helpers/routes.ts';

const ENGLISH = { 'accept-language': 'en' };
const TURKISH = { 'accept-language': 'tr' };

for (const engine of ENGINES) {
  describe(`portal query strings [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let operator: PortalBrowser;
    const names = new Set<string>(['x']);

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'Q-1' });
      operator = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'operator' }), t.clock);
      const admin = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'Q-1' }));
      for (const browser of [operator, admin]) for (const name of (await crawlPortal(browser)).queryNames) names.add(name);
      for (const name of (await crawlPortal(new (admin.constructor as typeof PortalBrowser)(t.app), '/portal/sign-in')).queryNames) names.add(name);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('the two repeated parameters of the finding: 400 pages naming them, in English and Turkish', async () => {
      for (const name of ['tax_id', 'country']) {
        const en = await operator.get(`/portal/operator/companies?${name}=1&${name}=2`, ENGLISH);
        assert.equal(en.statusCode, 400, en.body.slice(0, 300));
        assert.match(en.body, new RegExp(`The parameter “${name}” is given more than once`));
        const tr = await operator.get(`/portal/operator/companies?${name}=1&${name}=2`, TURKISH);
        assert.equal(tr.statusCode, 400);
        assert.match(tr.body, new RegExp(`“${name}” parametresi adreste birden fazla kez verilmiş`));
      }
    });

    test("every portal route, each parameter the portal's pages use given twice: a 400 page, never a 500", async () => {
      assert.ok(
        ['tax_id', 'country', 'q', 'type'].every((n) => names.has(n)),
        `the walk found the pages' parameters: ${[...names].join(', ')}`,
      );
      const routes = registeredRoutes(t.app).filter((r) => r.path.startsWith('/portal') && r.method !== 'HEAD');
      assert.ok(routes.length > 30, `${routes.length} portal routes`);
      const failures: string[] = [];
      for (const route of routes) {
        const path = route.path.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
        for (const name of names) {
          const headers = failures.length % 2 === 0 ? ENGLISH : TURKISH;
          const query = `${encodeURIComponent(name)}=1&${encodeURIComponent(name)}=2`;
          const response = await t.app.inject({
            method: route.method as 'GET',
            url: `${path}?${query}`,
            headers: { ...headers, cookie: operator.cookieHeader() },
          });
          const worded = /“[^”]+” (is given more than once|parametresi adreste birden fazla kez verilmiş)/.test(response.body);
          if (response.statusCode !== 400 || !worded) failures.push(`${route.method} ${path}?${query}: ${response.statusCode}`);
        }
      }
      assert.deepEqual(failures, []);
    });

    test('a parameter given once still works (the look-up by tax ID, an invalid one refused by its own page)', async () => {
      const response = await operator.get('/portal/operator/companies?country=TR&tax_id=123', ENGLISH);
      assert.notEqual(response.statusCode, 500);
      assert.doesNotMatch(response.body, /more than once/);
    });
  });
}
