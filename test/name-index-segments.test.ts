/**
 * SQLite's name indexes after a fresh load, a copy and migration 0027 (db/dialect-seam.ts,
 * compactNameIndexes): each FTS5 index of the names is one segment, since a query term is looked
 * up in every segment (FTS5 writes a segment per megabyte of terms and per statement, and merges
 * only four of a level together: without it, a fresh load of 30,000 names left 2–6). A fresh load
 * builds them with FTS5's settings for a bulk build and sets FTS5's defaults back after.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport } from './helpers/factories.ts';
import { NOON_TR } from './helpers/app.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines } from '../src/import/import.service.ts';
import { copyDatabase } from '../src/db/copy.ts';
import { SQLITE_NAME_INDEXES } from '../src/db/dialect-seam.ts';
import { up as mergeNameIndexes } from '../src/db/migrations/0027-name-indexes-one-segment.ts';
import { companyTitle } from '../src/generate/company-names.ts';
import { vknCheckDigit } from '../src/generate/check-digits.ts';
import { seededRandom } from '../src/generate/random.ts';
import type { Db } from '../src/db/types.ts';

/** SQLite's variable-length integer (big-endian groups of 7 bits). */
function readVarint(bytes: Uint8Array, at: { i: number }): number {
  let value = 0;
  for (let k = 0; k < 8; k++) {
    const byte = bytes[at.i++]!;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value * 256 + bytes[at.i++]!;
}

/**
 * Counts the segments of an FTS5 index from its structure record (row 10 of `%_data`,
 * fts5_index.c): a 4-byte cookie, then the number of levels and of segments. Version 2 of the
 * record (tables with `contentless_delete=1`, which this schema has none of) puts a marker first.
 */
async function countSegments(db: Db, index: string): Promise<number> {
  const { rows } = await sql<{ block: Uint8Array }>`SELECT block FROM ${sql.table(`${index}_data`)} WHERE id = 10`.execute(db);
  const block = rows[0]!.block;
  assert.notDeepEqual([...block.subarray(4, 8)], [0xff, 0x00, 0x00, 0x01], `${index}: a version 2 structure record`);
  const at = { i: 4 };
  readVarint(block, at); // levels
  return readVarint(block, at);
}

/** Makes `count` import lines of companies with register-like names (the bench's generator), each with one report. */
function makeCompanyLines(count: number, seed: number): string[] {
  const r = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const stem = String(seed * 10_000_000 + i).padStart(9, '0');
    return companyLine({ company_name: companyTitle(r, false), tax_id: stem + vknCheckDigit(stem), reports: [makeReport()] });
  });
}

for (const engine of ENGINES.filter((e) => e.name === 'sqlite')) {
  describe(`the name indexes after a load [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    // ~4 MB of trigrams: several segments as FTS5 writes them.
    const lines = makeCompanyLines(30_000, 7);
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
      await importLines(database.engine, lines, 'test', { countries, clock });
    });
    after(async () => {
      await database?.drop();
    });

    test('a fresh load of 30,000 names leaves each name index as one segment, and every name found by its words', async () => {
      const db = database.engine.db;
      for (const index of SQLITE_NAME_INDEXES) assert.equal(await countSegments(db, index), 1, `${index}: segments`);
      // The build's own settings (a large table of pending terms, no merging) set back to FTS5's defaults.
      for (const index of SQLITE_NAME_INDEXES) {
        const { rows } = await sql<{
          k: string;
          v: number;
        }>`SELECT k, v FROM ${sql.table(`${index}_config`)} WHERE k IN ('hashsize', 'automerge') ORDER BY k`.execute(db);
        assert.deepEqual(
          rows.map((r) => `${r.k} ${r.v}`),
          ['automerge 4', 'hashsize 1048576'],
          `${index}: settings after the load`,
        );
      }
      await database.engine.seam.checkNameIndex(db);
      // Every 1,000th name by all its words, through the word index.
      for (const line of lines.filter((_, i) => i % 1000 === 0)) {
        const { tax_id: taxId } = JSON.parse(line) as { tax_id: string };
        const { rows } = await sql<{ name_core: string }>`SELECT name_core FROM companies WHERE tax_id_norm = ${taxId}`.execute(db);
        const match = rows[0]!.name_core
          .split(' ')
          .map((w) => `"${w}"`)
          .join(' AND ');
        const found = await sql<{ id: number }>`SELECT rowid AS id FROM company_word_fts WHERE company_word_fts MATCH ${match}`.execute(db);
        assert.ok(found.rows.length > 0, `${rows[0]!.name_core} found`);
      }
    });

    test('a copy into a new SQLite database leaves each name index as one segment', async () => {
      const target = await engine.create();
      try {
        await copyDatabase(database.engine, target.engine);
        for (const index of SQLITE_NAME_INDEXES) assert.equal(await countSegments(target.engine.db, index), 1, `${index}: segments`);
        await target.engine.seam.checkNameIndex(target.engine.db);
      } finally {
        await target.drop();
      }
    });

    test('migration 0027 merges the indexes of a database loaded before into one segment each', async () => {
      const db = database.engine.db;
      // A load into a database that holds companies adds segments (one a statement of its chunks).
      await importLines(database.engine, makeCompanyLines(5_000, 8), 'test', { countries, clock });
      assert.ok((await countSegments(db, 'company_name_fts')) > 1, 'the appended load added segments');
      // As the migrator runs it: on a schemaless Kysely.
      await mergeNameIndexes(db as unknown as Kysely<unknown>, database.engine.seam);
      for (const index of SQLITE_NAME_INDEXES) assert.equal(await countSegments(db, index), 1, `${index}: segments`);
      await database.engine.seam.checkNameIndex(db);
    });
  });
}
