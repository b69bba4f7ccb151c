/**
 * D26 against one address that tries to starve the server (issue 27, finding 5): slow bodies
 * sent with made-up keys (well-formed: the checksum is public) to the portal's sign-in, held
 * open or reconnected as soon as they are closed. A legitimate search from another key must be
 * answered at once all the same; a body that trickles is closed by its own short timeout (408),
 * not by the 10 s request timeout. A real port: `inject` cannot send a body slowly.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { makePortalUser, signIn } from './helpers/portal.ts';
import { generateApiKey } from '../src/keys/api-key.ts';

interface SlowClients {
  /** Connections opened so far (reconnections included). */
  opened(): number;
  /** Status codes the server answered them with. */
  answers(): string[];
  /** What the server sent them, in full. */
  received(): string;
  stop(): void;
}

/**
 * `count` connections that each send the headers of a form POST with a made-up key and then one
 * byte of the body every 200 ms; with `reconnect`, a connection the server closes is opened again.
 */
function slowSignIns(
  port: number,
  count: number,
  reconnect: boolean,
  path = '/portal/sign-in',
  type = 'application/x-www-form-urlencoded',
  cookie = '',
): SlowClients {
  let stopped = false;
  let opened = 0;
  const answers: string[] = [];
  let received = '';
  const sockets = new Set<net.Socket>();
  const open = () => {
    if (stopped) return;
    opened++;
    const socket = net.connect(port, '127.0.0.1');
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-API-Key: ${generateApiKey()}\r\n` +
          `Content-Type: ${type}\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}Content-Length: 1000\r\n\r\n`,
      );
      timer = setInterval(() => socket.write('a'), 200);
    });
    socket.on('data', (chunk) => {
      received += String(chunk);
      const line = /^HTTP\/1\.1 \d+/.exec(String(chunk))?.[0];
      if (line) answers.push(line.slice(9));
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (reconnect) setImmediate(open);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    opened: () => opened,
    answers: () => answers,
    received: () => received,
    stop: () => {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

async function timedSearch(base: string, key: string, taxId: string) {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/search.php?type=tax_id&country=TR&q=${taxId}`, { headers: { 'x-api-key': key } });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const engine of ENGINES) {
  describe(`slow clients cannot starve the server [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base = '';
    let port = 0;
    let key = '';
    let taxId = '';

    before(async () => {
      database = await engine.create();
      [taxId = ''] = await makeCompanies(database.engine, { now: () => Date.now() }, [{ company_name: 'Yavaş Olmayan A.Ş.' }]);
      // The default admission limits (16 in work, 5 s of waiting): the attack's own setting.
      t = await makeTestApp(database);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-SLOW', dailyLimit: 1000 });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as net.AddressInfo).port;
      base = `http://127.0.0.1:${port}`;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    test('20 slow sign-ins with made-up keys, held open: a search of a known key is answered 200 at once', async () => {
      const slow = slowSignIns(port, 20, false);
      try {
        await sleep(500);
        const answer = await timedSearch(base, key, taxId);
        assert.equal(answer.status, 200);
        assert.ok(answer.ms < 1000, `the search waited ${answer.ms.toFixed(0)} ms behind the slow bodies`);
      } finally {
        slow.stop();
      }
    });

    test('40 slow sign-ins with made-up keys, reconnecting as soon as closed: 5 searches over 3 s all answer 200', async () => {
      const slow = slowSignIns(port, 40, true);
      try {
        await sleep(300);
        const answers = [];
        for (let i = 0; i < 5; i++) {
          answers.push(await timedSearch(base, key, taxId));
          await sleep(500);
        }
        assert.deepEqual(
          answers.map((a) => a.status),
          [200, 200, 200, 200, 200],
        );
        assert.ok(Math.max(...answers.map((a) => a.ms)) < 1000, `slowest search: ${Math.max(...answers.map((a) => a.ms)).toFixed(0)} ms`);
      } finally {
        slow.stop();
      }
    });

    test('a body that trickles is answered 408 by its own short timeout, long before the 10 s request timeout', async () => {
      const member = await signIn(t.app, await makePortalUser(database.engine.db, t.clock, { role: 'member_user', memberRef: 'M-SLOW' }));
      const forms = [
        ['/portal/sign-in', 'application/x-www-form-urlencoded'],
        ['/portal/reports', 'multipart/form-data; boundary=x'],
        ['/api/v1/search.php', 'application/json'],
      ] as const;
      for (const [path, type] of forms) {
        const started = performance.now();
        // The filing form refuses a visitor before reading the body: a member user sends this one.
        const cookie = path === '/portal/reports' ? member.cookieHeader() : '';
        const slow = slowSignIns(port, 1, false, path, type, cookie);
        try {
          while (slow.answers().length === 0 && performance.now() - started < 9000) await sleep(50);
          assert.deepEqual(slow.answers(), ['408'], path);
          // The answer of its side (the API's error body, the portal's page), and the connection closed.
          assert.match(slow.received(), path.startsWith('/api/') ? /"reason":"request_timeout"/ : /<html lang="(tr|en)">/, path);
          assert.match(slow.received(), /connection: close/i, path);
          assert.ok(performance.now() - started < 5000, `${path}: answered after ${(performance.now() - started).toFixed(0)} ms`);
        } finally {
          slow.stop();
        }
      }
    });
  });
}
