import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { openEngine, type Engine } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { startSqliteReader, type SqliteReader } from './sqlite-reader.ts';

// SQLite's reading thread (sqlite-reader.ts): what its statements answer must be exactly what the
// serving connection answers, it must never write, and a statement is never lost when the thread
// stops.

const ROWS = `SELECT 1 AS n, 'ışık' AS s, NULL AS z, 2.5 AS f, x'00ff' AS b UNION ALL SELECT 2, '', 'a', -1, NULL`;

describe("SQLite's reading thread", () => {
  let dir: string;
  let path: string;
  let engine: Engine;
  let reader: SqliteReader;
  const errors: Error[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'risklookup-reader-'));
    path = join(dir, 'test.db');
    engine = openEngine(`sqlite:${path}`);
    await migrateToLatest(engine);
    await sql`CREATE TABLE reader_probe (x INTEGER)`.execute(engine.db);
    await sql`INSERT INTO reader_probe VALUES (1)`.execute(engine.db);
    reader = startSqliteReader(path, engine.db, (error) => errors.push(error));
  });
  const probeRows = async (db: Engine['db']) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM reader_probe`.execute(db)).rows[0]!.n);
  after(async () => {
    await reader.stop();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("its rows equal the serving connection's: values, types (blobs as Buffers), key order, plain prototype", async () => {
    const mine = await sql.raw(ROWS).execute(reader.db);
    const serving = await sql.raw(ROWS).execute(engine.db);
    assert.deepStrictEqual(mine.rows, serving.rows);
    assert.deepEqual(Object.keys(mine.rows[0]!), ['n', 's', 'z', 'f', 'b']);
    assert.ok(Buffer.isBuffer((mine.rows[0] as { b: unknown }).b));
    assert.equal(Object.getPrototypeOf(mine.rows[0]), Object.prototype);
    // No rows: an empty list.
    assert.deepEqual((await sql.raw('SELECT 1 AS n WHERE 0').execute(reader.db)).rows, []);
    assert.ok(reader.answered() >= 2 && reader.running());
  });

  test('it sees what the serving connection committed, by the next statement', async () => {
    const before = await probeRows(reader.db);
    await sql`INSERT INTO reader_probe VALUES (2)`.execute(engine.db);
    assert.equal(await probeRows(reader.db), before + 1);
  });

  test('statements sent at once each get their own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => sql<{ v: number }>`SELECT ${i} * 2 AS v`.execute(reader.db)));
    assert.deepEqual(
      answers.map((a) => a.rows[0]!.v),
      Array.from({ length: 200 }, (_, i) => i * 2),
    );
  });

  test('a statement that would write is refused, and nothing is written', async () => {
    const before = await probeRows(engine.db);
    await assert.rejects(sql`DELETE FROM reader_probe`.execute(reader.db), /reading thread runs statements that return rows only/);
    // query_only: not even a write that returns rows.
    await assert.rejects(sql`DELETE FROM reader_probe RETURNING x`.execute(reader.db), /readonly|attempt to write/i);
    await assert.rejects(
      reader.db.transaction().execute(() => Promise.resolve()),
      /no transactions/,
    );
    assert.equal(await probeRows(engine.db), before);
  });

  test("a statement's error is SQLite's, with its code", async () => {
    await assert.rejects(sql`SELECT * FROM no_such_table`.execute(reader.db), (error: Error & { code?: string }) => {
      assert.match(error.message, /no such table: no_such_table/);
      assert.equal(error.code, 'SQLITE_ERROR');
      return true;
    });
    // The thread goes on.
    assert.equal((await sql<{ v: number }>`SELECT 7 AS v`.execute(reader.db)).rows[0]!.v, 7);
    assert.deepEqual(errors, []);
  });
});

test('the thread stopped: waiting and later statements run on the serving connection, none lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-reader-'));
  const path = join(dir, 'test.db');
  const engine = openEngine(`sqlite:${path}`);
  const errors: Error[] = [];
  try {
    await migrateToLatest(engine);
    const reader = startSqliteReader(path, engine.db, (error) => errors.push(error));
    // Sent, then the thread ends as a crash would end it, before or while it answers them.
    const waiting = Array.from({ length: 50 }, (_, i) => sql<{ v: number }>`SELECT ${i} AS v`.execute(reader.db));
    await reader.terminate();
    assert.deepEqual(
      (await Promise.all(waiting)).map((a) => a.rows[0]!.v),
      Array.from({ length: 50 }, (_, i) => i),
    );
    assert.equal(reader.running(), false);
    assert.match(errors.map((e) => e.message).join('\n'), /reading thread ended/);
    assert.equal((await sql<{ v: number }>`SELECT 8 AS v`.execute(reader.db)).rows[0]!.v, 8);
    await reader.stop();
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the thread never keeps a process alive by itself: idle, or never stopped, the process ends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-reader-'));
  try {
    const module = JSON.stringify(new URL('./sqlite-reader.ts', import.meta.url).href);
    const connect = JSON.stringify(new URL('./connect.ts', import.meta.url).href);
    const path = JSON.stringify(join(dir, 'test.db'));
    // Started and left (the serving connection closed, the thread not stopped); started, used and left.
    for (const use of ['', "await (await import('kysely')).sql`SELECT 1 AS v`.execute(reader.db);"]) {
      const code = `const { startSqliteReader } = await import(${module}); const { openEngine } = await import(${connect});
        const engine = openEngine('sqlite:' + ${path}); const reader = startSqliteReader(${path}, engine.db, () => {});
        ${use} await engine.close(); console.log('done');`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(child.signal, null, `the process did not end by itself (${use || 'idle'})`);
      assert.equal(child.status, 0, child.stderr);
      assert.match(child.stdout, /done/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
