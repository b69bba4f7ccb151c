/**
 * The retention's expiry of many reports at once (D34, D31): hundreds of due reports over several
 * batches leave every company with the visible count its remaining reports give (D12, consensus
 * lost included), tell the watchers' seam about exactly the companies whose visible reports
 * changed, inside the expiry's transaction, and write one history row and one operator-log
 * mention per report — as expiring them one at a time would. On SQLite, every statement that
 * changes the reports goes by their ids: with no statistics SQLite took the status index and read
 * every report of that status for each batch (0.85 ms a report at 10^6, docs/benchmarks.md).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeClaimants, makeCompanies, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { startOfTurkeyDay } from '../src/lib/calendar-date.ts';
import type { CompanyChange, RecordCompanyChanges } from '../src/events/company-changes.ts';
import { createRetention, RETENTION_JOB_ACTOR } from '../src/retention/retention.service.ts';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { visibleReports } from '../src/reports/visibility.ts';
import type { ReportStatus } from '../src/reports/lifecycle.ts';
import type { ReportType } from '../src/reports/report-types.ts';

const at = (date: string) => startOfTurkeyDay(date) + 12 * 3_600_000;
const NOW = at('2026-11-21');
/** Imported before any of these reports' ends: they arrive visible (an import writes one past its end expired). */
const IMPORTED = fixedClock(at('2024-06-01'));
const enforcement = (date: string) =>
  makeReport({
    type: 'enforcement_plain',
    case: { enforcement_office: 'İzmir 1. İcra Dairesi', file_number: `${date}/1`, date },
    filed_at: '2024-05-01 10:00:00',
  });
const claim = (member: string, filedAt: string) => makeReport({ type: 'unpaid_debt', reported_by: member, filed_at: filedAt });

/** Companies of five shapes, `n` of each: what each should look like after the run is worked out from its rows. */
function specs(n: number) {
  const out = [];
  for (let i = 0; i < n; i++) {
    // Two due files, one not: the count goes 3 → 1.
    out.push({ company_name: `Toplu Üç Dosya ${i} A.Ş.`, reports: [enforcement('2020-01-10'), enforcement('2021-02-02'), enforcement('2024-01-01')] });
    // Every report due: out of every answer.
    out.push({ company_name: `Toplu Hepsi Eski ${i} Ltd. Şti.`, reports: [enforcement('2019-09-09'), enforcement('2021-11-20')] });
    // A claim due and one not, with a file due: consensus lost, nothing left visible.
    out.push({
      company_name: `Toplu Konsensüs ${i} A.Ş.`,
      reports: [claim('M-CLAIM-1', '2023-05-05 10:00:00'), claim('M-CLAIM-2', '2024-05-05 10:00:00'), enforcement('2020-06-06')],
    });
    // Two claims, none due, and a due file: with the file gone the claims' consensus (2) is short of 2.5: nothing visible.
    out.push({
      company_name: `Toplu Dosyasız ${i} A.Ş.`,
      reports: [claim('M-CLAIM-1', '2024-02-02 10:00:00'), claim('M-CLAIM-2', '2024-03-03 10:00:00'), enforcement('2021-01-01')],
    });
    // Nothing due: no change, no event.
    out.push({ company_name: `Toplu Yeni ${i} A.Ş.`, reports: [enforcement('2024-02-01')] });
  }
  return out;
}

function seamSpy() {
  const told: Array<{ changes: readonly CompanyChange[]; inTransaction: boolean }> = [];
  const record: RecordCompanyChanges = (trx, _atMs, changes) => {
    told.push({ changes, inTransaction: trx.isTransaction });
    return Promise.resolve(0);
  };
  return { told, record };
}

/** Remembers every UPDATE and DELETE on `reports` the run sends, to ask SQLite how it runs them. */
function reportWrites() {
  const nodes: Array<{ node: RootOperationNode; queryId: PluginTransformQueryArgs['queryId'] }> = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      const { node } = args;
      const target = node.kind === 'UpdateQueryNode' ? JSON.stringify(node.table) : node.kind === 'DeleteQueryNode' ? JSON.stringify(node.from) : '';
      if (target.includes('"reports"')) nodes.push({ node, queryId: args.queryId });
      return node;
    },
    transformResult: (args): Promise<QueryResult<UnknownRow>> => Promise.resolve(args.result),
  };
  return { plugin, nodes };
}

for (const engine of ENGINES) {
  describe(`retention: many reports in one run [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, IMPORTED, 2);
    });
    after(async () => {
      await database?.drop();
    });
    const db = () => database.engine.db;

    async function companyRows(taxIds: readonly string[]) {
      const companies = await db()
        .selectFrom('companies')
        .select(['id', 'tax_id_norm', 'country', 'visible_report_count'])
        .where('tax_id_norm', 'in', [...taxIds])
        .orderBy('id')
        .execute();
      const reports = await db()
        .selectFrom('reports')
        .select(['id', 'company_id', 'type', 'status', 'reported_by'])
        .where(
          'company_id',
          'in',
          companies.map((c) => c.id),
        )
        .orderBy('id')
        .execute();
      return companies.map((c) => ({
        key: `${c.country}:${c.tax_id_norm}`,
        stored: Number(c.visible_report_count),
        visibleIds: visibleReports(
          reports
            .filter((r) => Number(r.company_id) === Number(c.id))
            .map((r) => ({
              id: Number(r.id),
              type: r.type as ReportType,
              status: r.status as ReportStatus,
              reportedBy: r.reported_by === null ? null : Number(r.reported_by),
            })),
        ).map((r) => r.id),
        reportIds: reports.filter((r) => Number(r.company_id) === Number(c.id)).map((r) => Number(r.id)),
      }));
    }

    test('hundreds of due reports over several batches: the counts, the watchers and the history are those of one-at-a-time expiry', async () => {
      const taxIds = await makeCompanies(database.engine, IMPORTED, specs(50));
      const before = await companyRows(taxIds);
      assert.ok(
        before.every((c) => c.stored === c.visibleIds.length),
        'the import stored the counts',
      );

      const spy = seamSpy();
      const writes = reportWrites();
      const outcome = await createRetention({
        db: db().withPlugin(writes.plugin),
        clock: fixedClock(NOW),
        settings: DEFAULT_RETENTION,
        recordCompanyChanges: spy.record,
      }).run(RETENTION_JOB_ACTOR);
      const expected = 50 * (2 + 2 + 2 + 1);
      assert.equal(outcome.expired.count, expected);
      assert.ok(expected > 200, 'more than one batch');

      const afterRun = await companyRows(taxIds);
      // Each company's stored count is what its remaining reports give (D12), as one-at-a-time expiry leaves it.
      for (const c of afterRun) assert.equal(c.stored, c.visibleIds.length, c.key);
      assert.deepEqual(
        afterRun.map((c) => c.stored),
        Array.from({ length: 50 }, () => [1, 0, 0, 0, 1]).flat(),
      );
      // The watchers: told in the expiry's transaction, about exactly the companies whose visible reports changed.
      assert.ok(spy.told.every((t) => t.inTransaction));
      const told = new Set(spy.told.flatMap((t) => t.changes.map((c) => `${c.country}:${c.taxIdNorm}`)));
      const changed = new Set(afterRun.filter((c, i) => c.visibleIds.join() !== before[i]!.visibleIds.join()).map((c) => c.key));
      assert.deepEqual([...told].sort(), [...changed].sort());
      assert.equal(changed.size, 4 * 50);

      // One history row and one operator-log mention per expired report.
      const expiredIds = Object.values(outcome.expired.byType)
        .flat()
        .sort((a, b) => a - b);
      const history = await db()
        .selectFrom('report_status_changes')
        .select('report_id')
        .where('to_status', '=', 'expired')
        .where('report_id', 'in', expiredIds)
        .execute();
      assert.deepEqual(
        history.map((h) => Number(h.report_id)).sort((a, b) => a - b),
        expiredIds,
      );
      const logged = (await listOperatorLog(db(), { limit: 1000 }))
        .filter((e) => e.action === 'retention.expire')
        .flatMap((e) => (e.after as { ids: number[] }).ids)
        .sort((a, b) => a - b);
      assert.deepEqual(logged, expiredIds);

      if (engine.name === 'sqlite') {
        // Every write to the reports went by their ids: none read an index of another column whole.
        assert.ok(writes.nodes.length > 0);
        for (const { node, queryId } of writes.nodes) {
          const compiled = db().getExecutor().compileQuery(node, queryId);
          const plan = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
          const steps = plan.rows.map((r) => r.detail).filter((d) => / reports /.test(`${d} `));
          assert.ok(
            steps.every((d) => /INTEGER PRIMARY KEY/.test(d)),
            `${compiled.sql}\n${steps.join('\n')}`,
          );
        }
      }
    });
  });
}
