/**
 * Ageing and retention (D34) on both engines with a fake clock: reports past their retention end
 * leave search at once (the search cache too: the data version moves in the expiry's
 * transaction), their attachments go, the record stays as `expired` for the operators and is
 * deleted with its history 24 months later; audit records after a year; the watchers' seam is
 * called for every company whose visible reports changed; every step is in the operator log. The
 * daily job on the runner: a missed day is caught up, two processes starting it at once run it
 * once; two runs meeting expire each report once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeClaimants, makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { captureLog, secondProcess } from './helpers/jobs.ts';
import { runCli } from './helpers/cli.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { createJobRunner } from '../src/jobs/job-runner.ts';
import type { Engine } from '../src/db/connect.ts';
import type { CompanyChange, RecordCompanyChanges } from '../src/events/company-changes.ts';
import { createRetention, RETENTION_JOB_ACTOR } from '../src/retention/retention.service.ts';
import { retentionJob } from '../src/retention/retention.job.ts';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings.ts';
import { startOfTurkeyDay } from '../src/lib/calendar-date.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { listMyReports } from '../src/reports/report-queries.service.ts';

const DAY = 86_400_000;
/** A Turkey date at HH:00 Turkey time. */
const at = (date: string, hour = 12) => startOfTurkeyDay(date) + hour * 3_600_000;
/**
 * When these tests' reports were imported: before their retention ends, so they arrive visible
 * and the job expires them when due (an import writes a report already past its end `expired`
 * at once: test/retention-import.test.ts).
 */
const IMPORTED = fixedClock(at('2025-01-01'));
const enforcement = (date: string, extra: Record<string, unknown> = {}) =>
  makeReport({ type: 'enforcement_plain', case: { enforcement_office: 'İstanbul 3. İcra Dairesi', file_number: '2021/1234', date }, ...extra });

/** A spy in place of the watchers' seam (its body is the watchlist's). */
function seamSpy() {
  const calls: Array<{ atMs: number; changes: readonly CompanyChange[]; inTransaction: boolean }> = [];
  const record: RecordCompanyChanges = async (trx, atMs, changes) => {
    calls.push({ atMs, changes, inTransaction: trx.isTransaction });
    return Promise.resolve(0);
  };
  return { calls, record };
}

for (const engine of ENGINES) {
  describe(`retention (D34) [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const others: Engine[] = [];
    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, {}, at('2026-11-21'));
      await makeClaimants(database.engine.db, t.clock, 1);
    });
    after(async () => {
      await t?.close();
      for (const other of others) await other.close().catch(() => {});
      await database?.drop();
    });
    const db = () => database.engine.db;
    const reportsOf = (taxId: string) =>
      db()
        .selectFrom('reports')
        .innerJoin('companies', 'companies.id', 'reports.company_id')
        .select(['reports.id', 'reports.status', 'reports.expired_at', 'reports.retention_anchor', 'reports.type'])
        .where('companies.tax_id_norm', '=', taxId)
        .orderBy('reports.id')
        .execute();

    test('expiry leaves search at once, deletes attachments, keeps the record as expired; deletion 24 months later with its history', async () => {
      const clock = fixedClock(at('2026-11-21'));
      t.clock.set(clock.now());
      const key = await makeKeyHolder(db(), clock, { ref: 'M-RET-SEARCH' });
      const [old, fresh, concordat] = await makeCompanies(database.engine, IMPORTED, [
        // Case dated 2021-06-01: 60 months end on 2026-06-01, past; the other one of 2024 is not.
        { company_name: 'Eski Dosya Nakliyat A.Ş.', reports: [enforcement('2021-06-01', { ref: 'OLD-1' }), enforcement('2024-01-10', { ref: 'OLD-2' })] },
        // Ends 2026-11-22: tomorrow.
        { company_name: 'Yarın Biten Ticaret Ltd. Şti.', reports: [enforcement('2021-11-22', { ref: 'FRESH-1' })] },
        // A concordat ends 12 months after its end: 2025-11-20 + 12 months = 2026-11-20, past.
        { company_name: 'Konkordato Gıda A.Ş.', reports: [makeReport({ type: 'concordat', concordat_start: '2024-11-20', concordat_end: '2025-11-20' })] },
      ]);
      const [oldOne] = await reportsOf(old!);
      await db()
        .insertInto('report_attachments')
        .values({
          report_id: oldOne!.id,
          file_name: 'icra.pdf',
          content_type: 'application/pdf',
          size_bytes: 9,
          sha256: 'x',
          content: Buffer.from('%PDF-1.4\n'),
          created_at: clock.now(),
        })
        .execute();

      // Warm the cache: the answer shows both reports.
      const before = await search(t.app, key, `q=${old}&type=tax_id&country=TR`);
      assert.equal(before.json<{ results: Array<{ report_count: number }> }>().results[0]!.report_count, 2);

      const spy = seamSpy();
      const retention = createRetention({ db: db(), clock, settings: DEFAULT_RETENTION, recordCompanyChanges: spy.record });
      const plan = await retention.plan();
      const first = await retention.run(RETENTION_JOB_ACTOR);
      assert.deepEqual(plan.expired, first.expired, 'the dry run named exactly what the run expired');
      assert.deepEqual(first.expired.byType.enforcement_plain, [oldOne!.id]);
      assert.equal(first.expired.byType.concordat?.length, 1);
      assert.equal(first.expired.count, 2);

      // Out of search at once, the cached answer too.
      const afterRun = await search(t.app, key, `q=${old}&type=tax_id&country=TR`);
      assert.equal(afterRun.json<{ results: Array<{ report_count: number }> }>().results[0]!.report_count, 1);
      const gone = await search(t.app, key, `q=${concordat}&type=tax_id&country=TR`);
      assert.equal(gone.json<{ result_count: number }>().result_count, 0, 'a company with nothing visible is not found');

      const rows = await reportsOf(old!);
      assert.deepEqual(
        rows.map((r) => [r.status, r.expired_at === null ? null : Number(r.expired_at)]),
        [
          ['expired', clock.now()],
          ['approved', null],
        ],
      );
      assert.deepEqual(
        rows.map((r) => r.retention_anchor),
        ['2021-06-01', '2024-01-10'],
      );
      const attachments = await db().selectFrom('report_attachments').select('id').where('report_id', '=', oldOne!.id).execute();
      assert.deepEqual(attachments, [], 'attachments deleted');
      const history = await db().selectFrom('report_status_changes').selectAll().where('report_id', '=', oldOne!.id).orderBy('id').execute();
      assert.deepEqual(
        history.slice(1).map((h) => [h.from_status, h.to_status, h.changed_by, h.reason]),
        [['approved', 'expired', 'system:retention', 'retention period ended (D34)']],
        'the import, then the expiry',
      );

      // The watchers' seam: once per batch, inside its transaction, for both companies (their visible reports changed).
      const told = spy.calls.flatMap((c) => c.changes.map((ch) => ch.taxIdNorm)).sort();
      assert.deepEqual(told, [old!, concordat!].sort());
      assert.ok(spy.calls.every((c) => c.inTransaction && c.atMs === clock.now()));

      // Operator log: what the job expired.
      const log = (await listOperatorLog(db())).filter((e) => e.action === 'retention.expire');
      assert.deepEqual(
        log
          .map((e) => (e.after as { ids: number[] }).ids)
          .flat()
          .sort(),
        [...first.expired.byType.enforcement_plain, ...first.expired.byType.concordat].sort(),
      );
      assert.ok(log.every((e) => e.actor === 'system:retention'));

      // Tomorrow the next one; run again today: nothing.
      assert.equal((await retention.run(RETENTION_JOB_ACTOR)).expired.count, 0);
      clock.advance(DAY);
      const tomorrow = await retention.run(RETENTION_JOB_ACTOR);
      assert.deepEqual(tomorrow.expired.byType.enforcement_plain, [(await reportsOf(fresh!))[0]!.id]);

      // Kept 24 months from the day it expired, then deleted with its history.
      clock.set(at('2028-11-20', 23));
      assert.equal((await retention.plan()).deleted.ids.includes(oldOne!.id), false, 'the day before: kept');
      clock.set(at('2028-11-21', 0));
      const deletion = await retention.run(RETENTION_JOB_ACTOR);
      assert.ok(deletion.deleted.ids.includes(oldOne!.id));
      assert.equal((await reportsOf(old!)).length, 1, 'only the 2024 report is left');
      const leftHistory = await db().selectFrom('report_status_changes').select('id').where('report_id', '=', oldOne!.id).execute();
      assert.deepEqual(leftHistory, []);
      const deletedLog = (await listOperatorLog(db())).find((e) => e.action === 'retention.delete');
      assert.ok((deletedLog?.after as { deleted: number[] }).deleted.includes(oldOne!.id));
    });

    test('audit records are purged after 365 days; the setting is the one of D21', async () => {
      const clock = fixedClock(at('2026-11-21'));
      const row = (ms: number) => ({ at: ms, status: 200, response_ms: 1, client_address: '127.0.0.1' });
      await db()
        .insertInto('audit_log')
        .values([row(clock.now() - 366 * DAY), row(clock.now() - 365 * DAY - 1000), row(clock.now() - 364 * DAY)])
        .execute();
      const retention = createRetention({ db: db(), clock, settings: DEFAULT_RETENTION, recordCompanyChanges: seamSpy().record });
      assert.equal((await retention.plan()).audit.deleted, 2);
      assert.equal((await retention.run(RETENTION_JOB_ACTOR)).audit.deleted, 2);
      const left = await db()
        .selectFrom('audit_log')
        .select('at')
        .where('at', '<', clock.now() - 300 * DAY)
        .execute();
      assert.deepEqual(
        left.map((r) => Number(r.at)),
        [clock.now() - 364 * DAY],
      );
      const purge = (await listOperatorLog(db())).find((e) => e.action === 'retention.purge');
      assert.equal((purge?.after as { audit_records_deleted: number }).audit_records_deleted, 2);
    });

    test('an expired report is the operators’ only: not in the member’s "My reports", and no step can be taken on it', async () => {
      const clock = fixedClock(at('2026-11-21'));
      const member = await db().selectFrom('members').select('id').where('ref', '=', 'M-CLAIM-1').executeTakeFirstOrThrow();
      const [taxId] = await makeCompanies(database.engine, IMPORTED, [
        {
          company_name: 'Eski Alacak Ticaret Ltd. Şti.',
          reports: [makeReport({ type: 'unpaid_debt', reported_by: 'M-CLAIM-1', filed_at: '2023-10-01 10:00:00' })],
        },
      ]);
      const [claim] = await reportsOf(taxId!);
      assert.ok((await listMyReports(db(), Number(member.id))).some((r) => r.report_id === claim!.id));
      await createRetention({ db: db(), clock, settings: DEFAULT_RETENTION, recordCompanyChanges: seamSpy().record }).run(RETENTION_JOB_ACTOR);
      assert.equal((await reportsOf(taxId!))[0]!.status, 'expired', 'a claim of 2023-10-01 ends 2026-10-01');
      assert.equal(
        (await listMyReports(db(), Number(member.id))).some((r) => r.report_id === claim!.id),
        false,
      );
    });

    test('the CLI: --dry-run names what a run would do and writes nothing; a run beside the job expires each report once', async () => {
      const clock = fixedClock(at('2026-11-21'));
      const taxIds = await makeCompanies(
        database.engine,
        IMPORTED,
        Array.from({ length: 30 }, (_, i) => ({ company_name: `Eşzamanlı Firma ${i} A.Ş.`, reports: [enforcement('2020-01-15')] })),
      );
      const ids = (await Promise.all(taxIds.map(reportsOf))).flat().map((r) => r.id);
      const dry = await runCli(['retention', 'run', '--dry-run', '--db', database.url, '--json']);
      assert.equal(dry.code, 0, dry.stderr);
      const planned = JSON.parse(dry.stdout) as { dry_run: boolean; expired: { byType: { enforcement_plain?: number[] } } };
      assert.equal(planned.dry_run, true);
      assert.deepEqual(
        planned.expired.byType.enforcement_plain?.filter((id) => ids.includes(id)),
        ids,
        'every one named, by id',
      );
      assert.ok(
        (await Promise.all(taxIds.map(reportsOf))).flat().every((r) => r.status === 'approved'),
        'nothing written',
      );
      const text = await runCli(['retention', 'run', '--dry-run', '--db', database.url]);
      assert.match(text.stdout, /^dry run, nothing written at /m);
      assert.match(text.stdout, /would expire \d+ report\(s\)\n {2}enforcement_plain: \d+: /);

      // The job in this process and an operator's `retention run` in another, at once: a real
      // second process (two SQLite connections in one process would wait on each other's lock).
      const retention = createRetention({ db: db(), clock, settings: DEFAULT_RETENTION, recordCompanyChanges: seamSpy().record });
      const [mine, cli] = await Promise.all([
        retention.run(RETENTION_JOB_ACTOR),
        runCli(['retention', 'run', '--db', database.url, '--json'], { USER: 'tester' }),
      ]);
      assert.equal(cli.code, 0, cli.stderr);
      const theirs = (JSON.parse(cli.stdout) as { expired: { byType: { enforcement_plain?: number[] } } }).expired.byType.enforcement_plain ?? [];
      const expiredByEither = [...(mine.expired.byType.enforcement_plain ?? []), ...theirs].filter((id) => ids.includes(id)).sort((x, y) => x - y);
      assert.deepEqual(
        expiredByEither,
        [...ids].sort((x, y) => x - y),
        'every report expired, by exactly one of the two',
      );
      const changes = await db()
        .selectFrom('report_status_changes')
        .select('report_id')
        .where('report_id', 'in', ids)
        .where('to_status', '=', 'expired')
        .execute();
      assert.equal(changes.length, ids.length, 'one history row each');
      const logged = (await listOperatorLog(db(), { limit: 1000 }))
        .filter((e) => e.action === 'retention.expire')
        .flatMap((e) => (e.after as { ids: number[] }).ids)
        .filter((id) => ids.includes(id));
      assert.equal(logged.length, ids.length, 'each named once in the log');
      if (theirs.length > 0) assert.ok((await listOperatorLog(db(), { limit: 1000 })).some((e) => e.actor === 'cli:tester' && e.action === 'retention.expire'));
    });

    test('the CLI refuses bad settings by name, and 0 days of audit (once "forever")', async () => {
      const zero = await runCli(['retention', 'run', '--dry-run', '--db', database.url], { RISKLOOKUP_AUDIT_RETENTION_DAYS: '0' });
      assert.equal(zero.code, 1);
      assert.match(zero.stderr, /RISKLOOKUP_AUDIT_RETENTION_DAYS=0 used to keep search audit records forever; D34 deletes them after a year/);
      assert.match(zero.stderr, /nothing was expired or deleted/);
      const bad = await runCli(['retention', 'run', '--db', database.url], { RISKLOOKUP_RETENTION_MONTHS_UNPAID_DEBT: '72' });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /lower RISKLOOKUP_RETENTION_MONTHS_UNPAID_DEBT to 60 or less/);
    });

    test('the daily job: a missed day is caught up by the first process to start; two processes starting it at once run it once', async () => {
      // The job last ran on the 21st; every process was down on the 22nd and 23rd.
      await db().deleteFrom('job_state').where('name', '=', 'retention').execute();
      const clock = fixedClock(at('2026-11-21', 3));
      const [taxId] = await makeCompanies(database.engine, clock, [{ company_name: 'Kaçırılan Gün Lojistik A.Ş.', reports: [enforcement('2021-11-23')] }]);
      const runs: number[] = [];
      const runnerOn = (on: Engine, holder: string) => {
        const retention = createRetention({ db: on.db, clock, settings: DEFAULT_RETENTION, recordCompanyChanges: seamSpy().record });
        const runner = createJobRunner({ db: on.db, engineKind: engine.name, clock, log: captureLog(), holder, settings: { pollMs: 3_600_000 } });
        runner.addPeriodic(
          retentionJob({
            retention: { run: async (actor, signal) => (runs.push(clock.now()), retention.run(actor, signal)) },
            log: captureLog(),
          }),
        );
        return runner;
      };
      const first = runnerOn(database.engine, 'first');
      await first.start();
      await first.whenIdle();
      assert.equal((await reportsOf(taxId!))[0]!.status, 'approved', 'ends on the 23rd');
      await first.drain();

      // The 24th at 09:00: two processes start at once; one runs the missed day's job, once.
      clock.set(at('2026-11-24', 9));
      const other = secondProcess(database);
      others.push(other);
      const a = runnerOn(database.engine, 'a');
      const b = runnerOn(other, 'b');
      runs.length = 0;
      await Promise.all([a.start(), b.start()]);
      await Promise.all([a.whenIdle(), b.whenIdle()]);
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.whenIdle(), b.whenIdle()]);
      assert.equal(runs.length, 1, 'one of the two did the work, once');
      assert.equal((await reportsOf(taxId!))[0]!.status, 'expired', 'caught up: expired');
      const state = await db().selectFrom('job_state').selectAll().where('name', '=', 'retention').executeTakeFirstOrThrow();
      assert.equal(Number(state.next_due_at), at('2026-11-25', 3), 'then keeps its hour: 03:00 the next day');
      await Promise.all([a.drain(), b.drain()]);
    });
  });
}
