/**
 * The write protocol (src/db/write-session.ts): every committed change to the searchable tables
 * moves the data version, or the search cache serves stale answers. A write path that skips it
 * fails here: statically (a module outside the protocol suspends the triggers, writes the version
 * or reaches the bulk writer) and at run time (a bulk write outside an open session, an ordinary
 * statement on a searchable table that does not move the version).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { NOON_TR } from './helpers/app.ts';
import { importLines } from '../src/import/import.service.ts';
import { readDataVersion } from '../src/db/data-version.repository.ts';
import { runWriteSession, SEARCH_SOURCE_TABLES, type WriteSession } from '../src/db/write-session.ts';
import type { BulkTicket } from '../src/db/bulk-writer.ts';

const clock = fixedClock(NOON_TR);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Where each step of the protocol may appear; anywhere else it is a write path around the session. */
const ALLOWED: Array<{ what: string; pattern: RegExp; files: string[] }> = [
  { what: 'the bulk-load marker', pattern: /fts_bulk_load|markBulkLoad\(/, files: ['src/db/write-session.ts', 'src/db/dialect-seam.ts', 'src/db/migrations/'] },
  // fresh-name-indexes.ts drops only the temporary trigger it creates for a fresh load's session (through the bulk writer).
  {
    what: 'dropping triggers',
    pattern: /DROP TRIGGER|perRowTriggers\(/i,
    files: ['src/db/write-session.ts', 'src/db/dialect-seam.ts', 'src/db/fresh-name-indexes.ts'],
  },
  {
    what: 'writing the data version',
    pattern: /updateTable\('data_version'\)|UPDATE data_version|bumpDataVersion\(/,
    files: ['src/db/write-session.ts', 'src/db/data-version.repository.ts', 'src/db/migrations/'],
  },
  {
    what: 'the bulk writer',
    pattern: /\.bulk\.|BulkTicket|sqliteBulkWriter|postgresBulkWriter/,
    files: ['src/db/write-session.ts', 'src/db/bulk-writer.ts', 'src/db/connect.ts'],
  },
];

describe('write protocol: only db/write-session.ts goes around the per-row triggers', () => {
  const files = sourceFiles('src').map((f) => f.split('\\').join('/'));
  for (const rule of ALLOWED) {
    test(`${rule.what} appears only in ${rule.files.join(', ')}`, () => {
      const outside = files.filter((f) => rule.pattern.test(readFileSync(f, 'utf8')) && !rule.files.some((allowed) => f.startsWith(allowed)));
      assert.deepEqual(outside, [], `${rule.what} outside the write protocol: go through runWriteSession (src/db/write-session.ts)`);
    });
  }
});

for (const engine of ENGINES) {
  describe(`write protocol [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
      await importLines(database.engine, [companyLine({ company_name: 'Protokol Lojistik A.Ş.', reports: [makeReport()] })], 'test', { countries, clock });
    });
    after(async () => {
      await database?.drop();
    });

    const version = () => readDataVersion(database.engine.db);
    const companyRow = (name: string) => ({
      company_name: name,
      tax_id: `T${name.length}${Date.now()}`,
      tax_id_norm: `T${name.length}${Date.now()}`,
      country: 'TR',
      city: 'Ankara',
      name_key: name.toLowerCase(),
      name_core: name.toLowerCase(),
      visible_report_count: 0,
      updated_at: NOON_TR,
    });

    test('every ordinary insert, update and delete on a searchable table moves the version', async () => {
      const { db } = database.engine;
      const steps: Array<[string, () => Promise<unknown>]> = [
        ['insert companies', () => db.insertInto('companies').values(companyRow('protokol ordinary')).execute()],
        ['update companies', () => db.updateTable('companies').set({ city: 'İzmir' }).where('name_key', '=', 'protokol ordinary').execute()],
        [
          'insert reports',
          () =>
            sql`INSERT INTO reports (company_id, type, status, filed_at, description, created_at, updated_at)
          SELECT id, 'lawsuit', 'approved', 0, 'x', 0, 0 FROM companies WHERE name_key = 'protokol ordinary'`.execute(db),
        ],
        ['update reports', () => db.updateTable('reports').set({ description: 'y' }).where('description', '=', 'x').execute()],
        ['delete reports', () => db.deleteFrom('reports').where('description', '=', 'y').execute()],
        ['delete companies', () => db.deleteFrom('companies').where('name_key', '=', 'protokol ordinary').execute()],
      ];
      assert.deepEqual(new Set(steps.map(([name]) => name.split(' ')[1])), new Set(SEARCH_SOURCE_TABLES), 'every searchable table is exercised');
      for (const [name, step] of steps) {
        const before = await version();
        await step();
        assert.ok((await version()) > before, `${name} moves the data version`);
      }
    });

    test('a write session moves the version (on SQLite once, at its close), and its rows are found by name', async () => {
      const before = await version();
      await runWriteSession(database.engine, async (session) => {
        await session.insertCompanies([companyRow('protokol session')]);
      });
      if (engine.name === 'sqlite') assert.equal(await version(), before + 1, 'the per-row triggers were quiet; the close bumped once');
      else assert.ok((await version()) > before);
      const found = await sql<{
        n: number;
      }>`SELECT COUNT(*) AS n FROM companies WHERE ${database.engine.seam.nameKeyContainsAll(['protokol', 'session'])}`.execute(database.engine.db);
      assert.equal(Number(found.rows[0]!.n), 1, 'the name index holds the session insert exactly once');
    });

    test('a failed session writes nothing and leaves the version', async () => {
      const before = await version();
      await assert.rejects(
        runWriteSession(database.engine, async (session) => {
          await session.insertCompanies([companyRow('protokol failed')]);
          throw new Error('stop');
        }),
        /stop/,
      );
      assert.equal(await version(), before);
      const row = await database.engine.db.selectFrom('companies').select('id').where('name_key', '=', 'protokol failed').executeTakeFirst();
      assert.equal(row, undefined);
    });

    test('a bulk write outside an open session is refused', async () => {
      let kept: WriteSession | undefined;
      await runWriteSession(database.engine, (session) => {
        kept = session;
        return Promise.resolve();
      });
      await assert.rejects(kept!.insertCompanies([companyRow('protokol late')]), /outside an open write session/);
      const forged: BulkTicket = { trx: database.engine.db, freshLoad: false, open: false };
      await assert.rejects(database.engine.bulk.insertReports(forged, []), /outside an open write session/);
      const row = await database.engine.db.selectFrom('companies').select('id').where('name_key', '=', 'protokol late').executeTakeFirst();
      assert.equal(row, undefined);
    });
  });
}
