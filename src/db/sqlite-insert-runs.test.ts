/**
 * SQLite's bulk inserts, many rows a statement (bulk-writer.ts, issue 28): every row stored once,
 * in order, and the ids returned are each row's own, whatever the chunk's length and whatever
 * ids the table gave before (AUTOINCREMENT continues after the largest ever given).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { insertRows, insertRuns } from './bulk-writer.ts';

test('runs: 64 rows at a time, the rest in powers of two, in order', () => {
  const lengths = (n: number) => insertRuns(Array.from({ length: n }, (_, i) => i)).map((r) => r.length);
  assert.deepEqual(lengths(0), []);
  assert.deepEqual(lengths(1), [1]);
  assert.deepEqual(lengths(63), [32, 16, 8, 4, 2, 1]);
  assert.deepEqual(lengths(64), [64]);
  assert.deepEqual(lengths(200), [64, 64, 64, 8]);
  assert.deepEqual(
    insertRuns(Array.from({ length: 200 }, (_, i) => i)).flat(),
    Array.from({ length: 200 }, (_, i) => i),
  );
});

test('rows inserted a run a statement: each id is its own row, after ids given and deleted before', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, note TEXT)');
  db.exec("INSERT INTO t (name) VALUES ('before 1'), ('before 2'), ('before 3')");
  db.exec('DELETE FROM t WHERE id = 3');
  const prepared = new Map<number, Database.Statement>();
  const statementFor = (rows: number) => {
    let statement = prepared.get(rows);
    if (!statement) {
      statement = db.prepare(`INSERT INTO t (name, note) VALUES ${Array<string>(rows).fill('(?, ?)').join(', ')}`);
      prepared.set(rows, statement);
    }
    return statement;
  };
  const byId = db.prepare<[number], { name: string; note: string | null }>('SELECT name, note FROM t WHERE id = ?');
  for (const n of [1, 63, 64, 65, 200, 0, 7]) {
    const rows = Array.from({ length: n }, (_, i) => ({ name: `chunk ${n} row ${i}`, note: i % 3 === 0 ? undefined : `note ${i}` }));
    const ids = insertRows(statementFor, ['name', 'note'], rows);
    assert.equal(ids.length, n);
    rows.forEach((row, i) => assert.deepEqual({ ...byId.get(ids[i]!) }, { name: row.name, note: row.note ?? null }, `chunk ${n}, row ${i}`));
  }
  assert.equal(byId.get(3), undefined, 'a deleted id is not given again');
  assert.equal((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 2 + 1 + 63 + 64 + 65 + 200 + 7);
  assert.ok(prepared.size <= 7, `at most seven statements (${[...prepared.keys()].join(', ')})`);
});

test('the ids are right when an insert trigger writes other AUTOINCREMENT and FTS5 tables (a helper review)', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
    CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, tid INTEGER);
    CREATE VIRTUAL TABLE f USING fts5(name);
    INSERT INTO log (tid) VALUES (0), (0), (0), (0), (0), (0), (0), (0), (0), (0);
    CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
      INSERT INTO log (tid) VALUES (new.id); INSERT INTO log (tid) VALUES (new.id); INSERT INTO f (rowid, name) VALUES (new.id * 1000, new.name);
    END;`);
  const statementFor = (rows: number) => db.prepare(`INSERT INTO t (name) VALUES ${Array<string>(rows).fill('(?)').join(', ')}`);
  const rows = Array.from({ length: 200 }, (_, i) => ({ name: `n${i}` }));
  const ids = insertRows(statementFor, ['name'], rows);
  const byId = db.prepare<[number], { name: string }>('SELECT name FROM t WHERE id = ?');
  rows.forEach((row, i) => assert.equal(byId.get(ids[i]!)?.name, row.name, `row ${i}`));
  assert.equal(new Set(ids).size, 200);
});
