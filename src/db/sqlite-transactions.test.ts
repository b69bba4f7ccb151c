/**
 * On SQLite, a transaction takes the write lock when it begins (BEGIN IMMEDIATE): a CLI command
 * that reads and then writes, while a server commits quota and audit rows, must wait for the
 * lock rather than fail with SQLITE_BUSY half-way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openEngine } from './connect.ts';

test('a Kysely transaction on SQLite holds the write lock from its first statement', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlk-trx-'));
  const engine = openEngine(`sqlite:${join(dir, 'db.sqlite')}`);
  try {
    await sql`CREATE TABLE t (x INTEGER)`.execute(engine.db);
    const other = new SQLite(join(dir, 'db.sqlite'), { timeout: 0 });
    await engine.db.transaction().execute(async (trx) => {
      // Only a read so far; a deferred transaction would not hold any lock yet.
      await sql`SELECT count(*) FROM t`.execute(trx);
      assert.throws(() => other.exec('INSERT INTO t VALUES (1)'), /SQLITE_BUSY|database is locked/);
      await sql`INSERT INTO t VALUES (2)`.execute(trx);
    });
    other.exec('INSERT INTO t VALUES (3)');
    assert.deepEqual(other.prepare('SELECT x FROM t ORDER BY x').pluck().all(), [2, 3]);
    other.close();
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
