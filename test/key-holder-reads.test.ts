/**
 * The key look-ups of one turn shared (src/keys/key-holder-reads.ts, issue 28): on PostgreSQL the
 * requests that arrive in one turn of the event loop read their keys in one statement; each gets
 * its own holder as a look-up of its own would, an unknown key none, and nothing is cached: a key
 * revoked, a member suspended or a unit taken by anyone before a turn is seen by that turn (D17,
 * D18). On SQLite the turn's first look-up of a key runs at once, and the turn's others of the same
 * key share it; the next turn reads again.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { createKeyHolderReads } from '../src/keys/key-holder-reads.ts';
import { digestApiKey } from '../src/keys/api-key.ts';
import { consumeUsage } from '../src/quota/usage.repository.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';

for (const engine of ENGINES) {
  describe(`key look-ups of a turn [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let keyA: string;
    let keyB: string;
    let taxId: string;
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => args.node,
      transformResult: (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
        statements++;
        return Promise.resolve(args.result);
      },
    };
    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      keyA = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-READS-A', dailyLimit: 50 });
      keyB = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-READS-B', dailyLimit: 50 });
      [taxId] = (await makeCompanies(database.engine, t.clock, [{ company_name: 'Okuma Deneme A.Ş.' }])) as [string];
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('one statement for a turn of look-ups; each its own holder, an unknown key none', async () => {
      const find = createKeyHolderReads(database.engine.db.withPlugin(counting));
      const day = quotaDayOf(t.clock.now());
      const unknown = digestApiKey(`rlk1${'0'.repeat(60)}`);
      statements = 0;
      const [a1, a2, b, none] = await Promise.all([
        find(digestApiKey(keyA), day),
        find(digestApiKey(keyA), day),
        find(digestApiKey(keyB), day),
        find(unknown, day),
      ]);
      // PostgreSQL: one statement for the turn; SQLite: one a key (A's second look-up shares the first).
      assert.equal(statements, engine.name === 'postgres' ? 1 : 3);
      assert.equal(a1?.memberRef, 'M-READS-A');
      assert.equal(b?.memberRef, 'M-READS-B');
      assert.equal(none, undefined);
      assert.notEqual(a1, a2, 'each request its own holder');
      assert.deepEqual(a1, a2);
      const usedBefore = a2!.usage.used;
      a1.usage.used = 999;
      assert.equal(a2!.usage.used, usedBefore, "one request's change to its holder is not another's");
      // A unit taken between two turns is seen by the next, which reads again.
      await new Promise((resolve) => setImmediate(resolve));
      await consumeUsage(database.engine.db, `member:${a1.memberId}`, day, 50);
      statements = 0;
      assert.equal((await find(digestApiKey(keyA), day))?.usage.used, usedBefore + 1);
      assert.equal(statements, 1);
    });

    test('a failed read fails the requests of its turn only; a turn across midnight reads each day', async () => {
      let fail = true;
      const failing: KyselyPlugin = {
        transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => args.node,
        transformResult: (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> =>
          fail ? Promise.reject(new Error('database unavailable')) : Promise.resolve(args.result),
      };
      const find = createKeyHolderReads(database.engine.db.withPlugin(failing).withPlugin(counting));
      const day = quotaDayOf(t.clock.now());
      const outcomes = await Promise.allSettled([find(digestApiKey(keyA), day), find(digestApiKey(keyA), day)]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected'],
      );
      fail = false;
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await find(digestApiKey(keyA), day))?.memberRef, 'M-READS-A', 'the next turn reads again');
      await new Promise((resolve) => setImmediate(resolve));
      statements = 0;
      const [today, tomorrow] = await Promise.all([find(digestApiKey(keyA), day), find(digestApiKey(keyA), '2099-01-01')]);
      assert.equal(today?.usage.day, day);
      assert.equal(tomorrow?.usage.day, '2099-01-01');
      assert.equal(tomorrow?.usage.used, 0, "the other day's own use");
      assert.equal(statements, 2, 'a statement a day');
    });

    test('concurrent searches of two members are answered, and a key revoked between two bursts is refused in the next', async () => {
      const burst = () =>
        Promise.all([
          ...Array.from({ length: 5 }, () => search(t.app, keyA, `q=${taxId}&type=tax_id&country=TR`)),
          ...Array.from({ length: 5 }, () => search(t.app, keyB, `q=${taxId}&type=tax_id&country=TR`)),
        ]);
      const first = await burst();
      assert.deepEqual(
        first.map((r) => r.statusCode),
        Array(10).fill(200),
      );
      await database.engine.db.updateTable('api_keys').set({ revoked_at: t.clock.now() }).where('digest', '=', digestApiKey(keyA)).execute();
      const second = await burst();
      assert.deepEqual(
        second.map((r) => r.statusCode),
        [...Array<number>(5).fill(403), ...Array<number>(5).fill(200)],
      );
      assert.equal(second[0]!.json<{ reason: string }>().reason, 'key_revoked');
    });
  });
}
