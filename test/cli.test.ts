/** The `risklookup` program (D23), run as an operator would, on every engine. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { BIN, runCli, startServe } from './helpers/cli.ts';
import { httpGet } from './helpers/http.ts';
import { Agent } from 'node:http';
import { companyLine, makeReport } from './helpers/factories.ts';

const dir = mkdtempSync(join(tmpdir(), 'risklookup-cli-'));

for (const engine of ENGINES) {
  describe(`risklookup CLI [${engine.name}]`, () => {
    let database: TestDatabase;
    let cli: (...args: string[]) => ReturnType<typeof runCli>;

    before(async () => {
      database = await engine.create();
      cli = (...args) => runCli([...args, '--db', database.url]);
    });
    after(async () => {
      await database?.drop();
    });

    test('member add, set, list; key issue with --json; usage', async () => {
      const added = await cli('member', 'add', 'M-7', '--name', 'Yedi Lojistik A.Ş.', '--agreement-signed', '--json');
      assert.equal(added.code, 0, added.stderr);
      assert.deepEqual(JSON.parse(added.stdout), {
        ref: 'M-7', name: 'Yedi Lojistik A.Ş.', tier: 'full', status: 'active', agreement_signed_on: JSON.parse(added.stdout).agreement_signed_on,
      });
      assert.match(JSON.parse(added.stdout).agreement_signed_on, /^\d{4}-\d{2}-\d{2}$/);

      const duplicate = await cli('member', 'add', 'M-7', '--name', 'Again');
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.stderr, /already exists/);

      const set = await cli('member', 'set', 'M-7', '--tier', 'associate', '--agreement-unsigned', '--json');
      assert.equal(set.code, 0, set.stderr);
      assert.deepEqual([JSON.parse(set.stdout).tier, JSON.parse(set.stdout).agreement_signed_on], ['associate', null]);

      const list = await cli('member', 'list', '--json');
      assert.deepEqual(JSON.parse(list.stdout).members.map((m: { ref: string }) => m.ref), ['M-7']);

      const issued = await cli('key', 'issue', 'M-7', '--daily-limit', '250', '--json');
      assert.equal(issued.code, 0, issued.stderr);
      const key = JSON.parse(issued.stdout);
      assert.deepEqual(Object.keys(key), ['member', 'key', 'prefix', 'daily_limit']);
      assert.match(key.key, /^[A-Za-z0-9]{64}$/);
      assert.equal(key.prefix, key.key.slice(0, 8));
      assert.equal(key.daily_limit, 250);

      const plain = await cli('key', 'issue', 'M-7');
      assert.match(plain.stdout.trim(), /^[A-Za-z0-9]{64}$/);
      assert.match(plain.stderr, /previous key is revoked/);

      const revoke = await cli('key', 'revoke', 'M-7', '--json');
      assert.deepEqual(JSON.parse(revoke.stdout), { member: 'M-7', revoked: 1 });
      const again = await cli('key', 'revoke', 'M-7');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /no active key/);

      const usage = await cli('usage', 'M-7', '--json');
      assert.deepEqual(JSON.parse(usage.stdout), { member: 'M-7', days: [] });
    });

    test('import and report status; failures exit 1 with the reason on stderr', async () => {
      await cli('member', 'add', 'M-8', '--name', 'Sekiz A.Ş.');
      const good = join(dir, `good-${engine.name}.jsonl`);
      writeFileSync(good, `${companyLine({ company_name: 'Clitest A.Ş.', reports: [makeReport({ ref: 'CLI-1', status: 'pending' })] })}\n`);
      const imported = await cli('import', good, '--json');
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(JSON.parse(imported.stdout).reportsAdded, 1);

      const bad = join(dir, `bad-${engine.name}.jsonl`);
      writeFileSync(bad, `${companyLine({ company_name: 'Fine A.Ş.' })}\n{broken\n`);
      const failed = await cli('import', bad);
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /^line 2: not valid JSON/m);
      assert.match(failed.stderr, /nothing was written/);

      const step = await cli('report', 'status', 'CLI-1', 'approved', '--json');
      assert.equal(step.code, 0, step.stderr);
      assert.deepEqual([JSON.parse(step.stdout).from, JSON.parse(step.stdout).to], ['pending', 'approved']);
      const illegal = await cli('report', 'status', 'CLI-1', 'pending');
      assert.equal(illegal.code, 1);
      assert.match(illegal.stderr, /can become withdrawn or deactivated, not pending/);

      const missing = await cli('import', join(dir, 'nope.jsonl'));
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no such file/);
    });

    test('usage errors exit 2', async () => {
      assert.equal((await cli('member', 'add', 'M-9')).code, 2, 'missing --name');
      assert.equal((await cli('member', 'set', 'M-9', '--status', 'sleeping')).code, 2);
      assert.equal((await cli('frobnicate')).code, 2);
      assert.equal((await runCli(['--help'])).code, 0);
    });
  });
}

describe('risklookup serve', () => {
  test('--demo prints a working key and curl, SIGTERM drains and exits 0', async () => {
    const db = join(dir, 'demo.db');
    const child = spawn(process.execPath, [BIN, 'serve', '--demo', '--port', '0', '--db', `sqlite:${db}`, '--log-level', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const started = Date.now();
    while (!/listening on (http:\/\/\S+)/.test(stdout) || !/curl -s -H/.test(stdout)) {
      assert.ok(Date.now() - started < 30_000, `no 'listening on' line: ${stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    const key = /demo API key \(shown once\): (\S+)/.exec(stdout)![1]!;
    const curl = /curl -s -H 'X-API-Key: \S+' '(\S+)'/.exec(stdout)![1]!;
    assert.ok(curl.startsWith(url));
    const res = await fetch(curl, { headers: { 'x-api-key': key } });
    const body = await res.json();
    assert.equal(res.status, 200);
    assert.equal(body.result_count, 1, 'the printed curl returns a company');
    assert.equal(body.results[0].company_name, 'Anadolu Demir Çelik Sanayi ve Ticaret A.Ş.');
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  test('SIGINT drains like SIGTERM: requests on accepted connections are answered, then exit 0', async () => {
    // The production grace: this test is about requests that arrive while it runs.
    const server = await startServe(['--db', `sqlite:${join(dir, 'drain.db')}`], { RISKLOOKUP_DRAIN_GRACE_MS: '1000' });
    // 20 connections the server has accepted (one warm-up request each), kept alive.
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const url = `${server.url}/api/v1/countries.php`;
    await Promise.all(Array.from({ length: 20 }, () => httpGet(url, {}, agent)));
    const results: string[] = [];
    const requests = Array.from({ length: 20 }, () =>
      httpGet(url, {}, agent)
        .then((r) => results.push(String(r.status)))
        .catch((e: NodeJS.ErrnoException) => results.push(e.code ?? e.message)),
    );
    const exit = server.stop('SIGINT');
    await Promise.all(requests);
    agent.destroy();
    assert.equal(await exit, 0);
    // Answered in full (200), or refused politely once closing began (503); never cut off.
    assert.deepEqual(results.filter((r) => r !== '200' && r !== '503'), []);
  });

  test('refuses to serve plain HTTP on a non-loopback address (D6)', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--db', `sqlite:${join(dir, 'x.db')}`]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /refusing to serve plain HTTP on 0\.0\.0\.0/);
  });
});

describe('risklookup audit purge', () => {
  test('deletes records older than the age, keeps the rest (D21 retention)', async () => {
    const engine = ENGINES[0]!;
    const database = await engine.create();
    try {
      const day = 86_400_000;
      const now = Date.now();
      const row = (at: number) => ({ at, status: 200, response_ms: 1, client_address: '127.0.0.1' });
      await database.engine.db.insertInto('audit_log').values([row(now - 400 * day), row(now - 366 * day), row(now - 10 * day), row(now)]).execute();
      const result = await runCli(['audit', 'purge', '--older-than', '365d', '--db', database.url, '--json']);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), { deleted: 2, older_than: '365d' });
      const left = await database.engine.db.selectFrom('audit_log').select('at').execute();
      assert.equal(left.length, 2);
      const bad = await runCli(['audit', 'purge', '--older-than', 'a year', '--db', database.url]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /365d or 48h/);
    } finally {
      await database.drop();
    }
  });
});
