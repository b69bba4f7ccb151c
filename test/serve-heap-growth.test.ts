/**
 * Issue 28: `serve` runs with V8's heap growth at 50 % past the live size unless the operator
 * sets another (`--heap-growth`, RISKLOOKUP_HEAP_GROWTH_PERCENT; 0: V8's own). Seen from outside
 * the process: V8 prints the factor of every new heap limit under `--trace-gc-verbose`, and a heap
 * snapshot (`--heapsnapshot-signal`) makes it collect, and so set a limit, while the server runs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startServe } from './helpers/cli.ts';

const LIMIT = /\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \((\d+\.\d)\)/g;

/** The growth factors of the heap limits V8 set after the server said it listens, once a snapshot's collections made some. */
async function factorsWhileServing(url: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-heap-'));
  // The snapshot is written where the process runs.
  const server = await startServe(['--db', url, ...args], env, { node: ['--trace-gc-verbose', '--heapsnapshot-signal=SIGUSR2'], cwd: dir });
  try {
    const listened = server.stdout().indexOf('listening on');
    server.signal('SIGUSR2');
    const started = Date.now();
    for (;;) {
      const factors = [...server.stdout().slice(listened).matchAll(LIMIT)].map((m) => m[1]!);
      if (factors.length > 0 && readdirSync(dir).some((f) => f.endsWith('.heapsnapshot'))) return factors;
      assert.ok(Date.now() - started < 30_000, `no heap limit set after the snapshot: ${server.stdout().slice(listened, listened + 2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// The setting is the process's, whatever the database: SQLite alone (four server starts, each with a heap snapshot).
for (const engine of ENGINES.filter((e) => e.name === 'sqlite')) {
  describe(`serve: V8's heap growth [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('by default the heap may grow 50 % past its live size before the next full collection', async () => {
      const factors = await factorsWhileServing(database.url, {});
      assert.deepEqual(new Set(factors), new Set(['1.5']), `factors: ${factors.join(', ')}`);
    });

    test('an operator sets another growth by flag or environment, or leaves V8 its own with 0', async () => {
      const byFlag = await factorsWhileServing(database.url, {}, ['--heap-growth', '120']);
      assert.deepEqual(new Set(byFlag), new Set(['2.2']), `factors: ${byFlag.join(', ')}`);
      const byEnv = await factorsWhileServing(database.url, { RISKLOOKUP_HEAP_GROWTH_PERCENT: '80' });
      assert.deepEqual(new Set(byEnv), new Set(['1.8']), `factors: ${byEnv.join(', ')}`);
      // V8's own: a snapshot's collections reduce memory (its least factor, 1.1), none at 1.5.
      const own = await factorsWhileServing(database.url, {}, ['--heap-growth', '0']);
      assert.ok(!own.includes('1.5'), `factors: ${own.join(', ')}`);
    });
  });
}
