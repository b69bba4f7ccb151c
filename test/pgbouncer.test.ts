/**
 * Behind PgBouncer (docs/operations.md, RISKLOOKUP_DB_POOLER, src/db/pooler.ts), tried for real
 * with Debian's `pgbouncer` (.ci/run installs it; in CI a missing one fails this file instead of
 * skipping it):
 * - in session mode the server connects only when told (`session`): PgBouncer refuses the
 *   statement timeout as a startup parameter, so the server sets it on each connection; the
 *   import's COPY finds its connection behind the pooler;
 * - in transaction mode what a server sets on its connection reaches the next client given that
 *   connection, so told `transaction` it sets nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeClaimants, makeCompanies, makeReport } from './helpers/factories.ts';
import { openEngine, type Engine } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { preparedQuery } from '../src/db/prepared.ts';
import { fixedClock } from '../src/lib/clock.ts';
import type { Pooler } from '../src/db/pooler.ts';

const installed = spawnSync('pgbouncer', ['--version']).status === 0;
if (!installed && process.env.CI === 'true') throw new Error('CI=true but pgbouncer is not installed: .ci/run installs it (apt-get install -y pgbouncer)');
const postgres = ENGINES.find((e) => e.name === 'postgres');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Bouncer {
  /** The test database's URL through the pooler. */
  url: string;
  stop(): Promise<void>;
}

/** A PgBouncer in front of the test database's server, trusting its user, one server connection per database. */
async function startBouncer(databaseUrl: string, mode: 'session' | 'transaction'): Promise<Bouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-pgbouncer-'));
  // PgBouncer does not run as root: it is told to become `postgres`, who must read its files.
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'users.txt'), `"${user}" "${decodeURIComponent(target.password)}"\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      "unix_socket_dir = ''",
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `pool_mode = ${mode}`,
      'default_pool_size = 1',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return { url: url.toString(), stop };
    } catch (error) {
      await client.end().catch(() => {});
      if (i >= 50 || child.exitCode !== null) {
        await stop();
        throw new Error(`pgbouncer did not start: ${(error as Error).message}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A kept statement that takes an array, as the key's look-up does (planned generically when the server switches the connection). */
const byTaxIds = preparedQuery((d, p) =>
  d
    .selectFrom('companies')
    .select('company_name')
    .where(sql<boolean>`tax_id_norm = ANY(${p(0)}::text[])`),
);

describe(
  'behind PgBouncer [postgres]',
  {
    skip: !postgres
      ? 'needs TEST_DATABASE_URL'
      : !installed
        ? 'pgbouncer is not installed (apt-get install -y pgbouncer); CI installs it and never skips this'
        : false,
  },
  () => {
    let database: TestDatabase;
    const clock = fixedClock(Date.UTC(2026, 5, 1));
    const opened: Engine[] = [];
    const through = (url: string, pooler: Pooler, statementTimeoutMs?: number) => {
      const engine = openEngine(url, { poolSize: 1, pooler, ...(statementTimeoutMs ? { statementTimeoutMs } : {}) });
      opened.push(engine);
      return engine;
    };
    before(async () => {
      database = await postgres!.create();
      await makeClaimants(database.engine.db, clock);
    });
    after(async () => {
      for (const engine of opened) await engine.close().catch(() => {});
      await database?.drop();
    });

    test('session mode: refused unless told, then the timeout is set on each connection and an import by COPY goes through', async () => {
      const bouncer = await startBouncer(database.url, 'session');
      after(() => bouncer.stop());
      await assert.rejects(sql`SELECT 1`.execute(through(bouncer.url, 'none', 4321).db), /unsupported startup parameter: statement_timeout/);
      const engine = through(bouncer.url, 'session', 4321);
      // Migrating through it: the lock is taken and released on the client's own server connection.
      assert.deepEqual(await migrateToLatest(engine), []);
      // makeCompanies imports (db/bulk-writer.ts: COPY on the write session's own connection).
      const [taxId] = await makeCompanies(engine, clock, [{ company_name: 'Pooled Lojistik A.Ş.', reports: [makeReport()] }]);
      assert.deepEqual(await byTaxIds(engine.db, [[taxId!]]), [{ company_name: 'Pooled Lojistik A.Ş.' }]);
      const { rows } = await sql<{ timeout: string; mode: string }>`SELECT current_setting('statement_timeout') AS timeout,
      current_setting('plan_cache_mode') AS mode`.execute(engine.db);
      assert.deepEqual(rows, [{ timeout: '4321ms', mode: 'force_generic_plan' }]);
    });

    test('transaction mode: a server told `transaction` leaves nothing on the connection the next client is given', async () => {
      const bouncer = await startBouncer(database.url, 'transaction');
      after(() => bouncer.stop());
      // Another application's client, given the same server connection (one per database).
      const other = async () => {
        const client = new pg.Client({ connectionString: bouncer.url });
        await client.connect();
        try {
          const mode = (await client.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`)).rows[0]!.mode;
          // PgBouncer 1.18 keeps no account of prepared statements in this mode (1.21+ does): the
          // next engine would find the last one's on the connection.
          await client.query('DEALLOCATE ALL');
          return mode;
        } finally {
          await client.end();
        }
      };
      const run = async (pooler: Pooler) => {
        const engine = through(bouncer.url, pooler);
        assert.deepEqual(await byTaxIds(engine.db, [['0000000000']]), []);
        await engine.close();
        return other();
      };
      assert.equal(await other(), 'auto');
      assert.equal(await run('transaction'), 'auto');
      // Nothing migrated through it (the migration lock is the session's, which such a pooler may
      // leave held on a server connection): an up-to-date schema is checked and served, an old one
      // refused with where to migrate (the old code migrated it here).
      assert.deepEqual(await migrateToLatest(through(bouncer.url, 'transaction')), []);
      const empty = await postgres!.create();
      after(() => empty.drop());
      const url = new URL(empty.url);
      url.host = new URL(bouncer.url).host;
      await sql`DROP TABLE kysely_migration, kysely_migration_lock`.execute(empty.engine.db);
      await assert.rejects(
        migrateToLatest(through(url.toString(), 'transaction')),
        /needs migrations 0001-initial, .* run 'risklookup migrate' on PostgreSQL's own address or through a session pooler/,
      );
      // Told the wrong mode, the server's switch reaches the other client: what `transaction` prevents.
      assert.equal(await run('session'), 'force_generic_plan');
    });
  },
);
