/**
 * A fresh SQLite load's two name indexes of every company, built by a thread while the rows go in
 * (src/db/fresh-name-indexes.ts): what a search finds must be what FTS5's rebuild would give, and
 * whatever the thread could get wrong (a company renamed during the load, a failed load, a
 * connection whose FTS5 tables were used before) must end with the right index or none written.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import SQLite from 'better-sqlite3';
import { openEngine, type Engine } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { importLines, ImportFailed, IMPORT_BATCH_LINES } from '../src/import/import.service.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { generateCompanyLines, generatedMemberRefs } from '../src/generate/generate.ts';
import { SIDE_BUILT_INDEXES } from '../src/db/fresh-name-indexes.ts';
import { runWriteSession } from '../src/db/write-session.ts';
import { NOON_TR } from './helpers/app.ts';
import { companyLine, countries, makeMember, makeReport, nextVkn } from './helpers/factories.ts';

const clock = fixedClock(NOON_TR);
const MEMBERS = 6;

interface Opened {
  dir: string;
  path: string;
  engine: Engine;
}

/** A migrated SQLite file with the generator's members; `from`: companies from which the thread builds. */
async function open(from: number): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-fresh-names-'));
  const path = join(dir, 'test.db');
  const engine = openEngine(`sqlite:${path}`, { freshNameIndexesFrom: from });
  await migrateToLatest(engine);
  for (const ref of generatedMemberRefs(MEMBERS)) await makeMember(engine.db, clock, { ref });
  return { dir, path, engine };
}

async function close(opened: Opened | undefined) {
  await opened?.engine.close();
  if (opened) rmSync(opened.dir, { recursive: true, force: true });
}

/** The root page of an index's data table: a new one when the thread's index was put in place (dropped and created again). */
async function rootOf(engine: Engine, table: string): Promise<number> {
  const { rows } = await sql<{ rootpage: number }>`SELECT rootpage FROM sqlite_master WHERE name = ${`${table}_data`}`.execute(engine.db);
  return Number(rows[0]!.rootpage);
}

/** FTS5's check of an index against `companies`, its content (rank 1: every row's terms compared). */
async function checkAgainstContent(engine: Engine): Promise<void> {
  for (const table of SIDE_BUILT_INDEXES) await sql`INSERT INTO ${sql.table(table)} (${sql.ref(table)}, rank) VALUES ('integrity-check', 1)`.execute(engine.db);
}

async function ids(engine: Engine, table: string, match: string): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`SELECT rowid AS id FROM ${sql.table(table)} WHERE ${sql.ref(table)} MATCH ${match} ORDER BY rowid`.execute(
    engine.db,
  );
  return rows.map((r) => Number(r.id));
}

/** A phrase of a name key's letters (keys are lower case, Turkish letters folded: name-key.ts). */
/** Every row of an index's tables (FTS5's `_config`, `_data`, `_idx`, `_docsize`), as stored. */
async function tablesOf(engine: Engine, table: string): Promise<string> {
  const parts: string[] = [];
  for (const suffix of ['config', 'data', 'idx', 'docsize']) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`${table}_${suffix}`)} ORDER BY 1, 2`.execute(engine.db);
    parts.push(`${suffix}: ${JSON.stringify(rows, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value))}`);
  }
  return parts.join('\n');
}

const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** Queries drawn from the names themselves: pieces of name keys (trigram phrases) and words of the cores. */
async function queriesOf(engine: Engine, n: number): Promise<Array<{ table: string; match: string }>> {
  const rows = await engine.db.selectFrom('companies').select(['name_key', 'name_core']).orderBy('id').execute();
  const queries: Array<{ table: string; match: string }> = [];
  for (let i = 0; i < n; i++) {
    const row = rows[(i * 7919) % rows.length]!;
    const at = i % Math.max(1, row.name_key.length - 5);
    queries.push({ table: 'company_name_fts', match: phrase(row.name_key.slice(at, at + 3 + (i % 5))) });
    const words = row.name_core.split(' ').filter((w) => w !== '');
    queries.push({ table: 'company_word_fts', match: phrase(words[i % words.length]!) });
  }
  return queries;
}

describe('a fresh SQLite load: the name indexes built by a thread while the rows go in', () => {
  let threaded: Opened | undefined;
  let startedLate: Opened | undefined;
  let rebuilt: Opened | undefined;
  // More than a statement of the `_docsize` copy (SIZES_A_STATEMENT: 10,000).
  const lines = [...generateCompanyLines({ companies: 5 * IMPORT_BATCH_LINES + 123, members: MEMBERS, seed: 11 })];

  before(async () => {
    threaded = await open(1);
    // The thread starts a batch and more into the load, and is sent the companies before it from the database.
    startedLate = await open(IMPORT_BATCH_LINES + 7);
    rebuilt = await open(Number.MAX_SAFE_INTEGER);
  });
  after(async () => {
    await close(threaded);
    await close(startedLate);
    await close(rebuilt);
  });

  test('are, table for table, the indexes FTS5 rebuilds from the same companies, and answer every query as they do', async () => {
    const roots = await Promise.all(SIDE_BUILT_INDEXES.map((table) => rootOf(threaded!.engine, table)));
    for (const opened of [threaded!, startedLate!, rebuilt!]) await importLines(opened.engine, lines, 'test', { countries, clock });
    // Put in place, not rebuilt: the thread's tables are new.
    for (const [i, table] of SIDE_BUILT_INDEXES.entries()) {
      assert.notEqual(await rootOf(threaded!.engine, table), roots[i], table);
      assert.notEqual(await rootOf(startedLate!.engine, table), roots[i], table);
    }
    for (const table of SIDE_BUILT_INDEXES) {
      const reference = await tablesOf(rebuilt!.engine, table);
      assert.equal(await tablesOf(threaded!.engine, table), reference, table);
      assert.equal(await tablesOf(startedLate!.engine, table), reference, `${table}, the thread started late`);
    }
    await checkAgainstContent(threaded!.engine);
    const queries = await queriesOf(threaded!.engine, 300);
    let found = 0;
    for (const { table, match } of queries) {
      const got = await ids(threaded!.engine, table, match);
      assert.deepEqual(got, await ids(rebuilt!.engine, table, match), `${table} MATCH ${match}`);
      found += got.length;
    }
    assert.ok(found > queries.length, 'the queries find companies');
    assert.deepEqual(
      readdirSync(threaded!.dir).filter((f) => f.includes('fresh-names')),
      [],
      "the thread's file is gone",
    );
  });

  test('later writes keep them right: an import into the loaded database and a renamed company', async () => {
    const added = [companyLine({ company_name: 'Sonradan Gelen Zırhlıkaya Lojistik A.Ş.' })];
    await importLines(threaded!.engine, added, 'test', { countries, clock });
    const renamed = await threaded!.engine.db.selectFrom('companies').select(['id', 'tax_id']).orderBy('id').limit(1).executeTakeFirstOrThrow();
    await importLines(threaded!.engine, [companyLine({ company_name: 'Yepyeni Adlı Kuzeyçam Gıda A.Ş.', tax_id: renamed.tax_id })], 'test', {
      countries,
      clock,
    });
    await checkAgainstContent(threaded!.engine);
    assert.equal((await ids(threaded!.engine, 'company_name_fts', phrase('zirhlikaya'))).length, 1);
    assert.deepEqual(await ids(threaded!.engine, 'company_word_fts', phrase('kuzeycam')), [Number(renamed.id)]);
  });
});

describe('a fresh SQLite load whose thread could be wrong', () => {
  let opened: Opened | undefined;
  before(async () => {
    opened = await open(1);
  });
  after(async () => {
    await close(opened);
  });

  test('a company renamed during the load: the indexes are rebuilt, and hold its new name only', async () => {
    const taxId = nextVkn();
    const roots = await Promise.all(SIDE_BUILT_INDEXES.map((table) => rootOf(opened!.engine, table)));
    const filler = Array.from({ length: IMPORT_BATCH_LINES + 50 }, (_, i) => companyLine({ company_name: `Dolgu ${i} Tekstil A.Ş.` }));
    await importLines(
      opened!.engine,
      [
        companyLine({ company_name: 'Eskiadlı Bakırtepe A.Ş.', tax_id: taxId }),
        ...filler,
        companyLine({ company_name: 'Yeniadlı Gümüşova A.Ş.', tax_id: taxId }),
      ],
      'test',
      { countries, clock },
    );
    for (const [i, table] of SIDE_BUILT_INDEXES.entries()) assert.equal(await rootOf(opened!.engine, table), roots[i], `${table} rebuilt in place`);
    await checkAgainstContent(opened!.engine);
    assert.deepEqual(await ids(opened!.engine, 'company_word_fts', phrase('bakirtepe')), []);
    assert.deepEqual(await ids(opened!.engine, 'company_name_fts', phrase('bakirtepe')), []);
    assert.equal((await ids(opened!.engine, 'company_word_fts', phrase('gumusova'))).length, 1);
    assert.equal((await ids(opened!.engine, 'company_name_fts', phrase('gumusova'))).length, 1);
  });

  test('a load that fails after batches went to the thread writes nothing and leaves no file; a connection that used its indexes before loads right again', async () => {
    // Searched and emptied through the ordinary statements: this connection's FTS5 tables were used.
    assert.ok((await ids(opened!.engine, 'company_name_fts', phrase('dolgu'))).length > 0);
    const db = opened!.engine.db;
    await sql`DELETE FROM report_status_changes`.execute(db);
    await sql`DELETE FROM reports`.execute(db);
    await sql`DELETE FROM companies`.execute(db);
    const failing = Array.from({ length: 2 * IMPORT_BATCH_LINES + 10 }, (_, i) => companyLine({ company_name: `Yarıda Kalan ${i} Yapı A.Ş.` }));
    failing.push(companyLine({ company_name: 'Bozuk Satır A.Ş.', reports: [makeReport({ type: 'rumour' })] }));
    await assert.rejects(importLines(opened!.engine, failing, 'test', { countries, clock }), ImportFailed);
    assert.deepEqual(
      readdirSync(opened!.dir).filter((f) => f.includes('fresh-names')),
      [],
    );
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM companies`.execute(db);
    assert.equal(Number(rows[0]!.n), 0);
    for (const table of SIDE_BUILT_INDEXES) assert.deepEqual(await ids(opened!.engine, table, phrase('yapi')), [], table);

    const lines = Array.from({ length: IMPORT_BATCH_LINES + 20 }, (_, i) => companyLine({ company_name: `Tazeyükleme ${i} Kireçburnu A.Ş.` }));
    await importLines(opened!.engine, lines, 'test', { countries, clock });
    await checkAgainstContent(opened!.engine);
    assert.equal((await ids(opened!.engine, 'company_word_fts', phrase('kirecburnu'))).length, lines.length);
    assert.equal((await ids(opened!.engine, 'company_name_fts', phrase('tazeyukleme'))).length, lines.length);
    // And an ordinary write after it, on the same connection.
    await importLines(opened!.engine, [companyLine({ company_name: 'Ardından Gelen Kireçburnu A.Ş.' })], 'test', { countries, clock });
    await checkAgainstContent(opened!.engine);
    assert.equal((await ids(opened!.engine, 'company_word_fts', phrase('kirecburnu'))).length, lines.length + 1);
    // Read by another connection, as a server would.
    const other = new SQLite(opened!.path, { readonly: true });
    try {
      const n = other.prepare('SELECT count(*) AS n FROM company_name_fts WHERE company_name_fts MATCH \'"kirecburnu"\'').get() as { n: number };
      assert.equal(n.n, lines.length + 1);
    } finally {
      other.close();
    }
  });

  test('a company deleted and another inserted by an ordinary statement during the load: the counts agree, yet the indexes are rebuilt and right', async () => {
    const db = opened!.engine.db;
    await sql`DELETE FROM report_status_changes`.execute(db);
    await sql`DELETE FROM reports`.execute(db);
    await sql`DELETE FROM companies`.execute(db);
    const roots = await Promise.all(SIDE_BUILT_INDEXES.map((table) => rootOf(opened!.engine, table)));
    const row = (i: number, name: string) => ({
      company_name: name,
      tax_id: `T${i}`,
      tax_id_norm: `T${i}`,
      country: 'TR',
      city: 'Ankara',
      name_key: name.toLowerCase(),
      name_core: name.toLowerCase(),
      visible_report_count: 0,
      updated_at: NOON_TR,
    });
    await runWriteSession(opened!.engine, async (session) => {
      assert.ok(session.freshLoad);
      const inserted = await session.insertCompanies(Array.from({ length: 100 }, (_, i) => row(i, `zebra ${i} tekstil`)));
      await session.trx.deleteFrom('companies').where('id', '=', inserted[0]!.id).execute();
      await session.trx.insertInto('companies').values(row(1000, 'ghostly direct')).execute();
    });
    for (const [i, table] of SIDE_BUILT_INDEXES.entries()) assert.equal(await rootOf(opened!.engine, table), roots[i], `${table} rebuilt in place`);
    await checkAgainstContent(opened!.engine);
    assert.equal((await ids(opened!.engine, 'company_word_fts', phrase('ghostly'))).length, 1);
    assert.equal((await ids(opened!.engine, 'company_name_fts', phrase('zebra 0 '))).length, 0);
    await sql`DELETE FROM companies`.execute(db);
  });
});

test("a scratch file of a fresh load whose process died is deleted by the next open of the database; a running process's is kept", async () => {
  const opened = await open(1);
  try {
    await opened.engine.close();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const alive = process.ppid;
    const files = [`${opened.path}.fresh-names-${dead}`, `${opened.path}.fresh-names-${dead}-journal`, `${opened.path}.fresh-names-${alive}`];
    for (const file of files) writeFileSync(file, 'left over');
    opened.engine = openEngine(`sqlite:${opened.path}`);
    assert.deepEqual(
      files.map((f) => existsSync(f)),
      [false, false, true],
    );
  } finally {
    await close(opened);
  }
});
