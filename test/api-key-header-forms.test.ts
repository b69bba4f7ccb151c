/**
 * D17 over a real socket, for the header forms an outsider can send: the key is digested once a
 * request (admission, http/admission.hooks.ts) and authentication uses that digest, so every form
 * must authenticate as the key it holds, or as none. Two X-API-Key headers (Node joins them) hold
 * no well-formed key, whichever keys they are; a key with blanks around it is the key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';

/** One request with exactly these header lines; the status and the body's `reason`. */
function rawGet(port: number, path: string, headerLines: string[]): Promise<{ status: number; reason: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      const body = data.slice(data.indexOf('\r\n\r\n') + 4);
      const reason = /"reason":"([a-z_]+)"/.exec(body)?.[1] ?? null;
      resolve({ status, reason });
    });
    // Written, not ended: a half-closed socket may be dropped before the answer.
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headerLines.map((l) => `${l}\r\n`).join('')}\r\n`);
  });
}

for (const engine of ENGINES) {
  describe(`API key header forms [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let keyA: string;
    let keyB: string;
    let port: number;
    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { anonDailyLimit: 1000 });
      keyA = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-HDR-A', dailyLimit: 1000 });
      keyB = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-HDR-B', dailyLimit: 1000 });
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Başlık Lojistik A.Ş.' }]);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as net.AddressInfo).port;
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const path = '/api/v1/search.php?q=Lojistik';

    test('one key, bare or with blanks around it, is that key', async () => {
      assert.deepEqual(await rawGet(port, path, [`X-API-Key: ${keyA}`]), { status: 200, reason: null });
      assert.deepEqual(await rawGet(port, path, [`x-api-key:   ${keyB}  `]), { status: 200, reason: null });
    });

    test("two X-API-Key headers authenticate as no key: the same key twice, two members' keys, a key and junk", async () => {
      for (const [first, second] of [
        [keyA, keyA],
        [keyA, keyB],
        [keyA, 'junk'],
        ['', keyA],
      ] as const) {
        const got = await rawGet(port, path, [`X-API-Key: ${first}`, `X-API-Key: ${second}`]);
        assert.equal(got.status, 401, `${first.slice(0, 6)} + ${second.slice(0, 6)}`);
        assert.equal(got.reason, 'api_key_invalid');
      }
    });

    test('no key, or only blanks: api_key_missing (D17 step 1) before any look-up', async () => {
      assert.deepEqual(await rawGet(port, path, []), { status: 401, reason: 'api_key_missing' });
      assert.deepEqual(await rawGet(port, path, ['X-API-Key:    ']), { status: 401, reason: 'api_key_missing' });
    });
  });
}
