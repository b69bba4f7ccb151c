/**
 * The engines the storage and HTTP suites run on: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (CI always sets it). Each test gets a fresh database.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, randomBytes } from 'node:crypto';
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

/** Named for the migrations' sources, so that a changed migration gets a template of its own. */
function templateName(): string {
  const dir = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  hash.update(readFileSync(fileURLToPath(new URL('../../src/db/migrate.ts', import.meta.url))));
  return `risklookup_test_template_${hash.digest('hex').slice(0, 12)}`;
}

/**
 * A migrated database to copy (CREATE DATABASE … TEMPLATE, ~70 ms) instead of migrating each
 * test database anew (~250 ms). Made once by whichever test process comes first, under an
 * advisory lock, as a database of another name renamed when complete: a process that dies
 * half-way leaves no half-made template behind it.
 */
async function ensureTemplate(adminUrl: string): Promise<string> {
  const name = templateName();
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('risklookup_test_template'))`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      const making = `${name}_making_${randomBytes(3).toString('hex')}`;
      await client.query(`CREATE DATABASE ${making}`);
      const url = new URL(adminUrl);
      url.pathname = `/${making}`;
      const engine = openEngine(url.toString());
      await migrateToLatest(engine);
      await engine.close();
      await client.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('risklookup_test_template'))`).catch(() => {});
    await client.end();
  }
  return name;
}

function postgresEngine(adminUrl: string): EngineUnderTest {
  let template: Promise<string> | null = null;
  return {
    name: 'postgres',
    async create() {
      template ??= ensureTemplate(adminUrl);
      const name = `risklookup_test_${randomBytes(6).toString('hex')}`;
      await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${await template}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const engine = openEngine(url.toString());
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
