/**
 * The import and retention (D34), on both engines: an imported report carries the anchor the
 * daily job's rule gives it (compared with the job's own computation), so the job's first run
 * after an import has no anchor to work out; a report already past its retention end when it is
 * imported arrives `expired` (never visible, its history saying why, kept for the operators for
 * the full period), in the import's one transaction; and the purge of old lookup counts goes in
 * batches, each its own statement.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, makeClaimants, makeCompanies, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { addMonths, startOfTurkeyDay } from '../src/lib/calendar-date.ts';
import type { RecordCompanyChanges } from '../src/events/company-changes.ts';
import { importLines, ImportFailed } from '../src/import/import.service.ts';
import { buildCountryCatalogue } from '../src/countries/catalogue.ts';
import { createRetention, LOOKUP_PURGE_BATCH, RETENTION_JOB_ACTOR } from '../src/retention/retention.service.ts';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings.ts';

const countries = buildCountryCatalogue();
/** A Turkey date at noon Turkey time. */
const at = (date: string) => startOfTurkeyDay(date) + 12 * 3_600_000;
const NOW = at('2026-11-21');
const noSeam: RecordCompanyChanges = () => Promise.resolve(0);
const enforcement = (caseFields: Record<string, string>, extra: Record<string, unknown> = {}) =>
  makeReport({ type: 'enforcement_plain', case: { enforcement_office: 'Ankara 2. İcra Dairesi', file_number: '2024/77', ...caseFields }, ...extra });

/** Counts the DELETE statements on one table and the rows each deleted. */
function deleteCounter(table: string) {
  const deleted: number[] = [];
  const ours = new WeakSet<object>();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node;
      if (node.kind === 'DeleteQueryNode' && JSON.stringify(node.from).includes(`"${table}"`)) ours.add(args.queryId);
      return node;
    },
    transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (ours.has(args.queryId)) deleted.push(Number(args.result.numAffectedRows ?? 0));
      return Promise.resolve(args.result);
    },
  };
  return { plugin, deleted };
}

for (const engine of ENGINES) {
  describe(`retention of imported reports (D34) [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, fixedClock(NOW), 2);
    });
    after(async () => {
      await database?.drop();
    });
    const db = () => database.engine.db;
    const reportsOf = (taxIds: readonly string[]) =>
      db()
        .selectFrom('reports')
        .innerJoin('companies', 'companies.id', 'reports.company_id')
        .select(['reports.id', 'reports.ref', 'reports.status', 'reports.retention_anchor', 'reports.expired_at', 'companies.visible_report_count'])
        .where('companies.tax_id_norm', 'in', [...taxIds])
        .orderBy('reports.id')
        .execute();

    test('an imported report carries the anchor the job works out; the job’s next run has none to fill', async () => {
      // Every source of an anchor, and a typo'd year after the filing (read as the filing's date); none past its end at NOW.
      const specs = [
        { company_name: 'Çapa Dosya A.Ş.', reports: [enforcement({ date: '2024-03-15' }, { filed_at: '2024-04-01 09:00:00' })] },
        { company_name: 'Çapa Temlik A.Ş.', reports: [makeReport({ type: 'debt_assigned', case: { assignment_date: '2023-12-31' } })] },
        { company_name: 'Çapa Karar A.Ş.', reports: [makeReport({ type: 'court_decision', court_decision_date: '2025-02-28' })] },
        { company_name: 'Çapa Konkordato A.Ş.', reports: [makeReport({ type: 'concordat', concordat_start: '2025-06-01', concordat_end: '2026-06-30' })] },
        { company_name: 'Çapa Senet A.Ş.', reports: [makeReport({ type: 'bounced_cheque', filed_at: '2026-01-01 01:30:00' })] },
        { company_name: 'Çapa Yazım A.Ş.', reports: [enforcement({ date: '2062-05-01' }, { filed_at: '2025-08-09 23:30:00' })] },
        {
          company_name: 'Çapa Alacak A.Ş.',
          reports: [
            makeReport({ type: 'unpaid_debt', reported_by: 'M-CLAIM-1', filed_at: '2025-05-05 10:00:00' }),
            makeReport({ type: 'unpaid_debt', reported_by: 'M-CLAIM-2', filed_at: '2025-05-06 10:00:00' }),
          ],
        },
      ];
      const taxIds = await makeCompanies(database.engine, fixedClock(NOW), specs);
      const imported = await reportsOf(taxIds);
      assert.equal(imported.length, 8);
      assert.ok(
        imported.every((r) => r.retention_anchor !== null && r.status === 'approved'),
        'every imported report has its anchor, none expired',
      );
      assert.deepEqual(
        imported.slice(0, 6).map((r) => r.retention_anchor),
        ['2024-03-15', '2023-12-31', '2025-02-28', '2026-06-30', '2026-01-01', '2025-08-09'],
      );

      const retention = createRetention({ db: db(), clock: fixedClock(NOW), settings: DEFAULT_RETENTION, recordCompanyChanges: noSeam });
      const plan = await retention.plan();
      assert.equal(plan.anchorsFilled, 0, 'the dry run finds no anchor to work out');
      const first = await retention.run(RETENTION_JOB_ACTOR);
      assert.equal(first.anchorsFilled, 0, 'a run right after the import has no anchor to fill');
      assert.equal(first.expired.count, 0);

      // The job's own computation: forget the anchors, let the job work them out, compare.
      const ids = imported.map((r) => Number(r.id));
      await db().updateTable('reports').set({ retention_anchor: null }).where('id', 'in', ids).execute();
      const refill = await retention.run(RETENTION_JOB_ACTOR);
      assert.ok(refill.anchorsFilled >= ids.length);
      const byJob = await reportsOf(taxIds);
      assert.deepEqual(
        imported.map((r) => [r.ref, r.retention_anchor]),
        byJob.map((r) => [r.ref, r.retention_anchor]),
      );
    });

    test('a report already past its end arrives expired: never visible, its history says why, kept the full period; the job has nothing to do', async () => {
      const importedAt = NOW;
      const lines = [
        // 60 months from 2021-06-01 ended 2026-06-01: past. The 2024 one is not.
        companyLine({ company_name: 'Süresi Geçmiş Nakliyat A.Ş.', reports: [enforcement({ date: '2021-06-01' }), enforcement({ date: '2024-01-10' })] }),
        // Only past reports: the company is in no answer.
        companyLine({ company_name: 'Tamamen Eski Gıda Ltd. Şti.', reports: [enforcement({ date: '2019-02-02' }, { status: 'pending' })] }),
        // Two claims make a consensus; one of them past its 36 months: the other alone is not visible.
        companyLine({
          company_name: 'Yarım Konsensüs Tekstil A.Ş.',
          reports: [
            makeReport({ type: 'unpaid_debt', reported_by: 'M-CLAIM-1', filed_at: '2023-01-01 10:00:00' }),
            makeReport({ type: 'unpaid_debt', reported_by: 'M-CLAIM-2', filed_at: '2025-01-01 10:00:00' }),
          ],
        }),
      ];
      // With a bad line the import writes nothing at all, the expired ones neither (one transaction).
      await assert.rejects(importLines(database.engine, [...lines, '{"company_name":""}'], 'test', { countries, clock: fixedClock(importedAt) }), ImportFailed);
      assert.deepEqual(await reportsOf(lines.map((l) => (JSON.parse(l) as { tax_id: string }).tax_id)), []);
      const summary = await importLines(database.engine, lines, 'test', { countries, clock: fixedClock(importedAt) });
      assert.equal(summary.reportsAdded, 5);
      assert.equal(summary.reportsExpired, 3);
      const taxIds = lines.map((l) => (JSON.parse(l) as { tax_id: string }).tax_id);
      const rows = await reportsOf(taxIds);
      assert.deepEqual(
        rows.map((r) => [r.status, r.expired_at === null ? null : Number(r.expired_at), Number(r.visible_report_count)]),
        [
          ['expired', importedAt, 1],
          ['approved', null, 1],
          ['expired', importedAt, 0],
          ['expired', importedAt, 0],
          ['approved', null, 0],
        ],
      );
      const history = await db()
        .selectFrom('report_status_changes')
        .select(['report_id', 'from_status', 'to_status', 'reason', 'changed_at', 'changed_by'])
        .where('report_id', '=', rows[2]!.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        history.map((h) => [h.from_status, h.to_status, h.reason, Number(h.changed_at), h.changed_by]),
        [
          [null, 'pending', null, importedAt, 'test'],
          // By the service itself, as the job's expiry: the disclosure says so.
          ['pending', 'expired', 'retention period ended (D34)', importedAt, 'system:retention'],
        ],
      );

      const retention = (now: number) => createRetention({ db: db(), clock: fixedClock(now), settings: DEFAULT_RETENTION, recordCompanyChanges: noSeam });
      const next = await retention(NOW + 86_400_000).run(RETENTION_JOB_ACTOR);
      assert.equal(next.anchorsFilled, 0);
      assert.deepEqual(next.expired.byType.enforcement_plain?.filter((id) => rows.some((r) => Number(r.id) === id)) ?? [], []);
      // Kept for the operators 24 months from the import (when it was expired), then deleted.
      const expiredIds = rows.filter((r) => r.status === 'expired').map((r) => Number(r.id));
      const justBefore = await retention(startOfTurkeyDay(addMonths('2026-11-21', 24)) - 1).run(RETENTION_JOB_ACTOR);
      assert.deepEqual(
        justBefore.deleted.ids.filter((id) => expiredIds.includes(id)),
        [],
      );
      const due = await retention(startOfTurkeyDay(addMonths('2026-11-21', 24))).run(RETENTION_JOB_ACTOR);
      assert.deepEqual(
        due.deleted.ids.filter((id) => expiredIds.includes(id)),
        expiredIds,
      );
    });

    test('a report updated by ref gets the anchor of its new dates, and expires in the import when they are past', async () => {
      const [taxId] = await makeCompanies(database.engine, fixedClock(NOW), [
        { company_name: 'Düzeltilen Dosya A.Ş.', reports: [enforcement({ date: '2024-05-05' }, { ref: 'FIX-1' })] },
      ]);
      const [before] = await reportsOf([taxId!]);
      assert.equal(before!.retention_anchor, '2024-05-05');
      const line = companyLine({ company_name: 'Düzeltilen Dosya A.Ş.', tax_id: taxId!, reports: [enforcement({ date: '2020-05-05' }, { ref: 'FIX-1' })] });
      const summary = await importLines(database.engine, [line], 'test', { countries, clock: fixedClock(NOW) });
      assert.deepEqual([summary.reportsUpdated, summary.reportsExpired], [1, 1]);
      const [after] = await reportsOf([taxId!]);
      assert.deepEqual([after!.retention_anchor, after!.status, Number(after!.visible_report_count)], ['2020-05-05', 'expired', 0]);
    });

    test('old lookup counts are purged in batches, each its own short statement', async () => {
      const [taxId] = await makeCompanies(database.engine, fixedClock(NOW), [{ company_name: 'Sayaç Lojistik A.Ş.' }]);
      const company = await db().selectFrom('companies').select('id').where('tax_id_norm', '=', taxId!).executeTakeFirstOrThrow();
      const old = 2 * LOOKUP_PURGE_BATCH + 7;
      // Company ids need not exist for the counts (no foreign key): many companies, two old months each, one recent.
      const rows: Array<{ company_id: number; month: string; lookups: number }> = [];
      for (let i = 0; i < old; i++) rows.push({ company_id: 1_000_000 + Math.floor(i / 2), month: i % 2 === 0 ? '2024-01' : '2025-10', lookups: 1 });
      rows.push({ company_id: Number(company.id), month: '2026-10', lookups: 3 });
      for (let i = 0; i < rows.length; i += 500)
        await db()
          .insertInto('company_lookups')
          .values(rows.slice(i, i + 500))
          .execute();

      const counter = deleteCounter('company_lookups');
      const retention = createRetention({
        db: db().withPlugin(counter.plugin),
        clock: fixedClock(NOW),
        settings: DEFAULT_RETENTION,
        recordCompanyChanges: noSeam,
      });
      const outcome = await retention.run(RETENTION_JOB_ACTOR);
      assert.equal(outcome.lookupMonths.deleted, old);
      assert.ok(counter.deleted.length >= 3, `${counter.deleted.length} statement(s)`);
      assert.ok(
        counter.deleted.every((n) => n <= LOOKUP_PURGE_BATCH + 12),
        `rows per statement: ${counter.deleted.join(', ')}`,
      );
      const left = await db().selectFrom('company_lookups').select(['company_id', 'month']).execute();
      assert.deepEqual(
        left.map((r) => [Number(r.company_id), r.month]),
        [[Number(company.id), '2026-10']],
      );
    });
  });
}
