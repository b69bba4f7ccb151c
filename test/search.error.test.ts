/** D2 from every failure path of the HTTP API, and D7's parameter rules, on every engine. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/assertions.ts';
import { readJson, type ErrorBody } from './helpers/bodies.ts';

for (const engine of ENGINES) {
  describe(`errors [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-1', dailyLimit: 1000 });
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Errortest Lojistik A.Ş.' }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const bad = async (query: string, reason: string, message?: RegExp) => {
      const body = assertErrorBody(await search(t.app, key, query), 400, reason);
      if (message) assert.match(body.error, message);
      return body;
    };

    test('D7: q missing, empty, too short, too long', async () => {
      await bad('', 'invalid_parameter', /q is required/);
      await bad('q=', 'invalid_parameter', /q is required/);
      await bad('q=%20%20%20', 'invalid_parameter', /q is required/);
      await bad('q=ab', 'invalid_parameter', /at least 3 characters/);
      await bad('q=%20ab%20', 'invalid_parameter', /at least 3 characters/);
      await bad(`q=${'a'.repeat(101)}`, 'invalid_parameter', /at most 100/);
      // 100 characters after trimming is fine even when the raw value is longer.
      assert.equal((await search(t.app, key, `q=${encodeURIComponent(`   ${'a'.repeat(100)}   `)}`)).statusCode, 200);
    });

    test('D7: control characters and bad percent-encoding', async () => {
      await bad('q=abc%00def', 'invalid_parameter', /control characters/);
      await bad('q=abc%0Adef', 'invalid_parameter', /control characters/);
      await bad('q=%ff%fe%fd', 'malformed_request', /percent-encoded/);
      await bad('q=%c3%28abc', 'malformed_request', /percent-encoded/);
    });

    test('D7: type and country', async () => {
      await bad('q=abc&type=vkn', 'invalid_parameter', /'name' or 'tax_id'/);
      await bad('q=abc&type=NAME', 'invalid_parameter', /'name' or 'tax_id'/);
      await bad('q=abc&country=XX', 'unsupported_country', /countries/);
      await bad('q=abc&country=TUR', 'unsupported_country');
      assert.equal((await search(t.app, key, 'q=Errortest&type=&country=')).statusCode, 200, 'empty counts as absent');
    });

    test('D7: a parameter given twice', async () => {
      await bad('q=abc&q=abd', 'duplicate_parameter', /q was given 2 times/);
      await bad('q=abc&country=TR&country=DE', 'duplicate_parameter', /country/);
    });

    test('D7: a key in the URL is refused and never echoed', async () => {
      for (const name of ['api_key', 'apikey', 'key', 'token', 'access_token']) {
        const body = await bad(`q=abc&${name}=${key}`, 'key_in_url', /X-API-Key header/);
        assert.equal(JSON.stringify(body).includes(key), false);
      }
      // Unknown parameters are ignored.
      assert.equal((await search(t.app, key, 'q=Errortest&utm_source=x')).statusCode, 200);
    });

    test('D8/D9: too generic, mistyped tax ID', async () => {
      await bad('q=A.Ş.%20Ltd%20Şti', 'query_too_generic', /too generic/);
      await bad('q=1234567891&type=tax_id&country=TR', 'invalid_tax_id', /expected VKN/);
      await bad('q=123&type=tax_id&country=TR', 'invalid_tax_id', /typo/);
    });

    test('D1/D2: unknown paths are 404 in the error body', async () => {
      for (const url of ['/', '/api/v1', '/api/v2/search.php', '/api/v1/search.phpx', '/api/v1/search/', '/robots.txt']) {
        assertErrorBody(await t.app.inject({ url }), 404, 'not_found');
      }
    });

    test('D1: wrong methods are 405 with Allow', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url: '/api/v1/search.php?q=abc' });
        assert.equal(res.statusCode, 405, method);
        assert.equal(res.headers.allow, 'GET');
        if (method !== 'HEAD') assertErrorBody(res, 405, 'method_not_allowed');
      }
      for (const method of ['POST', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: '/api/v1/countries' });
        assertErrorBody(res, 405, 'method_not_allowed');
        assert.equal(res.headers.allow, 'GET, HEAD');
      }
    });

    test('D2: a body larger than allowed is refused in the error body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/search.php',
        payload: 'x'.repeat(10_000),
        headers: { 'content-type': 'application/json' },
      });
      assert.ok([405, 413].includes(res.statusCode));
      assert.equal(res.json<ErrorBody>().success, false);
    });

    test('D2: an exception inside the handler is an opaque 500', async () => {
      const broken = await engine.create();
      const b = await makeTestApp(broken);
      try {
        const brokenKey = await makeKeyHolder(broken.engine.db, b.clock, { ref: 'M-9' });
        await makeCompanies(broken.engine, b.clock, [{ company_name: 'Brokentable Lojistik A.Ş.' }]);
        await sql`DROP TABLE report_status_changes`.execute(broken.engine.db);
        // PostgreSQL: the tables of migration 0004 (attachments...) refer to reports.
        await sql.raw(`DROP TABLE reports${engine.name === 'postgres' ? ' CASCADE' : ''}`).execute(broken.engine.db);
        const res = await search(b.app, brokenKey, 'q=Brokentable');
        const body = assertErrorBody(res, 500, 'internal_error');
        assert.match(body.error, new RegExp(String(res.headers['x-request-id'])));
        assert.doesNotMatch(res.body, /reports|SELECT|sqlite|postgres|\/work|\.ts|at /i);
        // The failed search did not count (D18).
        assert.equal(res.headers['x-ratelimit-used'], '0');
        assert.ok(
          b.logs.some((l) => l.includes('unhandled error')),
          'the 500 is logged with its cause',
        );
      } finally {
        await b.close();
        await broken.drop();
      }
    });

    test("D2: the HTTP parser's own errors are answered in the error body", async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const raw = (text: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write(text));
          let data = '';
          socket.on('data', (d: Buffer) => (data += d.toString()));
          socket.on('end', () => resolve(data));
          socket.on('error', reject);
        });
      for (const request of ['GARBAGE\r\n\r\n', 'GET /api/v1/countries HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']) {
        const answer = await raw(request);
        assert.match(answer, /^HTTP\/1\.1 400 /);
        const body = readJson<ErrorBody>(answer.slice(answer.indexOf('\r\n\r\n') + 4));
        assert.deepEqual(body, {
          success: false,
          error: 'malformed HTTP request',
          code: 400,
          reason: 'malformed_request',
          docs: '/api/v1/docs/errors#reason-malformed_request',
        });
      }
      const huge = await raw(`GET /api/v1/countries HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.match(huge, /^HTTP\/1\.1 431 /);
      assert.match(huge, /"reason":"header_too_large"/);
    });
  });
}
