/** Authentication (D16, D17) and keeping keys out of logs (D21), on every engine. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { runCli } from './helpers/cli.ts';
import { assertErrorBody, eventually } from './helpers/assertions.ts';
import { digestApiKey, generateApiKey } from '../src/keys/api-key.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { setMember } from '../src/members/members.service.ts';
import type { ErrorBody, SearchBody } from './helpers/bodies.ts';

for (const engine of ENGINES) {
  describe(`authentication [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const keys: Record<string, string> = {};

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      keys.ok = await makeKeyHolder(db, t.clock, { ref: 'M-OK' });
      keys.suspended = await makeKeyHolder(db, t.clock, { ref: 'M-SUS', status: 'suspended' });
      keys.terminated = await makeKeyHolder(db, t.clock, { ref: 'M-TERM', status: 'terminated' });
      keys.associate = await makeKeyHolder(db, t.clock, { ref: 'M-ASSOC', tier: 'associate' });
      keys.unsigned = await makeKeyHolder(db, t.clock, { ref: 'M-UNSIGNED', agreementSigned: false });
      keys.old = await makeKeyHolder(db, t.clock, { ref: 'M-ROT' });
      keys.rotated = (await issueKey(db, t.clock, 'M-ROT', 100)).key;
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Authtest Lojistik A.Ş.' }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const expect = async (key: string | null, status: number, reason: string, message: RegExp) => {
      const body = assertErrorBody(await search(t.app, key, 'q=Authtest'), status, reason);
      assert.match(body.error, message);
    };

    test('D17: no or empty header is 401 API key missing', async () => {
      await expect(null, 401, 'api_key_missing', /API key missing/);
      await expect('', 401, 'api_key_missing', /API key missing/);
      await expect('   ', 401, 'api_key_missing', /API key missing/);
    });

    test('D17: malformed, mistyped or unknown keys are 401 API key invalid', async () => {
      const typo = keys.ok!.slice(0, 20) + (keys.ok![20] === 'a' ? 'b' : 'a') + keys.ok!.slice(21);
      for (const bad of ['abc', 'x'.repeat(64), `${keys.ok}x`, keys.ok!.slice(1), typo, generateApiKey(), `${keys.ok!.slice(0, 63)}!`]) {
        await expect(bad, 401, 'api_key_invalid', /API key invalid/);
      }
    });

    test('D17: each 403 says which case it is', async () => {
      await expect(keys.old!, 403, 'key_revoked', /revoked/);
      await expect(keys.suspended!, 403, 'member_suspended', /suspended/);
      await expect(keys.terminated!, 403, 'member_terminated', /terminated/);
      await expect(keys.associate!, 403, 'member_not_full', /full members/);
      await expect(keys.unsigned!, 403, 'agreement_unsigned', /agreement/i);
    });

    test('D17: the order holds: a revoked key of a suspended member is reported revoked', async () => {
      await setMember(database.engine.db, t.clock, 'M-ROT', { status: 'suspended' });
      try {
        await expect(keys.old!, 403, 'key_revoked', /revoked/);
        await expect(keys.rotated!, 403, 'member_suspended', /suspended/);
      } finally {
        await setMember(database.engine.db, t.clock, 'M-ROT', { status: 'active' });
      }
    });

    test('D16: regenerating a key revokes the old one; the new one works', async () => {
      assert.equal((await search(t.app, keys.rotated!, 'q=Authtest')).statusCode, 200);
      await expect(keys.old!, 403, 'key_revoked', /revoked/);
    });

    test('D16: only the digest and prefix are stored', async () => {
      const rows = await database.engine.db.selectFrom('api_keys').selectAll().execute();
      const dump = JSON.stringify(rows);
      for (const key of Object.values(keys)) {
        assert.equal(dump.includes(key), false);
        assert.ok(dump.includes(digestApiKey(key)));
      }
    });

    test('D3: a revoked key still sees its own allowance in the headers', async () => {
      const res = await search(t.app, keys.old!, 'q=Authtest');
      assert.equal(res.headers['x-ratelimit-limit'], '100');
    });

    test('D21: neither the key nor its digest appears in any log line', async () => {
      await search(t.app, keys.ok!, `q=Authtest&api_key=${keys.ok}`);
      await search(t.app, keys.ok!, `q=${keys.ok}`);
      await search(t.app, keys.ok!, 'q=Authtest');
      const logs = t.logs.join('');
      assert.ok(logs.length > 1000, 'logs were captured');
      for (const key of Object.values(keys)) {
        assert.equal(logs.includes(key), false, 'key in logs');
        assert.equal(logs.includes(digestApiKey(key)), false, 'digest in logs');
      }
      const audit = JSON.stringify(
        await eventually(async () => {
          const rows = await database.engine.db.selectFrom('audit_log').selectAll().where('q', 'like', '%REDACTED%').execute();
          assert.ok(rows.length >= 1, 'the audit records were written');
          return rows;
        }),
      );
      assert.equal(audit.includes(keys.ok!), false, 'key in the audit log');
    });
  });

  describe(`revocation on a running server [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Livetest Lojistik A.Ş.' }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('D17: a revocation or suspension made by the CLI takes effect within 5 s', async () => {
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-LIVE' });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const get = () => fetch(`http://127.0.0.1:${port}/api/v1/search.php?q=Livetest`, { headers: { 'x-api-key': key } });
      assert.equal((await get()).status, 200);

      const waitFor = async (reason: string) => {
        const started = Date.now();
        while (Date.now() - started < 5000) {
          const res = await get();
          if (res.status === 403 && ((await res.json()) as ErrorBody).reason === reason) return Date.now() - started;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.fail(`${reason} not seen within 5 s`);
      };

      const suspend = await runCli(['member', 'set', 'M-LIVE', '--status', 'suspended', '--db', database.url]);
      assert.equal(suspend.code, 0, suspend.stderr);
      await waitFor('member_suspended');
      await runCli(['member', 'set', 'M-LIVE', '--status', 'active', '--db', database.url]);
      const revoke = await runCli(['key', 'revoke', 'M-LIVE', '--db', database.url]);
      assert.equal(revoke.code, 0, revoke.stderr);
      await waitFor('key_revoked');
    });

    test('D11: a report status change made by the CLI shows on the running server', async () => {
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-LIVE2' });
      await makeCompanies(database.engine, t.clock, [
        { company_name: 'Statuslive Lojistik A.Ş.', reports: [makeReport({ ref: 'LIVE-R1', status: 'pending' })] },
      ]);
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const count = async () =>
        ((await (await fetch(`http://127.0.0.1:${port}/api/v1/search.php?q=Statuslive`, { headers: { 'x-api-key': key } })).json()) as SearchBody).result_count;
      assert.equal(await count(), 0, 'pending: not shown');
      const approve = await runCli(['report', 'status', 'LIVE-R1', 'approved', '--db', database.url]);
      assert.equal(approve.code, 0, approve.stderr);
      assert.equal(await count(), 1, 'approved: shown on the next request');
      const withdraw = await runCli(['report', 'status', 'LIVE-R1', 'withdrawn', '--db', database.url]);
      assert.equal(withdraw.code, 0, withdraw.stderr);
      assert.equal(await count(), 0, 'withdrawn: gone on the next request');
    });
  });
}
