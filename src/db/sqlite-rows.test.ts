import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openEngine } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

// SQLite's rows are built in JavaScript from raw rows (connect.ts, rowsAsObjectLiterals): they
// must be exactly the objects better-sqlite3 itself makes, through every way Kysely reads them.

/** What better-sqlite3 itself returns for a statement, as the reference. */
function referenceRows(statement: string, path = ':memory:'): unknown[] {
  const database = new SQLite(path);
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
      `SELECT 'q' AS "it's ""quoted""", 3 AS "\u2028 line \u2029", 4 AS "}", 5 AS "", 6 AS "1", 7 AS "01"`,
      `SELECT 5 AS "__proto__", 6 AS x`,
      `SELECT 7 AS constructor, 8 AS toString`,
    ]) {
      const { rows } = await sql.raw(statement).execute(engine.db);
      assert.deepStrictEqual(rows, referenceRows(statement), statement);
    }
    // A BLOB named __proto__: Node 20's better-sqlite3 makes it the row's prototype (the last
    // one when the name repeats), newer ones a property; either way the same as the driver.
    for (const statement of [
      `SELECT x'0102' AS "__proto__", 6 AS x`,
      `SELECT x'01' AS "__proto__", 2 AS "__proto__", x'03' AS "__proto__", 4 AS x`,
      `SELECT x'0102' AS "__proto__", 5 AS length, 6 AS "0"`,
    ]) {
      const { rows } = await sql.raw(statement).execute(engine.db);
      const [reference] = referenceRows(statement) as object[];
      const row = rows[0] as object;
      assert.deepEqual(Object.getOwnPropertyNames(row), Object.getOwnPropertyNames(reference), statement);
      for (const name of Object.getOwnPropertyNames(reference))
        assert.deepStrictEqual(Object.getOwnPropertyDescriptor(row, name), Object.getOwnPropertyDescriptor(reference, name), statement);
      const [proto, referenceProto] = [Object.getPrototypeOf(row) as object, Object.getPrototypeOf(reference) as object];
      if (referenceProto === Object.prototype) assert.equal(proto, Object.prototype, statement);
      else assert.deepEqual([...(proto as Buffer)], [...(referenceProto as Buffer)], statement);
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

test('after another process changes the schema, a cached SELECT * reads the new columns under their own names', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-rows-'));
  const path = join(dir, 'rows.db');
  const engine = openEngine(`sqlite:${path}`);
  const other = new SQLite(path);
  try {
    other.exec(`CREATE TABLE t (a INTEGER, b TEXT, c INTEGER); INSERT INTO t VALUES (1, 'b', 3)`);
    const read = async () => (await sql.raw('SELECT * FROM t').execute(engine.db)).rows;
    assert.deepStrictEqual(await read(), [{ a: 1, b: 'b', c: 3 }]);
    // Same number of columns, other names: only the names can tell.
    other.exec(`ALTER TABLE t DROP COLUMN b; ALTER TABLE t ADD COLUMN d TEXT DEFAULT 'd'`);
    assert.deepStrictEqual(await read(), referenceRows('SELECT * FROM t', path));
    assert.deepStrictEqual(await read(), [{ a: 1, c: 3, d: 'd' }]);
    other.exec(`ALTER TABLE t ADD COLUMN e INTEGER DEFAULT 5`);
    const streamed = [];
    for await (const row of engine.db
      .selectFrom('t' as never)
      .selectAll()
      .stream())
      streamed.push(row);
    assert.deepStrictEqual(streamed, [{ a: 1, c: 3, d: 'd', e: 5 }]);
  } finally {
    other.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a statement that lists its columns reads the same rows across a schema change; a * behind a comment is still a *', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-rows-'));
  const path = join(dir, 'rows.db');
  const engine = openEngine(`sqlite:${path}`);
  const other = new SQLite(path);
  try {
    other.exec(`CREATE TABLE t (a INTEGER, b TEXT, c INTEGER); INSERT INTO t VALUES (1, 'b', 3)`);
    const listed = async () => (await sql.raw('/* kept prepared */ SELECT c, a AS "x", a + c FROM t').execute(engine.db)).rows;
    const star = async () => (await sql.raw('/* kept prepared */ SELECT * FROM t').execute(engine.db)).rows;
    assert.deepStrictEqual(await listed(), [{ c: 3, x: 1, 'a + c': 4 }]);
    assert.deepStrictEqual(await star(), [{ a: 1, b: 'b', c: 3 }]);
    other.exec(`ALTER TABLE t DROP COLUMN b; ALTER TABLE t ADD COLUMN d TEXT DEFAULT 'd'`);
    assert.deepStrictEqual(await listed(), referenceRows('/* kept prepared */ SELECT c, a AS "x", a + c FROM t', path));
    assert.deepStrictEqual(await listed(), [{ c: 3, x: 1, 'a + c': 4 }]);
    assert.deepStrictEqual(await star(), [{ a: 1, c: 3, d: 'd' }]);
  } finally {
    other.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
