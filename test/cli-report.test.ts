/**
 * `risklookup report status` (D11, D23) on reports filed through the portal (D29) and imported
 * ones: a reason to reject or deactivate (a usage error without one), the console's rules on a
 * filed report, and every step in the history with its reason and in the operator log (D30).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli } from './helpers/cli.ts';
import { readJson } from './helpers/bodies.ts';
import { NOON_TR } from './helpers/app.ts';
import { companyLine, countries, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { claimInput } from './helpers/filing.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { fileReport, type Filer } from './helpers/use-cases.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { listMyReports } from '../src/reports/report-queries.service.ts';

const clock = fixedClock(NOON_TR);
const dir = mkdtempSync(join(tmpdir(), 'risklookup-cli-report-'));

for (const engine of ENGINES) {
  describe(`risklookup report status [${engine.name}]`, () => {
    let database: TestDatabase;
    let cli: (...args: string[]) => ReturnType<typeof runCli>;
    let filer: Filer;

    before(async () => {
      database = await engine.create();
      cli = (...args) => runCli([...args, '--db', database.url], { USER: 'deniz' });
      const { db } = database.engine;
      await makeMember(db, clock, { ref: 'CLI-F' });
      filer = { userId: await makeUser(db, { email: 'u@cli-f.test', role: 'member_user', memberRef: 'CLI-F' }), memberId: await memberIdOf(db, 'CLI-F') };
    });
    after(async () => {
      await database?.drop();
    });

    const file = async () => (await fileReport({ db: database.engine.db, clock, countries }, filer, claimInput(nextVkn()))).reportId;
    const statusOf = async (id: number) =>
      (await database.engine.db.selectFrom('reports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    const lastStep = (id: number) =>
      database.engine.db.selectFrom('report_status_changes').selectAll().where('report_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const logOf = async (id: number) => (await listOperatorLog(database.engine.db, { limit: 1000 })).filter((e) => e.target === `report:${id}`);

    test('D29: rejecting a filed report needs --reason (usage error, nothing changes); with it, the member sees the reason and the log has it', async () => {
      const id = await file();
      const refused = await cli('report', 'status', String(id), 'rejected');
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /--reason/);
      assert.equal(await statusOf(id), 'pending');
      const blank = await cli('report', 'status', String(id), 'rejected', '--reason', '   ');
      assert.equal(blank.code, 2, blank.stderr);

      const done = await cli('report', 'status', String(id), 'rejected', '--reason', 'no such invoice', '--json');
      assert.equal(done.code, 0, done.stderr);
      assert.deepEqual(JSON.parse(done.stdout), { report_id: id, ref: null, from: 'pending', to: 'rejected', reason: 'no such invoice' });
      const step = await lastStep(id);
      assert.deepEqual(
        [step.from_status, step.to_status, step.changed_by, step.changed_by_user_id, step.reason],
        ['pending', 'rejected', 'cli:deniz', null, 'no such invoice'],
      );
      const mine = (await listMyReports(database.engine.db, filer.memberId)).find((r) => r.report_id === id)!;
      assert.deepEqual(mine.latest.reason, 'no such invoice');
      const log = await logOf(id);
      assert.equal(log.length, 1);
      assert.deepEqual(
        { actor: log[0]!.actor, userId: log[0]!.userId, action: log[0]!.action, before: log[0]!.before, after: log[0]!.after },
        { actor: 'cli:deniz', userId: null, action: 'report.reject', before: { status: 'pending' }, after: { status: 'rejected', reason: 'no such invoice' } },
      );
    });

    test("D29: on a filed report the CLI approves and deactivates (with --reason) but never withdraws the member's report; each step logged", async () => {
      const id = await file();
      const approved = await cli('report', 'status', String(id), 'approved');
      assert.equal(approved.code, 0, approved.stderr);
      const withdrawn = await cli('report', 'status', String(id), 'withdrawn');
      assert.equal(withdrawn.code, 1);
      assert.match(withdrawn.stderr, /only its filing member may withdraw it/);
      assert.equal((await cli('report', 'status', String(id), 'deactivated')).code, 2);
      const deactivated = await cli('report', 'status', String(id), 'deactivated', '--reason', 'court lifted the file');
      assert.equal(deactivated.code, 0, deactivated.stderr);
      assert.equal(await statusOf(id), 'deactivated');
      assert.deepEqual((await logOf(id)).map((e) => [e.action, e.actor, e.userId, (e.after as { status: string }).status]).reverse(), [
        ['report.approve', 'cli:deniz', null, 'approved'],
        ['report.deactivate', 'cli:deniz', null, 'deactivated'],
      ]);
      assert.equal((await lastStep(id)).reason, 'court lifted the file');
    });

    test('D11: imported reports keep their CLI steps (withdrawn needs no note), with --reason to reject or deactivate, and are logged', async () => {
      const line = join(dir, `imported-${engine.name}.jsonl`);
      writeFileSync(
        line,
        `${companyLine({ company_name: 'Cli Adım A.Ş.', reports: [makeReport({ ref: 'CR-1', status: 'pending' }), makeReport({ ref: 'CR-2', status: 'pending' })] })}\n`,
      );
      assert.equal((await cli('import', line)).code, 0);
      assert.equal((await cli('report', 'status', 'CR-1', 'rejected')).code, 2);
      const rejected = await cli('report', 'status', 'CR-1', 'rejected', '--reason', 'duplicate of CR-2', '--json');
      assert.equal(rejected.code, 0, rejected.stderr);
      assert.equal(readJson<{ reason: string }>(rejected.stdout).reason, 'duplicate of CR-2');
      assert.equal((await cli('report', 'status', 'CR-2', 'approved')).code, 0);
      const withdrawn = await cli('report', 'status', 'CR-2', 'withdrawn');
      assert.equal(withdrawn.code, 0, withdrawn.stderr);
      const illegal = await cli('report', 'status', 'CR-2', 'approved');
      assert.equal(illegal.code, 1);
      assert.match(illegal.stderr, /final and cannot become approved/);
      const ids = await database.engine.db.selectFrom('reports').select(['id', 'ref']).where('ref', 'in', ['CR-1', 'CR-2']).orderBy('ref').execute();
      assert.deepEqual(
        (await logOf(Number(ids[0]!.id))).map((e) => e.action),
        ['report.reject'],
      );
      assert.deepEqual(
        (await logOf(Number(ids[1]!.id))).map((e) => e.action),
        ['report.withdraw', 'report.approve'],
      );
    });
  });
}
