/**
 * What an operator reads of `serve` (D36, issue 28): one line per request on stderr, with the
 * method, the route, the status, the time and the request id, written while it serves (the
 * server's log stream writes its lines within 50 ms), never a key; and every API
 * response, whatever its status, with its request id and rate-limit figures (D3).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES } from './helpers/engines.ts';
import { startServe } from './helpers/cli.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  route?: string | null;
  path?: string;
  status?: number;
  ms?: number;
}

for (const engine of ENGINES) {
  describe(`serve's request log and headers (${engine.name})`, () => {
    test('one info line per request with its fields, written while serving; no key in any line; the figures on every answer', async () => {
      const database = await engine.create();
      await database.engine.close();
      const server = await startServe(['--db', database.url, '--demo', '--log-level', 'info', '--anon-daily-limit', '1000']);
      try {
        const key = /demo API key \(shown once\): (\S+)/.exec(server.stdout())![1]!;
        const search = /curl -s -H 'X-API-Key: \S+' '(\S+)'/.exec(server.stdout())![1]!;
        const taxId = `${server.url}/api/v1/search.php?type=tax_id&country=TR&q=`;
        const asked: Array<{ url: string; key?: string; status: number }> = [
          { url: search, key, status: 200 },
          { url: `${taxId}1234567890`, key, status: 200 },
          { url: search, status: 401 },
          { url: search, key: key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'), status: 401 },
          { url: `${search}&api_key=${key}`, key, status: 400 },
          { url: `${server.url}/api/v1/${key}`, status: 404 },
          { url: `${server.url}/api/v1/countries.php`, status: 200 },
        ];
        // Several at once too: lines that wait together go out together, each whole.
        for (let i = 0; i < 10; i++) asked.push({ url: search, key, status: 200 });
        const answers = await Promise.all(
          asked.map(async (a) => {
            const res = await fetch(a.url, { headers: a.key ? { 'x-api-key': a.key } : {} });
            await res.arrayBuffer();
            return { asked: a, res };
          }),
        );
        for (const { asked: a, res } of answers) {
          assert.equal(res.status, a.status, a.url);
          const id = res.headers.get('x-request-id');
          assert.match(id ?? '', /^[0-9a-f-]{36}$/, `${a.url}: x-request-id`);
          for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used', 'ratelimit-policy', 'ratelimit']) {
            assert.ok(res.headers.get(h) !== null, `${a.url} (${res.status}): ${h}`);
          }
          assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
          if (!a.url.includes('countries')) assert.equal(res.headers.get('cache-control'), 'no-store');
        }
        const ids = answers.map((a) => a.res.headers.get('x-request-id')!);
        // Written while the server runs, not only at its exit.
        const linesOf = () =>
          server
            .stderr()
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l) as LogLine);
        const started = Date.now();
        while (linesOf().filter((l) => l.msg === 'request').length < asked.length) {
          assert.ok(Date.now() - started < 5000, `request lines written while serving: ${server.stderr()}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const lines = linesOf().filter((l) => l.msg === 'request');
        assert.equal(lines.length, asked.length, 'one line per request');
        assert.deepEqual(new Set(lines.map((l) => l.reqId)), new Set(ids), 'the request id of each answer');
        for (const line of lines) {
          assert.equal(line.level, 30);
          assert.equal(line.method, 'GET');
          assert.equal(typeof line.status, 'number');
          assert.equal(typeof line.ms, 'number');
          assert.ok(line.route !== undefined);
        }
        const notFound = lines.find((l) => l.status === 404)!;
        assert.equal(notFound.route, null);
        assert.equal(notFound.path, '/api/v1/[REDACTED]');
        assert.deepEqual(lines.map((l) => l.status).sort(), asked.map((a) => a.status).sort());
        assert.ok(!linesOf().some((l) => l.msg === 'incoming request' || l.msg === 'request completed'));
      } finally {
        assert.equal(await server.stop(), 0);
        await database.drop();
      }
      assert.ok(!server.stderr().includes(/demo API key \(shown once\): (\S+)/.exec(server.stdout())![1]!), 'a key reached the log');
      assert.ok(!server.stderr().includes('Anadolu'), 'search words reached the log');
    });
  });
}
