/**
 * Webhook endpoints (D32), the use cases the portal will call, on both engines: HTTPS only, the
 * address rule at registration (SSRF), at most 3 per member under concurrency, the secret shown
 * once and stored sealed (D35), rotation, and who may do what.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import { webhookWorld, type WebhookWorld } from './helpers/webhooks.ts';
import { KeyRing, keyIdOf, SecretUnreadableError } from '../src/secrets/key-ring.ts';
import { openColumn, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '../src/secrets/secret-columns.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';
import { signatureHeader } from '../src/webhooks/signature.ts';

const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);

/** The one refusal of a host that is not a public address, whatever it resolves to (issue 30). */
const expectedRefusal = (host: string) =>
  `${host} does not resolve to a public address (it resolves to a private or reserved address, or to none): webhooks only go to public addresses; give a host name that resolves to a public internet address`;

/** The DomainError's kind and problem codes, for assertions. */
async function refusal(promise: Promise<unknown>): Promise<{ kind: string; codes: string[]; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, codes: error.problems.map((p) => p.code), message: error.message };
    throw error;
  }
  assert.fail('expected a refusal');
}

for (const engine of ENGINES) {
  describe(`webhook endpoints [${engine.name}]`, () => {
    let database: TestDatabase;
    let world: WebhookWorld;
    const clock = fixedClock(NOW);
    before(async () => {
      database = await engine.create();
      world = webhookWorld(database.engine.db, engine.name, clock, { allowPrivate: false });
      world.dns.set('hooks.example.com', ['93.184.216.34']);
      world.dns.set('internal.example.com', ['10.0.0.5']);
      world.dns.set('mixed.example.com', ['93.184.216.34', '2606:2800:220:1::1', '127.0.0.1']);
      world.dns.set('metadata.example.com', ['169.254.169.254']);
      world.dns.set('v6loop.example.com', ['::1']);
      world.dns.set('mapped.example.com', ['::ffff:192.168.0.1']);
    });
    after(async () => {
      await database?.drop();
    });

    test('registration refuses anything but an https address, naming the problem', async () => {
      const { admin } = await world.member('WH-URL');
      const cases: Array<[string, string]> = [
        ['http://hooks.example.com/in', 'webhook.url_not_https'],
        ['ftp://hooks.example.com/in', 'webhook.url_not_https'],
        ['hooks.example.com/in', 'webhook.url_invalid'],
        ['https://user:pass@hooks.example.com/in', 'webhook.url_credentials'],
        ['https://hooks.example.com/in#part', 'webhook.url_fragment'],
        [`https://hooks.example.com/${'a'.repeat(2001)}`, 'webhook.url_too_long'],
      ];
      for (const [url, code] of cases) {
        const refused = await refusal(world.endpoints.registerEndpoint(admin, { url }));
        assert.deepEqual([refused.kind, refused.codes], ['invalid', [code]], url);
      }
      const both = await refusal(world.endpoints.registerEndpoint(admin, { url: 'http://hooks.example.com/in', description: 'line\nbreak' }));
      assert.deepEqual(both.codes, ['webhook.url_not_https', 'field.control_characters'], 'every problem at once');
    });

    test('SSRF: an address that is, or resolves to, loopback, private, link-local or metadata is refused', async () => {
      const { admin } = await world.member('WH-SSRF');
      const refused: Array<[string, string]> = [
        ['https://127.0.0.1/in', '127.0.0.1'],
        ['https://[::1]/in', '::1'],
        ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
        ['https://10.1.2.3/in', '10.1.2.3'],
        ['https://100.64.0.1/in', '100.64.0.1'],
        ['https://0.0.0.0/in', '0.0.0.0'],
        ['https://2130706433/in', '127.0.0.1'],
        ['https://[::ffff:127.0.0.1]/in', '::ffff:7f00:1'],
        ['https://internal.example.com/in', '10.0.0.5'],
        ['https://mixed.example.com/in', '127.0.0.1'],
        ['https://metadata.example.com/in', '169.254.169.254'],
        ['https://v6loop.example.com/in', '::1'],
        ['https://mapped.example.com/in', '::ffff:192.168.0.1'],
      ];
      for (const [url, address] of refused) {
        const result = await refusal(world.endpoints.registerEndpoint(admin, { url }));
        assert.deepEqual([result.kind, result.codes], ['invalid', ['webhook.address_refused']], url);
        const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
        // Issue 30: the answer names the range, never the address it resolved to (no map of internal DNS)...
        assert.equal(result.message, expectedRefusal(host), url);
        if (host !== address) assert.ok(!result.message.includes(address), `${url}: ${result.message}`);
      }
      // ...and a name that does not resolve gets the same answer as a private one: no oracle.
      const unknown = await refusal(world.endpoints.registerEndpoint(admin, { url: 'https://nowhere.example.com/in' }));
      const internal = await refusal(world.endpoints.registerEndpoint(admin, { url: 'https://internal.example.com/in' }));
      assert.deepEqual([unknown.kind, unknown.codes], [internal.kind, internal.codes]);
      assert.equal(unknown.message.replace('nowhere.example.com', 'HOST'), internal.message.replace('internal.example.com', 'HOST'));
      assert.equal((await world.endpoints.listEndpoints(admin, { memberId: (admin as { memberId: number }).memberId })).length, 0);
    });

    test('refused addresses: 20 a member a quota day, counted exactly under concurrency; then every registration is a 429 until midnight Turkey time', async () => {
      const { admin, memberId } = await world.member('WH-PROBE');
      const other = await world.member('WH-PROBE-2');
      world.dns.set('probe.example.com', ['192.168.7.7']);
      // Refusals for the form (not https) and a registration that succeeds take none.
      await refusal(world.endpoints.registerEndpoint(admin, { url: 'http://probe.example.com/in' }));
      const ok = await world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/probe-ok' });
      const urls = Array.from({ length: 26 }, (_, i) => (i % 2 === 0 ? `https://probe.example.com/${i}` : `https://gone-${i}.example.com/in`));
      const results = await Promise.all(urls.map((url) => refusal(world.endpoints.registerEndpoint(admin, { url }))));
      const kinds = results.map((r) => `${r.kind}:${r.codes.join(',')}`);
      assert.equal(kinds.filter((k) => k === 'invalid:webhook.address_refused').length, 20, kinds.join(' '));
      assert.equal(kinds.filter((k) => k === 'rate_limited:webhook.address_refusals_used_up').length, 6, kinds.join(' '));
      // Used up: a public address is refused too, before any look-up (the answer cannot depend on the address).
      const lookupsBefore = world.dns.lookups.length;
      const capped = await refusal(world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/after-cap' }));
      assert.deepEqual([capped.kind, capped.codes], ['rate_limited', ['webhook.address_refusals_used_up']]);
      assert.equal(world.dns.lookups.length, lookupsBefore, 'no name looked up once the refusals are used up');
      assert.match(capped.message, /20 addresses of your member were refused today.*opens again at 2026-11-22 00:00:00 Turkey time/);
      // Another member's count is its own.
      assert.ok((await world.endpoints.registerEndpoint(other.admin, { url: 'https://hooks.example.com/other' })).secret);
      // The next quota day (midnight Turkey time, 21:00 UTC) opens registering again.
      clock.set(Date.UTC(2026, 10, 21, 21, 0, 0));
      try {
        assert.ok((await world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/next-day' })).secret);
      } finally {
        clock.set(NOW);
      }
      for (const e of await world.endpoints.listEndpoints(admin, { memberId })) await world.endpoints.deleteEndpoint(admin, { endpointId: e.id });
      void ok;
    });

    /** The endpoint's signing secrets as the delivery worker opens them: current and previous, bound to its row. */
    const openedSecrets = async (id: number) => {
      const row = await database.engine.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return [
        openColumn(TEST_KEY_RING, WEBHOOK_SECRET, id, row.secret_sealed),
        row.previous_secret_sealed === null ? null : openColumn(TEST_KEY_RING, WEBHOOK_PREVIOUS_SECRET, id, row.previous_secret_sealed),
      ];
    };

    test('the secret is returned once, in the whsec_ format, and stored only sealed under the key ring, bound to its row', async () => {
      const { admin, memberId } = await world.member('WH-SECRET');
      const { endpoint, secret } = await world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/risk', description: 'ERP' });
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(
        [endpoint.url, endpoint.description, endpoint.status, endpoint.memberId],
        ['https://hooks.example.com/risk', 'ERP', 'enabled', memberId],
      );
      assert.equal(JSON.stringify(endpoint).includes('whsec_'), false, 'the view never carries a secret');
      const row = await database.engine.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      const stored = JSON.stringify(row);
      assert.equal(stored.includes(secret), false);
      assert.equal(stored.includes(secret.slice(6)), false, 'not even the base64 key');
      assert.equal(keyIdOf(row.secret_sealed), 'test', "sealed under the ring's newest key (D35)");
      assert.deepEqual(await openedSecrets(endpoint.id), [secret, null]);
      assert.throws(
        () => openColumn(KeyRing.generate('test'), WEBHOOK_SECRET, endpoint.id, row.secret_sealed),
        SecretUnreadableError,
        'another key cannot open it',
      );
      // Moved to another endpoint's row, or read as another column's value, it does not open.
      assert.throws(() => openColumn(TEST_KEY_RING, WEBHOOK_SECRET, endpoint.id + 1, row.secret_sealed), /moved from another row/);
      assert.throws(() => TEST_KEY_RING.open(row.secret_sealed, `users.totp_secret#${endpoint.id}`), SecretUnreadableError);
      const listed = await world.endpoints.listEndpoints(admin, { memberId });
      assert.equal(JSON.stringify(listed).includes('whsec_'), false);
    });

    test('at most 3 endpoints per member, also when 6 registrations arrive at once', async () => {
      const { admin, memberId } = await world.member('WH-CAP');
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => world.endpoints.registerEndpoint(admin, { url: `https://hooks.example.com/${i}` })),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        const reason = r.reason as DomainError;
        assert.deepEqual(
          [reason.kind, reason.problems[0]?.code, reason.message],
          ['conflict', 'webhook.endpoint_cap', 'a member has at most 3 endpoints: delete one before adding another'],
        );
      }
      const listed = await world.endpoints.listEndpoints(admin, { memberId });
      assert.equal(listed.length, 3);
      // Each registration sealed its secret for the row it made, also when six ran at once.
      const returned = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      for (const { endpoint, secret } of returned) assert.deepEqual(await openedSecrets(endpoint.id), [secret, null], `endpoint ${endpoint.id}`);
      await world.endpoints.deleteEndpoint(admin, { endpointId: listed[0]!.id });
      await world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/again' });
    });

    test('rotation: a new secret once; the previous one signs too for 24 hours, then stops', async () => {
      const { admin, memberId } = await world.member('WH-ROTATE');
      const { endpoint, secret: first } = await world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/rotate' });
      const rotated = await world.endpoints.rotateSecret(admin, { endpointId: endpoint.id });
      assert.notEqual(rotated.secret, first);
      assert.equal(rotated.previousSecretValidUntil, NOW + 24 * 3600_000);
      // The current secret moved to the previous column in SQL, and opens there (one sealing context for both).
      assert.deepEqual(await openedSecrets(endpoint.id), [rotated.secret, first]);
      // Signed with both, as the worker does: a receiver holding either secret verifies (standardwebhooks).
      const body = '{"type":"company.changed","timestamp":"2026-11-21T09:00:00.000Z","data":{}}';
      const ts = Math.floor(Date.now() / 1000);
      const headers = {
        'webhook-id': 'evt_1',
        'webhook-timestamp': String(ts),
        'webhook-signature': signatureHeader([rotated.secret, first], 'evt_1', ts, body),
      };
      assert.deepEqual(new Webhook(first).verify(body, headers), JSON.parse(body));
      assert.deepEqual(new Webhook(rotated.secret).verify(body, headers), JSON.parse(body));
      const [view] = await world.endpoints.listEndpoints(admin, { memberId });
      assert.equal(view!.previousSecretValidUntil, NOW + 24 * 3600_000);
      // Rotating again within the day: the newest old secret is the previous one.
      const again = await world.endpoints.rotateSecret(admin, { endpointId: endpoint.id });
      assert.deepEqual(await openedSecrets(endpoint.id), [again.secret, rotated.secret]);
    });

    test('who may: the admin manages; a member_user, an operator, a job may not; another member sees nothing', async () => {
      const { admin, user, memberId } = await world.member('WH-WHO');
      const other = await world.member('WH-OTHER');
      const { endpoint } = await world.endpoints.registerEndpoint(admin, { url: 'https://hooks.example.com/who' });
      const operator = { kind: 'operator', userId: 1 } as const;
      const job = { kind: 'system', job: 'test' } as const;
      for (const actor of [user, operator, job]) {
        assert.deepEqual((await refusal(world.endpoints.registerEndpoint(actor, { url: 'https://hooks.example.com/x' }))).codes, ['webhook.admin_only']);
        assert.deepEqual((await refusal(world.endpoints.rotateSecret(actor, { endpointId: endpoint.id }))).codes, ['webhook.admin_only']);
        assert.deepEqual((await refusal(world.endpoints.deleteEndpoint(actor, { endpointId: endpoint.id }))).codes, ['webhook.admin_only']);
        assert.deepEqual((await refusal(world.deliveries.sendTestEvent(actor, { endpointId: endpoint.id }))).codes, ['webhook.admin_only']);
      }
      assert.equal((await world.endpoints.listEndpoints(operator, { memberId })).length, 1, 'an operator may read');
      assert.deepEqual((await refusal(world.endpoints.listEndpoints(user, { memberId }))).codes, ['webhook.admin_only']);
      for (const attempt of [
        () => world.endpoints.rotateSecret(other.admin, { endpointId: endpoint.id }),
        () => world.endpoints.deleteEndpoint(other.admin, { endpointId: endpoint.id }),
        () => world.endpoints.enableEndpoint(other.admin, { endpointId: endpoint.id }),
        () => world.deliveries.sendTestEvent(other.admin, { endpointId: endpoint.id }),
        () => world.deliveries.listDeliveries(other.admin, { endpointId: endpoint.id }),
      ]) {
        const refused = await refusal(attempt());
        assert.deepEqual(
          [refused.kind, refused.codes, refused.message],
          ['not_found', ['webhook.endpoint_not_found'], `there is no endpoint ${endpoint.id} of your member`],
        );
      }
      assert.deepEqual((await refusal(world.endpoints.listEndpoints(other.admin, { memberId }))).codes, ['member.not_found_by_id']);
      assert.deepEqual((await refusal(world.endpoints.rotateSecret(admin, { endpointId: 999_999 }))).codes, ['webhook.endpoint_not_found']);
    });

    test('an endpoint disabled by its receiver is enabled again only if its address still passes', async () => {
      const { admin } = await world.member('WH-ENABLE');
      world.dns.set('moving.example.com', ['93.184.216.34']);
      const { endpoint } = await world.endpoints.registerEndpoint(admin, { url: 'https://moving.example.com/in' });
      await database.engine.db
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_reason: 'The endpoint answered 410 Gone.', disabled_at: NOW })
        .where('id', '=', endpoint.id)
        .execute();
      assert.deepEqual((await refusal(world.deliveries.sendTestEvent(admin, { endpointId: endpoint.id }))).codes, ['webhook.endpoint_disabled']);
      world.dns.set('moving.example.com', ['192.168.1.20']);
      assert.deepEqual((await refusal(world.endpoints.enableEndpoint(admin, { endpointId: endpoint.id }))).codes, ['webhook.address_refused']);
      world.dns.set('moving.example.com', ['93.184.216.34']);
      const enabled = await world.endpoints.enableEndpoint(admin, { endpointId: endpoint.id });
      assert.deepEqual([enabled.status, enabled.disabledReason], ['enabled', null]);
    });
  });
}
