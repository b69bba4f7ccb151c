/** `risklookup copy`: a whole installation moves from SQLite to each engine and answers the same. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search } from './helpers/app.ts';
import { runCli } from './helpers/cli.ts';
import { countries } from './helpers/factories.ts';
import { readJson, type SearchBody } from './helpers/bodies.ts';
import { countAllTables } from '../src/db/copy.ts';
import { prepareDemo } from '../src/demo/demo.service.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { NOON_TR } from './helpers/app.ts';
import { enqueue, makeEvent, webhookWorld } from './helpers/webhooks.ts';
import { setReportStatus } from './helpers/use-cases.ts';

const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;

for (const engine of ENGINES) {
  describe(`copy sqlite → ${engine.name}`, () => {
    let source: TestDatabase;
    let target: TestDatabase;
    let key: string;

    before(async () => {
      source = await sqlite.create();
      target = await engine.create();
      const clock = fixedClock(NOON_TR);
      await prepareDemo(source.engine, clock, countries, 100);
      key = (await issueKey(source.engine.db, clock, 'M-1001', 100)).key;
      await setReportStatus({ db: source.engine.db, clock }, { kind: 'cli', user: 'test' }, { idOrRef: 'D-26', to: 'approved' });
      // Usage and audit rows to carry over.
      const app = await makeTestApp(source);
      for (const q of ['q=demir', 'q=Marmara', 'q=ab']) await search(app.app, key, q);
      await app.close();
      // A webhook endpoint with a delivery to carry over, its secret still sealed.
      const world = webhookWorld(source.engine.db, 'sqlite', clock, { allowPrivate: true });
      const { admin, memberId } = await world.member('M-HOOKS');
      await world.endpoints.registerEndpoint(admin, { url: 'https://127.0.0.1:9/hook' });
      await enqueue(source.engine.db, world, memberId, [makeEvent(clock)]);
    });
    after(async () => {
      await source?.drop();
      await target?.drop();
    });

    test('copies every table, verified by counts, and the service answers the same', async () => {
      const result = await runCli(['copy', '--from', source.url, '--to', target.url, '--json']);
      assert.equal(result.code, 0, result.stderr);
      const { counts } = readJson<{ counts: Record<string, number> }>(result.stdout);
      const expected = await countAllTables(source.engine.db);
      assert.deepEqual(counts, expected);
      assert.ok(expected.audit_log >= 3 && expected.usage_counters >= 1 && expected.report_status_changes > 30);
      assert.deepEqual([expected.webhook_endpoints, expected.webhook_deliveries], [1, 1]);
      const sealed = (db: typeof source.engine.db) => db.selectFrom('webhook_endpoints').select('secret_sealed').executeTakeFirstOrThrow();
      assert.deepEqual(await sealed(target.engine.db), await sealed(source.engine.db), 'the sealed secret as it was: the same key ring opens it');

      const before = await makeTestApp(source);
      const afterCopy = await makeTestApp(target);
      try {
        for (const q of ['q=demir', 'q=Marmara', 'q=Karadeniz', 'q=Akdeniz', 'type=tax_id&q=DE136695976']) {
          const a = (await search(before.app, key, q)).json<SearchBody>();
          const b = (await search(afterCopy.app, key, q)).json<SearchBody>();
          assert.deepEqual(b.results, a.results, q);
          assert.equal(b.meta.queries_used_today, a.meta.queries_used_today, `${q}: the day's usage came along`);
        }
        // New rows get fresh ids after the copied ones.
        const issued = await issueKey(target.engine.db, fixedClock(NOON_TR), 'M-1002', 100);
        assert.match(issued.key, /^rlk1/);
      } finally {
        await before.close();
        await afterCopy.close();
      }
    });

    test('refuses a target that already holds data', async () => {
      const result = await runCli(['copy', '--from', source.url, '--to', target.url]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /is not empty .*copy needs a new, empty database/);
    });
  });
}
