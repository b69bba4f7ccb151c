/** The `risklookup` program (D23): serving, and the audit purge (test/cli.test.ts runs the operator commands per engine). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ENGINES } from './helpers/engines.ts';
import { BIN, runCli, startServe } from './helpers/cli.ts';
import { httpGet } from './helpers/http.ts';
import { Agent } from 'node:http';
import type { SearchBody } from './helpers/bodies.ts';

const dir = mkdtempSync(join(tmpdir(), 'risklookup-cli-'));

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
    const body = (await res.json()) as SearchBody;
    assert.equal(res.status, 200);
    assert.equal(body.result_count, 1, 'the printed curl returns a company');
    assert.equal(body.results[0]!.company_name, 'Anadolu Demir Çelik Sanayi ve Ticaret A.Ş.');
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  test('--trust-proxy without addresses warns that per-address limits then rely on the network', async () => {
    const bare = await startServe(['--db', `sqlite:${join(dir, 'proxy.db')}`, '--trust-proxy']);
    const named = await startServe(['--db', `sqlite:${join(dir, 'proxy.db')}`, '--trust-proxy', '127.0.0.1']);
    try {
      assert.match(bare.stderr(), /warning: --trust-proxy without addresses .*name the proxy's addresses/);
      assert.doesNotMatch(named.stderr(), /warning: --trust-proxy/);
    } finally {
      await bare.stop();
      await named.stop();
    }
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
    assert.deepEqual(
      results.filter((r) => r !== '200' && r !== '503'),
      [],
    );
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
      await database.engine.db
        .insertInto('audit_log')
        .values([row(now - 400 * day), row(now - 366 * day), row(now - 10 * day), row(now)])
        .execute();
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
