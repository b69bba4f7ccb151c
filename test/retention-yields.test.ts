/**
 * The retention's long run lets the process do other work between its batches (issue: on a fresh
 * 10^6 import the first run held every HTTP answer and SIGTERM for minutes, better-sqlite3 being
 * synchronous), and a drain stops it after the batch in hand, everything before committed whole:
 * each expired report with its history row and its line in the operator log; the next run takes
 * the rest. Both engines; 500 reports due, so three batches of 200.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeClaimants, makeCompanies, makeReport } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import type { RecordCompanyChanges } from '../src/events/company-changes.ts';
import { createRetention, RETENTION_JOB_ACTOR } from '../src/retention/retention.service.ts';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings.ts';
import { startOfTurkeyDay } from '../src/lib/calendar-date.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';

const DUE = 500;
const NOW = startOfTurkeyDay('2026-11-21') + 12 * 3_600_000;

for (const engine of ENGINES) {
  describe(`retention between batches [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, fixedClock(NOW), 1);
    });
    after(async () => {
      await database?.drop();
    });
    const db = () => database.engine.db;

    /** DUE companies, each with one enforcement case of 2020: past its 60 months. */
    async function dueReports(prefix: string) {
      const specs = Array.from({ length: DUE }, (_, i) => ({
        company_name: `${prefix} Yığın ${i} Ticaret A.Ş.`,
        reports: [
          makeReport({ type: 'enforcement_plain', case: { enforcement_office: 'İstanbul 3. İcra Dairesi', file_number: `2020/${i}`, date: '2020-03-01' } }),
        ],
      }));
      // Imported before their end (2025-03-01): an import writes a report already past it `expired` at once.
      const taxIds = await makeCompanies(database.engine, fixedClock(startOfTurkeyDay('2025-02-01')), specs);
      const rows = await db()
        .selectFrom('reports')
        .innerJoin('companies', 'companies.id', 'reports.company_id')
        .select('reports.id')
        .where('companies.tax_id_norm', 'in', taxIds)
        .execute();
      return rows.map((r) => Number(r.id));
    }

    const noSeam: RecordCompanyChanges = () => Promise.resolve(0);

    test('timers and other callbacks run between the batches of a long run', async () => {
      const ids = await dueReports('Sıra');
      const retention = createRetention({ db: db(), clock: fixedClock(NOW), settings: DEFAULT_RETENTION, recordCompanyChanges: noSeam });
      let done = false;
      let turnsDuringRun = 0;
      const tick = () => {
        if (done) return;
        turnsDuringRun++;
        setImmediate(tick);
      };
      setImmediate(tick);
      const outcome = await retention.run(RETENTION_JOB_ACTOR);
      done = true;
      assert.equal(outcome.expired.count, ids.length);
      // One turn at least before each of the three batches, the anchors' page and the deletion's and purge's first look.
      assert.ok(turnsDuringRun >= 3, `the event loop turned ${turnsDuringRun} time(s) during the run`);
    });

    test('a drain stops the run after the batch in hand; what it committed is whole, and the next run takes the rest', async () => {
      const ids = await dueReports('Durdur');
      const stop = new AbortController();
      let batchesSeen = 0;
      // The signal comes from outside the run (as SIGTERM does): a callback queued during the first batch.
      const seam: RecordCompanyChanges = () => {
        batchesSeen++;
        if (batchesSeen === 1) setImmediate(() => stop.abort(new Error('draining')));
        return Promise.resolve(0);
      };
      const retention = createRetention({ db: db(), clock: fixedClock(NOW), settings: DEFAULT_RETENTION, recordCompanyChanges: seam });
      await assert.rejects(retention.run(RETENTION_JOB_ACTOR, stop.signal), /draining/);
      assert.equal(batchesSeen, 1, 'no batch after the drain began');

      const statuses = await db().selectFrom('reports').select(['id', 'status']).where('id', 'in', ids).execute();
      const expired = statuses.filter((r) => r.status === 'expired').map((r) => Number(r.id));
      assert.equal(expired.length, 200, 'exactly the first batch, committed whole');
      const history = await db()
        .selectFrom('report_status_changes')
        .select('report_id')
        .where('report_id', 'in', ids)
        .where('to_status', '=', 'expired')
        .execute();
      assert.deepEqual(
        history.map((h) => Number(h.report_id)).sort((a, b) => a - b),
        [...expired].sort((a, b) => a - b),
        'a history row for each, no more',
      );
      const logged = (await listOperatorLog(db(), { limit: 1000 }))
        .filter((e) => e.action === 'retention.expire')
        .flatMap((e) => (e.after as { ids: number[] }).ids)
        .filter((id) => ids.includes(id));
      assert.deepEqual(
        [...logged].sort((a, b) => a - b),
        [...expired].sort((a, b) => a - b),
        'each named once in the operator log',
      );

      const rest = await createRetention({ db: db(), clock: fixedClock(NOW), settings: DEFAULT_RETENTION, recordCompanyChanges: noSeam }).run(
        RETENTION_JOB_ACTOR,
      );
      assert.equal(rest.expired.count, ids.length - 200, 'the next run expires the rest, none twice');
      const left = await db().selectFrom('reports').select('id').where('id', 'in', ids).where('status', '!=', 'expired').execute();
      assert.equal(left.length, 0);
    });
  });
}
