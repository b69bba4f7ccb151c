import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openEngine } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { powerOfTwoRuns, preparedQuery } from './prepared.ts';

test('a prepared query runs with new values each call, and per shape', async () => {
  const engine = openEngine('sqlite::memory:');
  await migrateToLatest(engine);
  await engine.db
    .insertInto('usage_counters')
    .values([
      { subject: 'a', day: 'd', used: 1 },
      { subject: 'b', day: 'd', used: 2 },
      { subject: 'c', day: 'e', used: 3 },
    ])
    .execute();
  const bySubjects = preparedQuery(
    (db, p, count: number) =>
      db
        .selectFrom('usage_counters')
        .select('used')
        .where(
          'subject',
          'in',
          Array.from({ length: count }, (_, i) => p(i)),
        )
        .orderBy('used'),
    (count) => String(count),
  );
  assert.deepEqual(await bySubjects(engine.db, ['a'], 1), [{ used: 1 }]);
  assert.deepEqual(await bySubjects(engine.db, ['b'], 1), [{ used: 2 }]);
  assert.deepEqual(await bySubjects(engine.db, ['c', 'a'], 2), [{ used: 1 }, { used: 3 }]);
  await engine.close();
});

test('a prepared query is built once for the database and every transaction of it', async () => {
  const engine = openEngine('sqlite::memory:');
  await migrateToLatest(engine);
  let built = 0;
  const insert = preparedQuery((db, p) => {
    built++;
    return db.insertInto('usage_counters').values({ subject: p(0), day: p(1), used: 1 });
  });
  await insert(engine.db, ['a', 'd']);
  await engine.db.transaction().execute((trx) => insert(trx, ['b', 'd']));
  await engine.db.transaction().execute((trx) => insert(trx, ['c', 'd']));
  assert.equal(built, 1);
  const rows = await engine.db.selectFrom('usage_counters').select('subject').orderBy('subject').execute();
  assert.deepEqual(
    rows.map((r) => r.subject),
    ['a', 'b', 'c'],
  );
  await engine.close();
});

test('a database with a plugin runs the query as its plugin transforms it, not as compiled without it', async () => {
  const engine = openEngine('sqlite::memory:');
  await migrateToLatest(engine);
  await engine.db.insertInto('usage_counters').values({ subject: 'a', day: 'd', used: 1 }).execute();
  const used = preparedQuery((db, p) => db.selectFrom('usage_counters').select('used').where('subject', '=', p(0)));
  assert.deepEqual(await used(engine.db, ['a']), [{ used: 1 }]);
  const refusing = engine.db.withPlugin({
    transformQuery() {
      throw new Error('connection lost');
    },
    transformResult: ({ result }) => Promise.resolve(result),
  });
  await assert.rejects(used(refusing, ['a']), /connection lost/);
  await assert.rejects(
    refusing.transaction().execute((trx) => used(trx, ['a'])),
    /connection lost/,
  );
  assert.deepEqual(await used(engine.db, ['a']), [{ used: 1 }]);
  await engine.close();
});

test('runs of power-of-two lengths, longest first, keep every item in order', () => {
  const items = Array.from({ length: 13 }, (_, i) => i);
  const runs = powerOfTwoRuns(items);
  assert.deepEqual(
    runs.map((r) => r.length),
    [8, 4, 1],
  );
  assert.deepEqual(runs.flat(), items);
  assert.deepEqual(powerOfTwoRuns([]), []);
  assert.deepEqual(
    powerOfTwoRuns(Array.from({ length: 200 }, (_, i) => i)).map((r) => r.length),
    [128, 64, 8],
  );
});
