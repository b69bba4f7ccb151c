/**
 * Property-based bad input against the real server over raw sockets: random parameters,
 * repeated parameters, invalid percent-encoding, lone surrogates, NUL, RTL marks, SQL and LIKE
 * metacharacters, very long values, odd headers, methods and paths. For every request: no 5xx,
 * every error in the D2 body; afterwards the server still answers and no key reached the logs.
 *
 * The seed is fixed so that CI is repeatable; explore with `FC_SEED=<n> FC_RUNS=<n> npm test`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fc from 'fast-check';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { readJson, type ErrorBody } from './helpers/bodies.ts';
import { digestApiKey } from '../src/keys/api-key.ts';

const SEED = Number(process.env.FC_SEED ?? 20261121);
const RUNS = Number(process.env.FC_RUNS ?? 400);

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function rawRequest(port: number, request: Buffer): Promise<RawResponse | null> {
  return new Promise((resolve) => {
    // write, not end: a half-closed socket makes Node's server drop a response still being made.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    socket.setTimeout(15_000, () => socket.destroy());
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => resolve(null));
    socket.on('close', () => {
      // Skip interim 1xx answers (Expect: 100-continue).
      const text = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return resolve(null);
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
  });
}

const NASTY = [
  "' OR 1=1 --",
  '%',
  '_',
  '%%',
  '\\',
  ';DROP TABLE companies;',
  '*',
  '?',
  '"',
  '`',
  '$1',
  'NULL',
  '\u202eevil',
  '\u200f\u200e',
  'İIıi',
  'ﬁ ligature',
  '💥',
  'a'.repeat(101),
  'x'.repeat(3000),
  ' ',
  '',
  '..',
  '__proto__',
  'constructor',
];
/** Already percent-encoded forms, some invalid on purpose. */
const RAW_ENCODED = ['%ff', '%c3%28', '%', '%zz', '%ed%a0%80', '%00', '%0a', '%e2%80%ae', '%25', '+', '%2B', '%C4%B0stanbul', '%F0%9F%92%A5'];

function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return Buffer.from(text).toString('latin1'); // lone surrogates: send whatever bytes come out
  }
}

const valueArb = fc.oneof(
  fc.string({ maxLength: 40 }).map(encode),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encode),
  fc.constantFrom(...NASTY).map(encode),
  fc.constantFrom(...RAW_ENCODED),
  fc.array(fc.constantFrom(...RAW_ENCODED), { minLength: 1, maxLength: 4 }).map((a) => a.join('')),
);

function requestArb(key: string) {
  const nameArb = fc.oneof(
    fc.constantFrom('q', 'q', 'q', 'type', 'country', 'api_key', 'token', 'key', 'Q', 'q[]', 'q%00'),
    fc.string({ maxLength: 10 }).map(encode),
  );
  const pairArb = fc.tuple(nameArb, fc.oneof(valueArb, fc.constantFrom('name', 'tax_id', 'TR', 'tr', 'XX', key)));
  const pathArb = fc.oneof(
    fc.constantFrom('/api/v1/search.php', '/api/v1/search.php', '/api/v1/search', '/api/v1/countries.php', '/api/v1/countries'),
    fc.constantFrom('/', '/api', '/api/v1/../v1/search.php', '/api/v1/search.php/', '/API/V1/SEARCH.PHP', '/%2e%2e/etc/passwd', '//api/v1/search.php'),
    fc.array(fc.string({ maxLength: 8 }).map(encode), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  );
  const methodArb = fc.oneof(
    { weight: 8, arbitrary: fc.constant('GET') },
    { weight: 2, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND', 'FOO', 'get') },
  );
  const keyHeaderArb = fc.oneof(
    fc.constant(key),
    fc.constant(null),
    fc.constantFrom('', ' ', key.slice(0, 63), `${key}x`, 'x'.repeat(64), `${key}, ${key}`, 'ş'.repeat(64)),
    fc.string({ maxLength: 80 }),
  );
  const extraHeaderArb = fc.constantFrom(
    [],
    [],
    ['X-Forwarded-For: 1.2.3.4'],
    ['Content-Length: 5', '', 'hello'],
    ['Transfer-Encoding: chunked'],
    ['If-None-Match: *'],
    ['Content-Type: application/json'],
    ['X-Api-Key: second'],
    ['Host: evil.example'],
    ['Accept: text/html'],
    ['Expect: 100-continue'],
  );
  return fc.record({
    method: methodArb,
    path: pathArb,
    pairs: fc.array(pairArb, { maxLength: 5 }),
    keyHeader: keyHeaderArb,
    extra: extraHeaderArb,
  });
}

function render(r: { method: string; path: string; pairs: [string, string][]; keyHeader: string | null; extra: readonly string[] }): Buffer {
  const query = r.pairs.map(([n, v]) => `${n}=${v}`).join('&');
  const target = query ? `${r.path}?${query}` : r.path;
  const body = r.extra.includes('') ? r.extra.slice(r.extra.indexOf('') + 1).join('') : '';
  const headerLines = r.extra.includes('') ? r.extra.slice(0, r.extra.indexOf('')) : r.extra;
  const headers = ['Host: 127.0.0.1', 'Connection: close', ...(r.keyHeader === null ? [] : [`X-API-Key: ${r.keyHeader}`]), ...headerLines];
  return Buffer.concat([Buffer.from(`${r.method} ${target} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'), Buffer.from(body)]);
}

for (const engine of ENGINES) {
  describe(`bad input [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    let port: number;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { anonDailyLimit: 1_000_000 });
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-FUZZ', dailyLimit: 1_000_000 });
      await makeCompanies(database.engine, t.clock, [{ company_name: "O'Reilly %_ Lojistik A.Ş." }, { company_name: 'İstanbul Nakliyat' }]);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as net.AddressInfo).port;
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test(`${RUNS} random bad requests: no 5xx, every error in the D2 body`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArb(key), async (r) => {
          const res = await rawRequest(port, render(r));
          assert.ok(res, 'the server answered');
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          // 5xx never, except 501 for a method this API does not implement.
          assert.ok(res.status < 500 || (res.status === 501 && r.method !== 'GET'), `status ${res.status}: ${res.body}`);
          if (res.status >= 400 && r.method !== 'HEAD') {
            const body = readJson<ErrorBody>(res.body);
            assert.deepEqual(Object.keys(body), ['success', 'error', 'code', 'reason', 'docs']);
            assert.equal(body.success, false);
            assert.equal(body.code, res.status);
            assert.match(res.headers['content-type'] ?? '', /^application\/json; charset=utf-8$/);
            assert.doesNotMatch(res.body, /at \S+ \(|node_modules|\/work\/|SELECT |sqlite|SQLITE|postgres/i);
          }
          assert.equal(res.body.includes(key), false, 'the key was echoed');
        }),
        { seed: SEED, numRuns: RUNS },
      );
      // Both the happy and the unhappy paths were exercised.
      assert.ok((statuses.get(200) ?? 0) > 10, JSON.stringify([...statuses]));
      assert.ok([...statuses.keys()].filter((s) => s >= 400).length >= 5, JSON.stringify([...statuses]));
    });

    test('the server still answers, and no key or digest reached the logs', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/search.php?q=Nakliyat`, { headers: { 'x-api-key': key } });
      assert.equal(res.status, 200);
      const logs = t.logs.join('');
      assert.ok(logs.length > 10_000);
      assert.equal(logs.includes(key), false);
      assert.equal(logs.includes(digestApiKey(key)), false);
    });
  });
}
