/** `risklookup user …` (D27) run as an operator would, on every engine; and the demo's portal sign-in over a real port. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli, startServe } from './helpers/cli.ts';
import { describeLink } from '../src/users/users.service.ts';
import { systemClock } from '../src/lib/clock.ts';

type UserList = { users: Array<{ email: string }> };

for (const engine of ENGINES) {
  describe(`risklookup user [${engine.name}]`, () => {
    let database: TestDatabase;
    let cli: (...args: string[]) => ReturnType<typeof runCli>;

    before(async () => {
      database = await engine.create();
      cli = (...args) => runCli([...args, '--db', database.url], { RISKLOOKUP_PUBLIC_URL: '' });
      assert.equal((await cli('member', 'add', 'M-1', '--name', 'Bir A.Ş.')).code, 0);
    });
    after(async () => {
      await database?.drop();
    });

    test('invite prints a one-time link to the public URL; it works', async () => {
      const invited = await cli('user', 'invite', 'Ayse@Example.com', '--member', 'M-1', '--role', 'member_admin');
      assert.equal(invited.code, 0, invited.stderr);
      const link = /(http:\/\/127\.0\.0\.1:8080\/portal\/accept\?token=([A-Za-z0-9_-]{43}))/.exec(invited.stdout);
      assert.ok(link, invited.stdout);
      assert.match(invited.stdout, /valid 72 h/);
      assert.deepEqual(await describeLink(database.engine.db, systemClock, link[2]!), {
        purpose: 'invite',
        email: 'Ayse@Example.com',
        name: '',
        role: 'member_admin',
      });
    });

    test('--json, --public-url and RISKLOOKUP_PUBLIC_URL; operators have no member', async () => {
      const json = await cli('--json', 'user', 'invite', 'op@example.com', '--role', 'operator', '--public-url', 'https://risk.example.com/');
      assert.equal(json.code, 0, json.stderr);
      const out = JSON.parse(json.stdout) as { user: unknown; link: string; purpose: string };
      assert.deepEqual(out.user, { email: 'op@example.com', name: '', role: 'operator', status: 'invited', member: null });
      assert.match(out.link, /^https:\/\/risk\.example\.com\/portal\/accept\?token=[A-Za-z0-9_-]{43}$/);
      assert.equal(out.purpose, 'invite');
      const env = await runCli(['user', 'reset', 'op@example.com', '--db', database.url], { RISKLOOKUP_PUBLIC_URL: 'https://portal.example.org' });
      assert.equal(env.code, 0, env.stderr);
      assert.match(env.stdout, /https:\/\/portal\.example\.org\/portal\/accept\?token=/);
      const bad = await runCli(['user', 'reset', 'op@example.com', '--db', database.url], { RISKLOOKUP_PUBLIC_URL: 'ftp://x' });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /RISKLOOKUP_PUBLIC_URL/);
    });

    test('usage errors exit 2; refusals exit 1 with what to do', async () => {
      assert.equal((await cli('user', 'invite', 'x@example.com', '--role', 'member_user')).code, 2);
      assert.equal((await cli('user', 'invite', 'x@example.com', '--role', 'operator', '--member', 'M-1')).code, 2);
      assert.equal((await cli('user', 'invite', 'x@example.com', '--role', 'boss', '--member', 'M-1')).code, 2);
      assert.equal((await cli('user', 'invite', 'x@example.com')).code, 2);
      const duplicate = await cli('user', 'invite', 'AYSE@example.com', '--member', 'M-1', '--role', 'member_user');
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.stderr, /already exists; send a new link with 'user reset'/);
      const unknown = await cli('user', 'invite', 'y@example.com', '--member', 'M-404', '--role', 'member_user');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no member with ref 'M-404'/);
      assert.equal((await cli('user', 'reset', 'nobody@example.com')).code, 1);
    });

    test('list, list --member, disable', async () => {
      await cli('member', 'add', 'M-2', '--name', 'İki A.Ş.');
      await cli('user', 'invite', 'iki@example.com', '--member', 'M-2', '--role', 'member_user');
      const all = JSON.parse((await cli('--json', 'user', 'list')).stdout) as UserList;
      assert.deepEqual(all.users.map((u: { email: string }) => u.email).sort(), ['Ayse@Example.com', 'iki@example.com', 'op@example.com']);
      const m2 = JSON.parse((await cli('--json', 'user', 'list', '--member', 'M-2')).stdout) as UserList;
      assert.deepEqual(
        m2.users.map((u: { email: string }) => u.email),
        ['iki@example.com'],
      );
      const disabled = await cli('--json', 'user', 'disable', 'IKI@example.com');
      assert.equal(disabled.code, 0, disabled.stderr);
      assert.equal((JSON.parse(disabled.stdout) as { status: string }).status, 'disabled');
      assert.match((await cli('user', 'list', '--member', 'M-2')).stdout, /iki@example\.com .*status=disabled/);
    });
  });
}

describe('serve --demo: a portal sign-in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-demo-portal-'));

  test('prints the portal URL, email and a password that signs in over HTTP', async () => {
    const server = await startServe(['--demo', '--db', `sqlite:${join(dir, 'demo.db')}`]);
    try {
      const line = /portal: (\S+) email (\S+) password (\S+)/.exec(server.stdout());
      assert.ok(line, server.stdout());
      const [, portalUrl, email, password] = line;
      assert.equal(portalUrl, `${server.url}/portal/`);
      const db = `sqlite:${join(dir, 'demo.db')}`;
      const signIn = async () => {
        const page = await fetch(`${server.url}/portal/sign-in`);
        const csrfCookie = page.headers
          .getSetCookie()
          .find((c) => c.startsWith('rl_csrf='))!
          .split(';')[0]!;
        const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
        const signedIn = await fetch(`${server.url}/portal/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: csrfCookie },
          body: new URLSearchParams({ _csrf: csrf, email: email!, password: password!, code: '' }).toString(),
        });
        assert.equal(signedIn.status, 303);
        return signedIn.headers
          .getSetCookie()
          .find((c) => c.startsWith('rl_session='))!
          .split(';')[0]!;
      };
      const home = (session: string) => fetch(`${server.url}/portal/`, { headers: { cookie: session }, redirect: 'manual' });
      let session = await signIn();
      const signedInHome = await home(session);
      assert.equal(signedInHome.status, 200);
      assert.match(await signedInHome.text(), /DEMO/);
      // Another process suspends the member: the running server ends the session on its next request.
      const suspended = await runCli(['member', 'set', 'DEMO', '--status', 'suspended', '--db', db]);
      assert.equal(suspended.code, 0, suspended.stderr);
      assert.equal((await home(session)).status, 303);
      assert.equal((await runCli(['member', 'set', 'DEMO', '--status', 'active', '--db', db])).code, 0);
      // Active again: the ended session stays ended; a new sign-in works.
      assert.equal((await home(session)).status, 303);
      session = await signIn();
      assert.equal((await home(session)).status, 200);
      // Another process disables the user: the running server refuses the session on its next request.
      const disabled = await runCli(['user', 'disable', email!, '--db', db]);
      assert.equal(disabled.code, 0, disabled.stderr);
      assert.equal((await home(session)).status, 303);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
