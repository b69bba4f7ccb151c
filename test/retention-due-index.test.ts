/**
 * The retention job's look-up of the reports due to expire (D34) pages through the reports it can
 * still expire, each page starting where the last one stopped: the index holds no expired report
 * (they keep their anchors for two more years) and the page's keyset bounds the index's range
 * (migration 0024). Before, every page reread the type's whole history from its oldest anchor: at
 * 10^6 a page took 1.25 s on PostgreSQL, past the statement timeout under load.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, type KyselyPlugin, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeCompanies, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { startOfTurkeyDay } from '../src/lib/calendar-date.ts';
import { listDueForExpiry, type DueKey } from '../src/retention/retention.repository.ts';

const at = (date: string) => startOfTurkeyDay(date) + 12 * 3_600_000;
/** Before any of these reports' ends: they arrive visible (an import writes one past its end expired). */
const IMPORTED = fixedClock(at('2023-06-01'));
const CUTOFF = '2021-11-21';
const file = (date: string, n: number) =>
  makeReport({
    type: 'enforcement_plain',
    case: { enforcement_office: 'İzmir 1. İcra Dairesi', file_number: `${date}/${n}`, date },
    filed_at: '2023-05-01 10:00:00',
  });

/** Remembers the SELECTs sent, to ask the engine how it runs them. */
function selects() {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === 'SelectQueryNode') nodes.push(args.node);
      return args.node;
    },
    transformResult: (args): Promise<QueryResult<UnknownRow>> => Promise.resolve(args.result),
  };
  return { plugin, nodes };
}

for (const engine of ENGINES) {
  describe(`retention: the reports due to expire, a page at a time [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      // Ties on one anchor across pages, several anchors, some already expired, some not yet due.
      const dates = [
        '2019-03-03',
        '2019-03-03',
        '2019-03-03',
        '2019-03-03',
        '2019-03-03',
        '2020-01-01',
        '2020-01-01',
        '2021-06-06',
        '2021-11-21',
        '2023-01-01',
      ];
      await makeCompanies(
        database.engine,
        IMPORTED,
        dates.map((date, i) => ({ company_name: `Vade Sayfa ${i} A.Ş.`, reports: [file(date, i), file(date, i + 100)] })),
      );
      const db = database.engine.db;
      const all = await db.selectFrom('reports').select(['id', 'retention_anchor']).orderBy('id').execute();
      assert.ok(
        all.every((r) => r.retention_anchor !== null),
        'the import works out every anchor',
      );
      // Every third report was expired by an earlier run: it keeps its anchor and must not come back.
      const expired = all.filter((_, i) => i % 3 === 0).map((r) => r.id);
      await db
        .updateTable('reports')
        .set({ status: 'expired', expired_at: at('2025-01-01') })
        .where('id', 'in', expired)
        .execute();
    });
    after(async () => {
      await database?.drop();
    });

    test('pages of 3 give each due report once, in (anchor, id) order, and none already expired or not yet due', async () => {
      const db = database.engine.db;
      const expected = await db
        .selectFrom('reports')
        .select(['id', 'retention_anchor'])
        .where('type', '=', 'enforcement_plain')
        .where('status', '<>', 'expired')
        .where('retention_anchor', '<=', CUTOFF)
        .orderBy('retention_anchor')
        .orderBy('id')
        .execute();
      assert.ok(expected.length > 6, 'enough due reports for several pages');
      const got: number[] = [];
      for (let after: DueKey = null; ;) {
        const page = await listDueForExpiry(db, 'enforcement_plain', CUTOFF, after, 3);
        got.push(...page.map((r) => r.id));
        if (page.length < 3) break;
        after = { anchor: page.at(-1)!.retention_anchor!, id: page.at(-1)!.id };
      }
      assert.deepEqual(
        got,
        expected.map((r) => Number(r.id)),
      );
    });

    test('a later page reads the index from where the last one stopped, and the index holds no expired report', async () => {
      const spy = selects();
      const db = database.engine.db.withPlugin(spy.plugin);
      await listDueForExpiry(db, 'enforcement_plain', CUTOFF, { anchor: '2020-01-01', id: 1 }, 3);
      assert.equal(spy.nodes.length, 1);
      const compiled = database.engine.db.getExecutor().compileQuery(spy.nodes[0]!, { queryId: 'plan' });
      const plan = await database.engine.db.transaction().execute(async (trx) => {
        if (engine.name === 'sqlite') {
          const rows = await trx.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
          return rows.rows.map((r) => r.detail).join('\n');
        }
        // A few rows: a sequential scan is honestly cheapest; forbid it to see the index's use.
        await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
        const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      assert.match(plan, /reports_retention_due/, plan);
      if (engine.name === 'sqlite') assert.match(plan, /retention_anchor>\?/, plan);
      else assert.match(plan, /Index Cond: .*retention_anchor >= /, plan);
      const indexes = await database.engine.seam.secondaryIndexes(database.engine.db, ['reports']);
      assert.ok(!indexes.some((i) => i.name === 'reports_retention'), 'the old index, with every expired report, is gone');
    });
  });
}
