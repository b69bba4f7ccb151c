import { test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openEngine } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

// SQLite's rows are built in JavaScript from raw rows (connect.ts, rowsAsObjectLiterals): they
// must be exactly the objects better-sqlite3 itself makes, through every way Kysely reads them.

/** What better-sqlite3 itself returns for a statement, as the reference. */
function referenceRows(statement: string): unknown[] {
  const database = new SQLite(':memory:');
  try {
    return database.prepare(statement).all();
  } finally {
    database.close();
  }
}

const ROWS = `SELECT 1 AS n, 'ışık' AS s, NULL AS z, 2.5 AS f, x'00ff' AS b UNION ALL SELECT 2, '', 'a', -1, NULL`;

test('rows read through the engine equal better-sqlite3 objects: values, types, key order, plain prototype', async () => {
  const engine = openEngine('sqlite::memory:');
  try {
    const { rows } = await sql.raw(ROWS).execute(engine.db);
    assert.deepStrictEqual(rows, referenceRows(ROWS));
    assert.deepEqual(Object.keys(rows[0]!), ['n', 's', 'z', 'f', 'b']);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    // Each call gets new objects (a caller may change the rows it was given).
    const again = await sql.raw(ROWS).execute(engine.db);
    assert.notEqual(again.rows[0], rows[0]);
  } finally {
    await engine.close();
  }
});

test('a column name repeated, quoted or named __proto__ reads as better-sqlite3 reads it', async () => {
  const engine = openEngine('sqlite::memory:');
  try {
    for (const statement of [
      `SELECT 1 AS a, 2 AS a`,
      `SELECT 'q' AS "it's ""quoted""", 3 AS "\\u2028 line", 4 AS "}"`,
      `SELECT 5 AS "__proto__", 6 AS x`,
      `SELECT 7 AS constructor, 8 AS toString`,
    ]) {
      const { rows } = await sql.raw(statement).execute(engine.db);
      assert.deepStrictEqual(rows, referenceRows(statement), statement);
    }
  } finally {
    await engine.close();
  }
});

test('streamed rows, writes with RETURNING and plain writes work as before', async () => {
  const engine = openEngine('sqlite::memory:');
  try {
    await migrateToLatest(engine);
    const inserted = await engine.db
      .insertInto('usage_counters')
      .values([
        { subject: 'a', day: 'd', used: 1 },
        { subject: 'b', day: 'd', used: 2 },
      ])
      .returning(['subject', 'used'])
      .execute();
    assert.deepStrictEqual(inserted, [
      { subject: 'a', used: 1 },
      { subject: 'b', used: 2 },
    ]);
    const updated = await engine.db.updateTable('usage_counters').set({ used: 9 }).where('subject', '=', 'b').executeTakeFirstOrThrow();
    assert.equal(updated.numUpdatedRows, 1n);
    const streamed = [];
    for await (const row of engine.db.selectFrom('usage_counters').select(['subject', 'used']).orderBy('subject').stream()) streamed.push(row);
    assert.deepStrictEqual(streamed, [
      { subject: 'a', used: 1 },
      { subject: 'b', used: 9 },
    ]);
  } finally {
    await engine.close();
  }
});
