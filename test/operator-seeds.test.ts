/**
 * Issue 27, finding 3 and D35: an operator's TOTP seed is random (nothing about it can be computed
 * from the one-time link), stored sealed under the key ring, re-sealed by `secrets rotate`; the
 * seeds an earlier version stored in clear keep working after the upgrade; a start without a ring
 * is refused (except `serve --demo`). Through the real app and the real program, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret } from 'otpauth';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { anonymousBrowser, makePortalUser, PortalBrowser, signIn } from './helpers/portal.ts';
import { runCli, startServe, type ServeProcess } from './helpers/cli.ts';
import { TEST_KEY_RING, TEST_KEY_RING_ENV } from './helpers/secrets.ts';
import { totpCodeAt } from '../src/users/totp.ts';
import { createResetLink, inviteUser } from '../src/users/users.service.ts';
import { generateKeyEntry, keyIdOf } from '../src/secrets/key-ring.ts';
import { digestSecretToken } from '../src/users/one-time-token.ts';
import { systemClock } from '../src/lib/clock.ts';

const PASSWORD = 'a long operator passphrase';

/** The seed the code before D35 gave a link: HMAC-SHA256 keyed by the link's token, no server secret. */
function seedDerivedFromToken(token: string): string {
  const bytes = createHmac('sha256', token).update('risklookup operator TOTP enrolment').digest().subarray(0, 20);
  return new Secret({ buffer: new Uint8Array(bytes).buffer }).base32;
}

const seedOnPage = (body: string) => /id="totp-secret">([A-Z2-7]{32})</.exec(body)?.[1];

/** Signs an operator in to a running server over HTTP with a code for the real time; the status of the answer. */
async function signInOverHttp(server: ServeProcess, email: string, seed: string): Promise<number> {
  const page = await fetch(`${server.url}/portal/sign-in`);
  const csrfCookie = page.headers
    .getSetCookie()
    .find((c) => c.startsWith('rl_csrf='))!
    .split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const answer = await fetch(`${server.url}/portal/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: csrfCookie },
    body: new URLSearchParams({ _csrf: csrf, email, password: PASSWORD, code: totpCodeAt(seed, Date.now()) }).toString(),
  });
  return answer.status;
}

for (const engine of ENGINES) {
  describe(`operators' TOTP seeds (D35) [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const db = () => database.engine.db;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeMember(db(), t.clock, { ref: 'M-1' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('the seed an invitation enrols cannot be computed from its link, and is stored sealed', async () => {
      const link = await inviteUser(db(), t.clock, { email: 'op.seed@example.com', role: 'operator', createdBy: 'test', keyRing: TEST_KEY_RING });
      const browser = new PortalBrowser(t.app);
      const seed = seedOnPage((await browser.get(`/portal/accept?token=${link.token}`)).body);
      assert.ok(seed, 'the seed is on the acceptance page');
      assert.notEqual(seed, seedDerivedFromToken(link.token), 'the seed must not follow from the link');
      assert.equal(seedOnPage((await browser.get(`/portal/accept?token=${link.token}`)).body), seed, 'the page shows the same seed each time');
      const waiting = await db().selectFrom('user_tokens').select('totp_secret').where('digest', '=', digestSecretToken(link.token)).executeTakeFirstOrThrow();
      assert.equal(keyIdOf(waiting.totp_secret!), 'test', 'the waiting seed is sealed');
      const done = await browser.post('/portal/accept', {
        token: link.token,
        name: 'Op Seed',
        password: PASSWORD,
        password2: PASSWORD,
        totp_code: totpCodeAt(seed, t.clock.now()),
      });
      assert.equal(done.statusCode, 303);
      const user = await db().selectFrom('users').select('totp_secret').where('email_norm', '=', 'op.seed@example.com').executeTakeFirstOrThrow();
      assert.ok(!user.totp_secret!.includes(seed), 'never stored in clear');
      assert.equal(keyIdOf(user.totp_secret!), 'test');
      // Once used, the link shows nothing, and holding it gives nothing either.
      assert.equal((await new PortalBrowser(t.app).get(`/portal/accept?token=${link.token}`)).statusCode, 404);
    });

    test('two links for one operator carry different random seeds; a reset enrols a new one', async () => {
      const op = await makePortalUser(db(), t.clock, { role: 'operator', email: 'op.reset@example.com', password: PASSWORD });
      const link = await createResetLink(db(), t.clock, { email: op.email, createdBy: 'test', keyRing: TEST_KEY_RING });
      const browser = new PortalBrowser(t.app);
      const seed = seedOnPage((await browser.get(`/portal/accept?token=${link.token}`)).body)!;
      assert.notEqual(seed, op.totpSecret);
      assert.notEqual(seed, seedDerivedFromToken(link.token));
      t.clock.advance(30_000);
      const done = await browser.post('/portal/accept', {
        token: link.token,
        name: 'Op',
        password: PASSWORD,
        password2: PASSWORD,
        totp_code: totpCodeAt(seed, t.clock.now()),
      });
      assert.equal(done.statusCode, 303);
      t.clock.advance(30_000);
      const oldSeed = await (
        await anonymousBrowser(t.app)
      ).post('/portal/sign-in', { email: op.email, password: PASSWORD, code: totpCodeAt(op.totpSecret!, t.clock.now()) });
      assert.equal(oldSeed.statusCode, 401, 'the authenticator of before the reset no longer works');
      await signIn(t.app, { email: op.email, password: PASSWORD, totpSecret: seed }, t.clock);
    });

    test('an operator whose seed an earlier version stored in clear still signs in after the upgrade; the seed is sealed at start', async () => {
      const op = await makePortalUser(db(), t.clock, { role: 'operator', email: 'op.legacy@example.com', password: PASSWORD });
      // What the version before D35 left in the row: the seed itself.
      const legacySeed = seedDerivedFromToken('a-link-token-of-the-old-version-0123456789a');
      await db().updateTable('users').set({ totp_secret: legacySeed, totp_last_step: null }).where('id', '=', op.id).execute();
      const server = await startServe(['--db', database.url]);
      try {
        assert.match(server.stderr(), /sealed 1 secret an earlier version stored in clear/);
        const row = await db().selectFrom('users').select('totp_secret').where('id', '=', op.id).executeTakeFirstOrThrow();
        assert.equal(keyIdOf(row.totp_secret!), 'test', 'sealed under the ring');
        assert.equal(await signInOverHttp(server, op.email, legacySeed), 303, 'the same authenticator still works');
      } finally {
        await server.stop();
      }
    });

    test('secrets rotate re-seals every stored secret under the newest key; then the older key can go', async () => {
      const op = await makePortalUser(db(), t.clock, { role: 'operator', email: 'op.rotate@example.com', password: PASSWORD });
      await db().updateTable('users').set({ totp_last_step: null }).where('id', '=', op.id).execute();
      // Made at the real time: the server below runs on the real clock, and links last 72 hours.
      const waiting = await inviteUser(db(), systemClock, { email: 'op.waiting@example.com', role: 'operator', createdBy: 'test', keyRing: TEST_KEY_RING });
      const newKey = generateKeyEntry('next');
      const both = { RISKLOOKUP_SECRET_KEYS: `${TEST_KEY_RING_ENV.RISKLOOKUP_SECRET_KEYS},${newKey}` };
      const rotated = await runCli(['--json', 'secrets', 'rotate', '--db', database.url], both);
      assert.equal(rotated.code, 0, rotated.stderr);
      const report = JSON.parse(rotated.stdout) as { newest_key: string; resealed: number; unreadable: unknown[] };
      assert.equal(report.newest_key, 'next');
      assert.ok(report.resealed >= 2, `resealed ${report.resealed}`);
      assert.deepEqual(report.unreadable, []);
      const status = await runCli(['secrets', 'status', '--db', database.url], both);
      assert.equal(status.code, 0, status.stderr);
      assert.doesNotMatch(status.stdout, /under 'test'/);
      assert.match(status.stdout, /users\.totp_secret .*under 'next' \(newest\)/);
      assert.ok(!status.stdout.includes(newKey.split(':')[1]!), 'no key material is printed');
      // The ring without the old key: the operator signs in, and the waiting link still enrols.
      const server = await startServe(['--db', database.url], { RISKLOOKUP_SECRET_KEYS: newKey });
      try {
        assert.equal(await signInOverHttp(server, op.email, op.totpSecret!), 303);
        const page = await fetch(`${server.url}/portal/accept?token=${waiting.token}`);
        assert.ok(seedOnPage(await page.text()), 'the waiting link opens under the new key');
      } finally {
        await server.stop();
      }
      // A ring that lacks the key a secret is under: rotate lists it and fails, naming what to do.
      const lost = await runCli(['secrets', 'rotate', '--db', database.url], { RISKLOOKUP_SECRET_KEYS: generateKeyEntry('other') });
      assert.equal(lost.code, 1);
      assert.match(lost.stderr, /could not be opened by this ring: put the key they name back .* reset link/);
      assert.match(lost.stdout, /users\.totp_secret row \d+ \(key 'next'\)/);
    });

    test('without a ring, serve and the commands that touch a secret refuse, naming the variable and how to make a key', async () => {
      for (const args of [
        ['serve', '--port', '0'],
        ['user', 'invite', 'x@example.com', '--role', 'operator'],
        ['user', 'reset', 'x@example.com'],
        ['secrets', 'rotate'],
      ]) {
        const refused = await runCli([...args, '--db', database.url], { RISKLOOKUP_SECRET_KEYS: '' });
        assert.equal(refused.code, 1, `${args.join(' ')}: ${refused.stderr}`);
        assert.match(refused.stderr, /RISKLOOKUP_SECRET_KEYS/);
        assert.match(refused.stderr, /risklookup secrets generate-key/);
      }
      const bad = await runCli(['serve', '--port', '0', '--db', database.url], { RISKLOOKUP_SECRET_KEYS: 'k1:not-a-key' });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /entry 1 is not ID:rlsk1_/);
      assert.ok(!bad.stderr.includes('not-a-key'), 'the refusal does not echo what was given');
      // Commands without secrets need no ring.
      assert.equal((await runCli(['member', 'list', '--db', database.url], { RISKLOOKUP_SECRET_KEYS: '' })).code, 0);
    });
  });
}

describe('secrets generate-key', () => {
  test('prints one ID:rlsk1_ key entry that a ring accepts, a new one each time', async () => {
    const a = await runCli(['secrets', 'generate-key', '--id', 'k2026a'], { RISKLOOKUP_SECRET_KEYS: '' });
    const b = await runCli(['secrets', 'generate-key'], { RISKLOOKUP_SECRET_KEYS: '' });
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout.trim(), /^k2026a:rlsk1_[A-Za-z0-9_-]{43}$/);
    assert.match(b.stdout.trim(), /^k\d{8}-[0-9a-f]{4}:rlsk1_[A-Za-z0-9_-]{43}$/);
    assert.equal((await runCli(['secrets', 'generate-key', '--id', 'bad id'])).code, 2);
  });
});

describe('serve --demo without a ring', () => {
  test('makes one for its run and says what that means', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'risklookup-demo-ring-'));
    const demo = await startServe(['--demo', '--db', `sqlite:${join(dir, 'demo.db')}`], { RISKLOOKUP_SECRET_KEYS: '' });
    try {
      assert.match(demo.stderr(), /warning: --demo made a secret key ring for this run only: operators enrolled during it cannot sign in after a restart/);
      assert.equal((await fetch(`${demo.url}/portal/sign-in`)).status, 200);
    } finally {
      assert.equal(await demo.stop(), 0);
    }
  });
});
