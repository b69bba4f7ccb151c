/**
 * The engines the storage and HTTP suites run on: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (CI always sets it). Each test gets a fresh database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openEngine, type Engine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export interface TestDatabase {
  url: string;
  engine: Engine;
  /** Closes the engine and removes the database. */
  drop(): Promise<void>;
}

export interface EngineUnderTest {
  name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

async function createSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-test-'));
  const url = `sqlite:${join(dir, 'test.db')}`;
  const engine = openEngine(url);
  await migrateToLatest(engine);
  return {
    url,
    engine,
    drop: async () => {
      await engine.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(adminUrl: string, text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function postgresEngine(adminUrl: string): EngineUnderTest {
  return {
    name: 'postgres',
    async create() {
      const name = `risklookup_test_${randomBytes(6).toString('hex')}`;
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const engine = openEngine(url.toString());
      await migrateToLatest(engine);
      return {
        url: url.toString(),
        engine,
        drop: async () => {
          await engine.close().catch(() => {});
          await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        },
      };
    },
  };
}

if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  // CI must test both engines: a missing setting must not quietly turn into a SQLite-only run.
  throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suite would be skipped');
}

const AVAILABLE: EngineUnderTest[] = [
  { name: 'sqlite', create: createSqlite },
  ...(process.env.TEST_DATABASE_URL ? [postgresEngine(process.env.TEST_DATABASE_URL)] : []),
];

/**
 * TEST_ENGINES=sqlite (or postgres) runs a file on that engine only: scripts/run-tests.mjs
 * splits its longest per-engine files so, to run the halves side by side.
 */
const only = process.env.TEST_ENGINES?.split(',');

export const ENGINES: EngineUnderTest[] = only ? AVAILABLE.filter((engine) => only.includes(engine.name)) : AVAILABLE;
