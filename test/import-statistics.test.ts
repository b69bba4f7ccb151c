/**
 * A large import leaves PostgreSQL with planner statistics and a visibility map (VACUUM ANALYZE),
 * whatever autovacuum does: without them the name search's rank walk was planned as a sort of
 * the whole table (930 ms instead of 0.4 ms at 10^5 companies). A small import does not pay it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { countries } from './helpers/factories.ts';
import { NOON_TR } from './helpers/app.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines } from '../src/import/import.service.ts';
import { vknCheckDigit } from '../src/generate/check-digits.ts';

const line = (i: number) => {
  const stem = String(300_000_000 + i * 13);
  return JSON.stringify({ company_name: `Statistik ${i} Lojistik A.Ş.`, tax_id: stem + vknCheckDigit(stem), country: 'TR', city: 'Bursa', reports: [] });
};

for (const engine of ENGINES.filter((e) => e.name === 'postgres')) {
  describe(`statistics after a large import [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    const lastAnalyzed = async () => {
      const { rows } = await sql<{ analyzed: unknown; vacuumed: unknown }>`SELECT last_analyze AS analyzed, last_vacuum AS vacuumed
        FROM pg_stat_user_tables WHERE relname = 'companies'`.execute(database.engine.db);
      return rows[0]!;
    };

    test('a small import leaves them to autovacuum; 10 000 companies refresh them', async () => {
      const clock = fixedClock(NOON_TR);
      await importLines(database.engine, [line(0)], 'test', { countries, clock });
      assert.equal((await lastAnalyzed()).analyzed, null);
      await importLines(
        database.engine,
        Array.from({ length: 10_000 }, (_, i) => line(i + 1)),
        'test',
        { countries, clock },
      );
      // The statistics collector reports asynchronously: wait for it briefly.
      let seen = await lastAnalyzed();
      for (let i = 0; i < 50 && (seen.analyzed === null || seen.vacuumed === null); i++) {
        await new Promise((r) => setTimeout(r, 100));
        seen = await lastAnalyzed();
      }
      assert.notEqual(seen.analyzed, null);
      assert.notEqual(seen.vacuumed, null);
    });
  });
}
