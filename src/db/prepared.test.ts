import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openEngine } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { preparedQuery } from './prepared.ts';

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
