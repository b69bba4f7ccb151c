/**
 * A serving process's SQLite checkpoints run in a thread of their own (db/sqlite-checkpointer.ts):
 * the serving connection no longer copies the log back at every 1,000 pages on its event loop
 * (issue 30: ~20–25 ms of it about every second at 1,000 searches a second). SQLite only: PostgreSQL's checkpoints are the database server's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openEngine } from '../src/db/connect.ts';
import { SERVING_CHECKPOINT_PAGES } from '../src/db/sqlite-checkpointer.ts';

test("a serving SQLite engine's checkpoints are made by their own thread", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-checkpoints-'));
  const path = join(dir, 'db.sqlite');
  const engine = openEngine(`sqlite:${path}`, { yieldWhenBusy: true, backgroundCheckpoints: true });
  try {
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(engine.db);
    assert.equal(rows[0]!.wal_autocheckpoint, SERVING_CHECKPOINT_PAGES, "the serving connection's own threshold is only a fallback");
    await sql`CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)`.execute(engine.db);
    // ~3,000 pages of 4 KB in 60 commits, as a server's writes come: more than SQLite's own
    // threshold (1,000) would let the serving connection write before it checkpointed.
    const body = 'x'.repeat(3900);
    for (let batch = 0; batch < 60; batch++) {
      await engine.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 50; i++) await sql`INSERT INTO filler (body) VALUES (${body})`.execute(trx);
      });
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    // The thread checkpoints every 250 ms: on a loaded machine give it a few seconds.
    let checkpoints = 0;
    for (const deadline = Date.now() + 5000; checkpoints === 0 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      checkpoints = (await engine.checkpoints?.()) ?? 0;
    }
    assert.ok(checkpoints > 0, "the thread's checkpoints copied the log into the database");
    const { rows: count } = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(engine.db);
    assert.equal(count[0]!.n, 3000);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an engine without background checkpoints (operator commands) keeps SQLite’s own threshold and has no thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-checkpoints-'));
  const engine = openEngine(`sqlite:${join(dir, 'db.sqlite')}`);
  try {
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(engine.db);
    assert.equal(rows[0]!.wal_autocheckpoint, 1000);
    assert.equal('checkpoints' in engine, false, 'no checkpoints thread');
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a checkpoints thread never keeps its process alive, even when nobody stops it', async () => {
  // A path that forgot engine.close() must not hang the process (a worker's 'message' listener
  // re-references the thread's port, so the thread is unreferenced after its listeners are set).
  const dir = mkdtempSync(join(tmpdir(), 'rl-checkpoints-'));
  const module = new URL('../src/db/sqlite-checkpointer.ts', import.meta.url).href;
  const script = `
    import Database from 'better-sqlite3';
    import { startCheckpointer } from ${JSON.stringify(module)};
    const path = ${JSON.stringify(join(dir, 'db.sqlite'))};
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.close();
    const checkpointer = startCheckpointer(path, (error) => { console.error(error); process.exit(2); });
    console.log('checkpoints', await checkpointer.checkpoints());
  `;
  try {
    const { spawnSync } = await import('node:child_process');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(child.signal, null, `the process exited by itself (it was killed after 20 s: ${child.stderr})`);
    assert.equal(child.status, 0, child.stderr);
    assert.match(child.stdout, /^checkpoints 0$/m, 'the thread answered before the process ended');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
