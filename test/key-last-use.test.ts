/**
 * A key's "last used" day (the portal's API page) is recorded before its first answer of the day
 * is sent (src/keys/key-last-use.ts): a member who has the answer and opens the page never reads
 * "never" beside "Used today 1 / 100". On both engines, through the real app.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';

for (const engine of ENGINES) {
  describe(`a key's last use, recorded before its answer is sent [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Sonkullanım Lojistik A.Ş.' }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const lastUsedDay = async (prefix: string) =>
      (await database.engine.db.selectFrom('api_keys').select('last_used_day').where('prefix', '=', prefix).executeTakeFirstOrThrow()).last_used_day;

    test("each new key's first answer: once it is in hand, the key shows as used today", async () => {
      const day = quotaDayOf(t.clock.now());
      for (let i = 0; i < 12; i++) {
        const key = await makeKeyHolder(database.engine.db, t.clock, { ref: `M-LAST-${i}` });
        // Several answers at once, the first of the key's day among them.
        const answers = await Promise.all([1, 2, 3].map(() => search(t.app, key, 'q=Sonkullanım')));
        assert.deepEqual(
          answers.map((a) => a.statusCode),
          [200, 200, 200],
        );
        assert.equal(await lastUsedDay(key.slice(0, 8)), day, `key ${i}`);
      }
    });

    if (engine.name === 'postgres') {
      test("while the key's row is locked by another transaction, its first answer of the day waits for the record", async () => {
        const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-LAST-LOCKED' });
        const day = quotaDayOf(t.clock.now());
        let answered = false;
        let pending: Promise<{ statusCode: number }> | undefined;
        await database.engine.db.transaction().execute(async (trx) => {
          await sql`SELECT 1 FROM api_keys WHERE prefix = ${key.slice(0, 8)} FOR UPDATE`.execute(trx);
          pending = search(t.app, key, 'q=Sonkullanım').then((a) => ((answered = true), a));
          await new Promise((resolve) => setTimeout(resolve, 300));
          assert.equal(answered, false, 'answered before its last use was recorded');
        });
        // The lock is gone with the transaction: the record is written, then the answer sent.
        assert.equal((await pending!).statusCode, 200);
        assert.equal(await lastUsedDay(key.slice(0, 8)), day);
      });
    }
  });
}
