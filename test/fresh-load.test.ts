/**
 * An import into an empty database drops the name-search indexes and builds them once at the
 * end (src/db/write-session.ts). Afterwards the schema and the answers must be exactly those
 * of a row-by-row import; a failed fresh import must leave the indexes in place.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines, ImportFailed } from '../src/import/import.service.ts';
import { findCompaniesByName } from '../src/companies/companies.repository.ts';
import { NOON_TR } from './helpers/app.ts';
import { readDataVersion } from '../src/db/data-version.repository.ts';
import { sql } from 'kysely';

const clock = fixedClock(NOON_TR);
const NAMES = ['Kuzey Lojistik', 'Güney Lojistik Nakliyat', 'Doğu Tekstil', 'Batı Lojistik Gıda', 'Lojistikçiler Kollektif'];
const lines = NAMES.map((name) => companyLine({ company_name: `${name} A.Ş.`, reports: [makeReport()] }));

for (const engine of ENGINES) {
  describe(`fresh import into an empty database [${engine.name}]`, () => {
    let fresh: TestDatabase;
    let incremental: TestDatabase;
    before(async () => {
      fresh = await engine.create();
      incremental = await engine.create();
      await makeClaimants(fresh.engine.db, clock);
      await makeClaimants(incremental.engine.db, clock);
    });
    after(async () => {
      await fresh?.drop();
      await incremental?.drop();
    });

    /** Every index on companies, and on SQLite every trigger (a fresh load drops both). */
    const indexesOf = async (database: TestDatabase) => {
      const indexes = await database.engine.seam.secondaryIndexes(database.engine.db, ['companies']);
      if (engine.name !== 'sqlite') return indexes;
      const triggers = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`.execute(
        database.engine.db,
      );
      return [...indexes, ...triggers.rows];
    };
    const lojistik = async (database: TestDatabase) =>
      (
        await findCompaniesByName(database.engine.db, database.engine.seam, {
          indexedWords: ['lojistik'],
          otherWords: [],
          core: 'lojistik',
          country: null,
          limit: 10,
        })
      ).map((c) => c.company_name);

    test('a failed fresh import leaves every index in place', async () => {
      const before = await indexesOf(fresh);
      assert.ok(before.length >= (engine.name === 'sqlite' ? 11 : 3), 'the name-search indexes (and SQLite triggers) exist after the migrations');
      await assert.rejects(importLines(fresh.engine, [...lines, '{"company_name": "broken"}'], 'test', { countries, clock }), ImportFailed);
      assert.deepEqual(await indexesOf(fresh), before);
    });

    test('indexes and answers are the same as after a row-by-row import', async () => {
      const before = await indexesOf(fresh);
      const version = await readDataVersion(fresh.engine.db);
      await importLines(fresh.engine, lines, 'test', { countries, clock });
      assert.ok((await readDataVersion(fresh.engine.db)) > version, 'cached search answers see the import');
      // Row by row: the database is not empty when the real lines arrive.
      await importLines(incremental.engine, [lines[2]!], 'test', { countries, clock });
      await importLines(incremental.engine, lines, 'test', { countries, clock });
      assert.deepEqual(await indexesOf(fresh), before);
      const answer = await lojistik(fresh);
      assert.equal(answer.length, 4);
      assert.deepEqual(answer, await lojistik(incremental));
    });
  });
}
