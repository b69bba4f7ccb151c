/**
 * The retention purge (D34) unlinks every deleted report from the disputes over it (D33): those
 * look-ups by `report_id` go through an index (migration 0022), never a scan of the disputes'
 * steps and documents, whose tables only grow.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';

for (const engine of ENGINES) {
  describe(`disputes' links to a report, when reports are deleted [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    /** The engine's plan of a statement, one line per step. */
    async function planOf(statement: string): Promise<string> {
      const { db } = database.engine;
      if (engine.name === 'sqlite') {
        const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`).execute(db);
        return plan.rows.map((r) => r.detail).join('\n');
      }
      // The tables are empty: a sequential scan is honestly cheapest; forbid it to see the index.
      const plan = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        return sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`).execute(trx);
      });
      return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    }

    for (const table of ['dispute_steps', 'dispute_attachments']) {
      test(`${table}: the purge's unlinking and the deleted reports' key checks find the rows by index`, async () => {
        const plan = await planOf(`UPDATE ${table} SET report_id = NULL WHERE report_id IN (1, 2, 3)`);
        assert.match(plan, new RegExp(`${table}_report`), plan);
        assert.doesNotMatch(plan, engine.name === 'sqlite' ? new RegExp(`SCAN ${table}\\b`) : new RegExp(`Seq Scan on ${table}`), plan);
      });
    }
  });
}
