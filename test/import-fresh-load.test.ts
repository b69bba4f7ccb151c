/**
 * An import into an empty database (a fresh load, db/write-session.ts) takes shortcuts: it looks
 * up only the tax IDs and refs it may have written itself (import/written-filter.ts), builds the
 * deferred indexes, (PostgreSQL) foreign keys and name words once at its end. What a user sees
 * must not change: a company or ref repeated far apart in the file still applies in order, every
 * name is searchable by its words, and the schema afterwards is the schema before, on success and
 * on failure alike.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport, nextVkn } from './helpers/factories.ts';
import { NOON_TR } from './helpers/app.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { IMPORT_BATCH_LINES, importLines, ImportFailed } from '../src/import/import.service.ts';
import { WrittenFilter } from '../src/import/written-filter.ts';
import { runWriteSession } from '../src/db/write-session.ts';
import type { Db } from '../src/db/types.ts';
import { openEngine, sqlitePathOf } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { BIN } from './helpers/cli.ts';

/** Every index, trigger and constraint of the tables an import writes, as the database states them. */
async function schemaOf(db: Db, kind: string): Promise<string[]> {
  if (kind === 'sqlite') {
    const { rows } = await sql<{ d: string }>`SELECT type || ' ' || name || ' ' || coalesce(sql, '') AS d FROM sqlite_master ORDER BY name`.execute(db);
    return rows.map((r) => r.d);
  }
  const { rows } = await sql<{ d: string }>`
    SELECT 'index ' || indexname || ' ' || indexdef AS d FROM pg_indexes WHERE schemaname = current_schema()
    UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace
    UNION ALL SELECT 'trigger ' || tgname || ' ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    ORDER BY 1`.execute(db);
  return rows.map((r) => r.d);
}

test('the written filter: never says no to what was added, and says no to most of the rest', () => {
  const filter = new WrittenFilter();
  const added = Array.from({ length: 50_000 }, (_, i) => `G1-${i}-${i % 7}`);
  for (const ref of added) filter.add(ref);
  assert.ok(added.every((ref) => filter.mayHave(ref)));
  const others = Array.from({ length: 50_000 }, (_, i) => `H1-${i}-${i % 7}`);
  assert.ok(others.filter((ref) => filter.mayHave(ref)).length < 50, 'at most 0.1 % looked up for nothing');
});

for (const engine of ENGINES) {
  describe(`import into an empty database [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
    });
    after(async () => {
      await database?.drop();
    });

    test('a failed fresh load leaves the schema as it was and writes nothing', async () => {
      const schema = await schemaOf(database.engine.db, engine.name);
      const lines = [
        companyLine({ company_name: 'Vazgeçen Lojistik A.Ş.' }),
        companyLine({ company_name: 'Kötü A.Ş.', reports: [makeReport({ type: 'rumour' })] }),
      ];
      await assert.rejects(importLines(database.engine, lines, 'test', { countries, clock }), ImportFailed);
      assert.deepEqual(await schemaOf(database.engine.db, engine.name), schema);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM companies`.execute(database.engine.db);
      assert.equal(Number(rows[0]!.n), 0);
    });

    test('a fresh load that writes a row whose foreign key points nowhere fails whole, and the keys are checked row by row again after it', async () => {
      const db = database.engine.db;
      const schema = await schemaOf(db, engine.name);
      const name = 'Yetim Kayıt A.Ş.';
      const key = name.toLowerCase();
      await assert.rejects(
        runWriteSession(database.engine, async (session) => {
          assert.ok(session.freshLoad);
          const [company] = await session.insertCompanies([
            {
              company_name: name,
              tax_id: 'ORPHAN',
              tax_id_norm: 'ORPHAN',
              country: 'TR',
              city: 'Ankara',
              name_key: key,
              name_core: key,
              visible_report_count: 0,
              updated_at: NOON_TR,
            },
          ]);
          // A report of a company that does not exist, and a status change of a report that does not.
          const report = {
            ref: 'ORPHAN-1',
            type: 'lawsuit',
            status: 'approved',
            filed_at: NOON_TR,
            description: 'x',
            created_at: NOON_TR,
            updated_at: NOON_TR,
          };
          const [orphan] = await session.insertReports([{ ...report, company_id: company!.id + 1_000 }]);
          await session.insertStatusChanges([
            { report_id: orphan!.id + 1_000, from_status: null, to_status: 'approved', changed_at: NOON_TR, changed_by: 'test' },
          ]);
        }),
        /foreign key/i,
      );
      const { rows } = await sql<{
        n: number;
      }>`SELECT (SELECT count(*) FROM companies) + (SELECT count(*) FROM reports) + (SELECT count(*) FROM report_status_changes) AS n`.execute(db);
      assert.equal(Number(rows[0]!.n), 0, 'nothing written');
      assert.deepEqual(await schemaOf(db, engine.name), schema);
      // Outside a fresh load every statement checks its row's keys again (SQLite: the connection's pragma is back on).
      await assert.rejects(
        sql`INSERT INTO reports (company_id, type, status, filed_at, description, created_at, updated_at) VALUES (987654, 'lawsuit', 'approved', 0, 'x', 0, 0)`.execute(
          db,
        ),
        /foreign key/i,
      );
    });

    test('a fresh load whose bad line comes after batches were written writes nothing and lists the line', async () => {
      const schema = await schemaOf(database.engine.db, engine.name);
      const lines = Array.from({ length: 2 * IMPORT_BATCH_LINES + 300 }, (_, i) => companyLine({ company_name: `Geç Hata ${i} Ticaret A.Ş.` }));
      // Two whole batches are written before the bad line is read.
      const bad = 2 * IMPORT_BATCH_LINES + 250;
      lines[bad - 1] = companyLine({ company_name: 'Sonradan Bozuk A.Ş.', reports: [makeReport({ type: 'rumour' })] });
      const failure = await importLines(database.engine, lines, 'test', { countries, clock }).then(
        () => assert.fail('the import should have failed'),
        (e: unknown) => e,
      );
      assert.ok(failure instanceof ImportFailed);
      assert.equal(failure.problems.length, 1);
      assert.match(failure.problems[0]!, new RegExp(`^line ${bad}: reports\\[0\\]\\.type must be one of `));
      assert.deepEqual(await schemaOf(database.engine.db, engine.name), schema);
      const { rows } = await sql<{
        n: number;
      }>`SELECT (SELECT count(*) FROM companies) + (SELECT count(*) FROM reports) + (SELECT count(*) FROM company_name_words) AS n`.execute(database.engine.db);
      assert.equal(Number(rows[0]!.n), 0);
    });

    test('input that breaks off while a batch is being written: the import fails with its error, writes nothing, and the next one works', async () => {
      const schema = await schemaOf(database.engine.db, engine.name);
      function* brokenOff() {
        for (let i = 0; i <= 2 * IMPORT_BATCH_LINES; i++) yield companyLine({ company_name: `Yarım Kalan ${i} Yapı A.Ş.` });
        throw new Error('the input broke off');
      }
      await assert.rejects(importLines(database.engine, brokenOff(), 'test', { countries, clock }), /the input broke off/);
      assert.deepEqual(await schemaOf(database.engine.db, engine.name), schema);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM companies`.execute(database.engine.db);
      assert.equal(Number(rows[0]!.n), 0);
      const summary = await importLines(database.engine, [companyLine({ company_name: 'Sonraki Deneme A.Ş.' })], 'test', { countries, clock });
      assert.equal(summary.companiesAdded, 1);
      await sql`DELETE FROM report_status_changes`.execute(database.engine.db);
      await sql`DELETE FROM reports`.execute(database.engine.db);
      await sql`DELETE FROM companies`.execute(database.engine.db);
    });

    test('a company and a ref repeated batches apart apply in order; names are found by their words; the schema is unchanged', async () => {
      const schema = await schemaOf(database.engine.db, engine.name);
      const taxId = nextVkn();
      const claims = [1, 2, 3].map((i) => makeReport({ ref: `FAR-${i}`, type: 'unpaid_debt', reported_by: `M-CLAIM-${i}`, status: 'pending' }));
      const apart = IMPORT_BATCH_LINES + 100;
      const filler = Array.from({ length: 2 * apart }, (_, i) => companyLine({ company_name: `Dolgu ${i} Tekstil A.Ş.` }));
      const lines = [
        companyLine({ company_name: 'Uzakbaşlayan Gıda A.Ş.', tax_id: taxId, reports: claims }),
        ...filler.slice(0, apart),
        // A batch and more on: the company and its first ref again, changed.
        companyLine({ company_name: 'Uzakbitiren Gıda A.Ş.', tax_id: taxId, reports: [{ ...claims[0]!, status: 'approved' }] }),
        ...filler.slice(apart),
        companyLine({ company_name: 'Uzakbitiren Gıda A.Ş.', tax_id: taxId, reports: claims.slice(1).map((c) => ({ ...c, status: 'approved' })) }),
      ];
      const summary = await importLines(database.engine, lines, 'test', { countries, clock });
      assert.deepEqual([summary.companiesAdded, summary.companiesUpdated, summary.reportsAdded, summary.reportsUpdated], [2 * apart + 1, 1, 2 * apart + 3, 3]);
      const db = database.engine.db;
      const company = await db.selectFrom('companies').selectAll().where('tax_id_norm', '=', taxId).executeTakeFirstOrThrow();
      assert.equal(company.company_name, 'Uzakbitiren Gıda A.Ş.');
      assert.equal(Number(company.visible_report_count), 3, 'three approved claims from three members');
      const history = await db
        .selectFrom('report_status_changes as c')
        .innerJoin('reports as r', 'r.id', 'c.report_id')
        .select(['r.ref', 'c.to_status'])
        .where('r.ref', 'like', 'FAR-%')
        .orderBy('c.id')
        .execute();
      assert.equal(
        history
          .filter((h) => h.ref === 'FAR-1')
          .map((h) => h.to_status)
          .join(','),
        'pending,approved',
      );
      const words = await db
        .selectFrom('company_name_words')
        .select('word')
        .where('word', 'in', ['uzakbitiren', 'dolgu', 'tekstil', String(2 * apart - 1)])
        .execute();
      assert.deepEqual(words.map((w) => w.word).sort(), [String(2 * apart - 1), 'dolgu', 'tekstil', 'uzakbitiren']);
      // Every word of every name, as the SQL of migration 0007 splits them, is among the names' words.
      const split =
        engine.name === 'sqlite'
          ? sql`SELECT DISTINCT j.value AS w FROM companies c, json_each('["' || replace(c.name_core, ' ', '","') || '"]') j WHERE j.value <> ''`
          : sql`SELECT DISTINCT w FROM companies, unnest(string_to_array(name_core, ' ')) AS w WHERE w <> ''`;
      const missing = await sql<{ n: number }>`SELECT count(*) AS n FROM (${split}) AS s WHERE s.w NOT IN (SELECT word FROM company_name_words)`.execute(db);
      assert.equal(Number(missing.rows[0]!.n), 0);
      assert.deepEqual(await schemaOf(db, engine.name), schema);
    });

    test('into a database that has companies, a bad line after batches were written leaves every row as it was', async () => {
      const db = database.engine.db;
      const count = async () => {
        const { rows } = await sql<{ c: number; r: number; h: number }>`SELECT (SELECT count(*) FROM companies) AS c,
          (SELECT count(*) FROM reports) AS r, (SELECT count(*) FROM report_status_changes) AS h`.execute(db);
        return rows.map((x) => [Number(x.c), Number(x.r), Number(x.h)])[0];
      };
      const before = await count();
      const existing = await db
        .selectFrom('companies')
        .select(['tax_id', 'company_name'])
        .where('company_name', '=', 'Uzakbitiren Gıda A.Ş.')
        .executeTakeFirstOrThrow();
      const lines = [
        companyLine({ company_name: 'Yeniden Adlanan Gıda A.Ş.', tax_id: existing.tax_id }),
        ...Array.from({ length: 2 * IMPORT_BATCH_LINES + 200 }, (_, i) => companyLine({ company_name: `Eklenecek ${i} Tekstil A.Ş.` })),
        '{"company_name": "Yarım',
      ];
      await assert.rejects(importLines(database.engine, lines, 'test', { countries, clock }), (e: ImportFailed) =>
        new RegExp(`^line ${lines.length}: not valid JSON`).test(e.problems[0]!),
      );
      assert.deepEqual(await count(), before);
      const after = await db.selectFrom('companies').select('company_name').where('tax_id', '=', existing.tax_id).executeTakeFirstOrThrow();
      assert.equal(after.company_name, 'Uzakbitiren Gıda A.Ş.');
    });
  });
}

/**
 * A fresh SQLite load writes without the WAL (db/write-session.ts): every page once, into the
 * database file, with a rollback journal of the pages the file had before; WAL mode again after.
 */
const SQLITE = ENGINES.find((e) => e.name === 'sqlite')!;
const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const journalModeOf = (path: string) => {
  const probe = new SQLite(path, { readonly: true });
  try {
    return probe.pragma('journal_mode', { simple: true }) as string;
  } finally {
    probe.close();
  }
};
/** Lines of about 5 KB each: 10,000 of them are more than the import's 32 MB page cache holds. */
const linesOf = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) =>
    companyLine({
      company_name: `${prefix} ${i} İnşaat Ticaret A.Ş.`,
      reports: [1, 2].map((k) =>
        makeReport({ type: 'unpaid_debt', reported_by: `M-CLAIM-${((i + k) % 4) + 1}`, description: `${prefix} ${i}/${k} `.repeat(160) }),
      ),
    }),
  );

describe('a fresh SQLite load and the WAL', () => {
  test('the load grows no WAL: its pages go to the database file; WAL mode after it, on success and on failure', async () => {
    const database = await SQLITE.create();
    try {
      const clock = fixedClock(NOON_TR);
      await makeClaimants(database.engine.db, clock);
      const path = sqlitePathOf(database.url);
      const seen: Array<{ wal: number; journal: boolean; db: number }> = [];
      const watch = () => seen.push({ wal: sizeOf(`${path}-wal`), journal: existsSync(`${path}-journal`), db: sizeOf(path) });
      const start = sizeOf(path);
      // A bad last line: the load fails after it wrote everything else.
      const failing = [...linesOf(12_000, 'Başarısız'), '{"company_name": "Yarım'];
      await assert.rejects(importLines(database.engine, failing, 'test', { countries, clock, onProgress: watch }), ImportFailed);
      assert.ok(seen.length >= 5);
      assert.equal(Math.max(...seen.map((s) => s.wal)), 0, 'no WAL while the load ran');
      assert.ok(
        seen.every((s) => s.journal),
        'a rollback journal while the load ran',
      );
      assert.ok(Math.max(...seen.map((s) => s.db)) > start + 8_000_000, 'the rows went into the database file');
      assert.equal(journalModeOf(path), 'wal', 'WAL again after a failed load');
      assert.equal(existsSync(`${path}-journal`), false);

      seen.length = 0;
      const pragmas = async () => ({
        threads: Number((await sql<{ threads: number }>`PRAGMA threads`.execute(database.engine.db)).rows[0]!.threads),
        cacheSize: Number((await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(database.engine.db)).rows[0]!.cache_size),
      });
      const pragmasBefore = await pragmas();
      assert.equal(pragmasBefore.threads, 0);
      const summary = await importLines(database.engine, linesOf(12_000, 'Başarılı'), 'test', { countries, clock, onProgress: watch });
      assert.deepEqual(await pragmas(), pragmasBefore, "the index builds' helper threads and page cache set back (db/write-session.ts)");
      assert.equal(summary.companiesAdded, 12_000);
      assert.equal(Math.max(...seen.map((s) => s.wal)), 0, 'no WAL while the load ran');
      assert.ok(sizeOf(`${path}-wal`) < 1_000_000, `no WAL the size of the data after it (${sizeOf(`${path}-wal`)} bytes)`);
      assert.equal(journalModeOf(path), 'wal', 'WAL again after the load');
      const { rows: synchronous } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(database.engine.db);
      assert.equal(Number(synchronous[0]!.synchronous), 1, "the connection's synchronous = NORMAL again");
      // What the load wrote is found, and the next writes go through the WAL as always.
      const found = await database.engine.db.selectFrom('companies').select('id').where('company_name', '=', 'Başarılı 11999 İnşaat Ticaret A.Ş.').execute();
      assert.equal(found.length, 1);
      await importLines(database.engine, linesOf(10, 'Sonraki'), 'test', { countries, clock });
      assert.ok(sizeOf(`${path}-wal`) > 0, 'an import into a database with companies writes through the WAL');
    } finally {
      await database.drop();
    }
  });

  test('while another connection has the file open, the load keeps the WAL and says so', async () => {
    const database = await SQLITE.create();
    const path = sqlitePathOf(database.url);
    // Another process's connection (a running `serve`): open, and it has read.
    const other = openEngine(database.url);
    try {
      const clock = fixedClock(NOON_TR);
      await makeClaimants(database.engine.db, clock);
      await other.db.selectFrom('companies').select('id').execute();
      const notices: string[] = [];
      const summary = await importLines(database.engine, linesOf(1_200, 'Paylaşılan'), 'test', { countries, clock, onNotice: (m) => notices.push(m) });
      assert.equal(summary.companiesAdded, 1_200);
      assert.equal(notices.length, 1);
      assert.match(notices[0]!, /another connection has the database file open .*keeps the WAL/);
      assert.equal(journalModeOf(path), 'wal');
      // The other connection reads what the load committed.
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM companies`.execute(other.db);
      assert.equal(Number(rows[0]!.n), 1_200);
    } finally {
      await other.close();
      await database.drop();
    }
  });

  test('killed mid-load (kill -9): the next open rolls the load back, and the import then succeeds', async () => {
    const database = await SQLITE.create();
    const path = sqlitePathOf(database.url);
    const dir = mkdtempSync(join(tmpdir(), 'risklookup-kill-'));
    try {
      const clock = fixedClock(NOON_TR);
      await makeClaimants(database.engine.db, clock);
      await database.engine.close();
      const start = sizeOf(path);
      const file = join(dir, 'companies.jsonl');
      writeFileSync(file, linesOf(12_000, 'Yarıda').join('\n') + '\n');
      const child = spawn(process.execPath, [BIN, 'import', file, '--db', database.url], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('close', resolve));
      const started = Date.now();
      // Killed once the load has written well past the file's old end (pages that are in no journal).
      while (sizeOf(path) < start + 8_000_000) {
        assert.equal(child.exitCode, null, 'the import ended before it was killed');
        assert.ok(Date.now() - started < 120_000, `the database file did not grow (WAL ${sizeOf(`${path}-wal`)} bytes)`);
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGKILL');
      await exited;
      assert.ok(existsSync(`${path}-journal`), 'the kill left a hot journal');

      const engine = openEngine(database.url);
      try {
        await migrateToLatest(engine);
        const { rows } = await sql<{ c: number; r: number; m: number }>`SELECT (SELECT count(*) FROM companies) AS c,
          (SELECT count(*) FROM reports) AS r, (SELECT count(*) FROM members) AS m`.execute(engine.db);
        assert.deepEqual([Number(rows[0]!.c), Number(rows[0]!.r), Number(rows[0]!.m)], [0, 0, 4], 'the load rolled back; what was there before stays');
        assert.equal(existsSync(`${path}-journal`), false);
        assert.equal(sizeOf(path), start, 'the file cut back to its old end');
        assert.equal(journalModeOf(path), 'wal');
        const { rows: check } = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(engine.db);
        assert.deepEqual(
          check.map((r) => r.integrity_check),
          ['ok'],
        );
      } finally {
        await engine.close();
      }
      const again = spawnSync(process.execPath, [BIN, 'import', file, '--db', database.url], { encoding: 'utf8' });
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /companies: 12000 added/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});

test('opening a SQLite file that a fresh load holds fails with a message that says why', async () => {
  const database = await SQLITE.create();
  const path = sqlitePathOf(database.url);
  await database.engine.close();
  // What a fresh load holds (db/write-session.ts): the file out of WAL mode, its lock taken.
  const load = new SQLite(path);
  try {
    load.pragma('journal_mode = DELETE');
    load.exec('BEGIN EXCLUSIVE');
    assert.throws(
      () => openEngine(database.url),
      /is locked by another process \(an import into an empty database holds it until it ends\): try again when it has finished/,
    );
    load.exec('ROLLBACK');
  } finally {
    load.close();
    await database.drop();
  }
});
