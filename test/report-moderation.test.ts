/**
 * Moderation (D29, D30) on both engines: each step by its role, with its reason, history row and
 * operator log; two operators at once; and what a search answers (D12) through the real API with
 * the search cache on, which proves these write paths keep the cache exact (the write protocol).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { countries, makeKeyHolder, makeMember, nextVkn } from './helpers/factories.ts';
import { claimInput, refusedWith } from './helpers/filing.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { fileReport, type Filer, approveReport, deactivateReport, moderateReport, rejectReport, withdrawReport, setReportStatus } from './helpers/use-cases.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { getCompanyFile, listMyReports, listPendingQueue } from '../src/reports/report-queries.service.ts';
import type { ModerationDeps } from '../src/reports/moderation.service.ts';

for (const engine of ENGINES) {
  describe(`report moderation [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let deps: ModerationDeps;
    let key: string;
    const filers: Filer[] = [];
    let op1: { userId: number };
    let op2: { userId: number };

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const { db } = database.engine;
      deps = { db, clock: t.clock };
      key = await makeKeyHolder(db, t.clock, { ref: 'MOD-SEARCH', dailyLimit: 1000 });
      for (const ref of ['MOD-1', 'MOD-2', 'MOD-3', 'MOD-4']) {
        await makeMember(db, t.clock, { ref });
        filers.push({
          userId: await makeUser(db, { email: `u@${ref.toLowerCase()}.test`, role: 'member_user', memberRef: ref }),
          memberId: await memberIdOf(db, ref),
        });
      }
      op1 = { userId: await makeUser(db, { email: 'op1@bureau.test', role: 'operator' }) };
      op2 = { userId: await makeUser(db, { email: 'op2@bureau.test', role: 'operator' }) };
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const file = (filer: Filer, taxId: string, overrides = {}) => fileReport({ ...deps, countries }, filer, claimInput(taxId, overrides));
    const history = (reportId: number) =>
      database.engine.db.selectFrom('report_status_changes').selectAll().where('report_id', '=', reportId).orderBy('id').execute();
    const byTaxId = async (taxId: string) => {
      const res = await search(t.app, key, `q=${taxId}&type=tax_id&country=TR`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json<{ result_count: number; results: Array<{ report_count: number; reports: unknown[] }> }>();
    };
    const visibleCount = async (companyId: number) =>
      Number(
        (await database.engine.db.selectFrom('companies').select('visible_report_count').where('id', '=', companyId).executeTakeFirstOrThrow())
          .visible_report_count,
      );

    test('D29: approve, reject with a reason, deactivate with a reason, withdraw with a note: each kept with user, time and reason', async () => {
      const taxId = nextVkn();
      const a = await file(filers[0]!, taxId, {
        type: 'enforcement_plain',
        amount: null,
        currency: null,
        case: { enforcement_office: 'Bursa 2. İcra', file_number: '2026/7', date: '2026-05-01' },
      });
      const b = await file(filers[1]!, taxId);
      t.clock.advance(60_000);
      const approved = await approveReport(deps, op1, a.reportId);
      assert.deepEqual([approved.from, approved.to, approved.reason, approved.visibleReportCount], ['pending', 'approved', null, 1]);
      const rejected = await rejectReport(deps, op1, b.reportId, '  no invoice attached ');
      assert.equal(rejected.reason, 'no invoice attached');
      t.clock.advance(60_000);
      const deactivated = await deactivateReport(deps, op2, a.reportId, 'file closed by the court');
      assert.equal(deactivated.visibleReportCount, 0);
      const rows = (await history(a.reportId)).map((h) => [h.from_status, h.to_status, h.changed_by, Number(h.changed_by_user_id), h.reason]);
      assert.deepEqual(rows, [
        [null, 'pending', 'u@mod-1.test', filers[0]!.userId, null],
        ['pending', 'approved', 'op1@bureau.test', op1.userId, null],
        ['approved', 'deactivated', 'op2@bureau.test', op2.userId, 'file closed by the court'],
      ]);
      const c = await file(filers[2]!, taxId);
      const withdrawn = await withdrawReport(deps, filers[2]!, c.reportId, 'paid in full');
      assert.deepEqual([withdrawn.from, withdrawn.to, withdrawn.reason], ['pending', 'withdrawn', 'paid in full']);
      const last = (await history(c.reportId)).at(-1)!;
      assert.deepEqual([last.changed_by, Number(last.changed_by_user_id), last.reason], ['u@mod-3.test', filers[2]!.userId, 'paid in full']);
    });

    test("D30: every operator step is in the operator log with before and after; a member's withdrawal is not an operator action", async () => {
      const r = await file(filers[0]!, nextVkn());
      const before = (await listOperatorLog(database.engine.db)).length;
      await approveReport(deps, op1, r.reportId);
      await withdrawReport(deps, filers[0]!, r.reportId, 'paid');
      const log = await listOperatorLog(database.engine.db);
      assert.equal(log.length, before + 1);
      const [entry] = log;
      assert.deepEqual(
        { ...entry, id: 0 },
        {
          id: 0,
          at: t.clock.now(),
          userId: op1.userId,
          actor: 'op1@bureau.test',
          action: 'report.approve',
          target: `report:${r.reportId}`,
          // The first approval on a company created by filing names it (before: the same filer's text here).
          before: { status: 'pending', company: { name: 'Dosya Lojistik A.Ş.', city: 'Bursa' } },
          after: { status: 'approved', reason: null, company: { name: 'Dosya Lojistik A.Ş.', city: 'Bursa' } },
        },
      );
      await assert.rejects(database.engine.db.updateTable('operator_log').set({ actor: 'someone else' }).execute(), /append-only/);
      await assert.rejects(database.engine.db.deleteFrom('operator_log').execute(), /append-only/);
    });

    test('D29: reasons are required to reject and deactivate, a note to withdraw; nothing changes without one', async () => {
      const r = await file(filers[0]!, nextVkn());
      await assert.rejects(rejectReport(deps, op1, r.reportId, ' '), refusedWith('invalid', /reason is required/));
      await assert.rejects(withdrawReport(deps, filers[0]!, r.reportId, ''), refusedWith('invalid', /note is required/));
      await approveReport(deps, op1, r.reportId);
      await assert.rejects(deactivateReport(deps, op1, r.reportId, ''), refusedWith('invalid', /reason is required/));
      assert.deepEqual(
        (await history(r.reportId)).map((h) => h.to_status),
        ['pending', 'approved'],
      );
    });

    test('D29: only the listed roles: a member never approves, an operator never withdraws, another member sees nothing, final is final', async () => {
      const r = await file(filers[0]!, nextVkn());
      await assert.rejects(moderateReport(deps, { kind: 'member', ...filers[0]! }, r.reportId, 'approve'), refusedWith('forbidden', /only an operator/));
      await assert.rejects(
        moderateReport(deps, { kind: 'operator', ...op1 }, r.reportId, 'withdraw', 'paid'),
        refusedWith('forbidden', /only the filing member/),
      );
      // A member user calling the operator's functions, and an operator calling the member's, are refused by who they are.
      await assert.rejects(approveReport(deps, { userId: filers[0]!.userId }, r.reportId), refusedWith('forbidden'));
      await assert.rejects(withdrawReport(deps, { userId: op1.userId, memberId: filers[0]!.memberId }, r.reportId, 'x'), refusedWith('forbidden'));
      await assert.rejects(withdrawReport(deps, filers[1]!, r.reportId, 'paid'), refusedWith('not_found', new RegExp(`^no report ${r.reportId} among`)));
      await assert.rejects(
        withdrawReport(deps, filers[1]!, 99_999_999, 'paid'),
        refusedWith('not_found', /^no report 99999999 among/),
        'the same answer as for no report',
      );
      await rejectReport(deps, op1, r.reportId, 'duplicate');
      await assert.rejects(approveReport(deps, op1, r.reportId), refusedWith('conflict', /rejected, which is final/));
      await assert.rejects(withdrawReport(deps, filers[0]!, r.reportId, 'paid'), refusedWith('conflict', /final/));
      await assert.rejects(deactivateReport(deps, op1, r.reportId, 'x'), refusedWith('conflict', /final/));
      assert.deepEqual(
        (await history(r.reportId)).map((h) => h.to_status),
        ['pending', 'rejected'],
      );
    });

    test('D30: two operators acting on one pending report at once → exactly one wins, the other gets a conflict', async () => {
      for (let round = 0; round < 3; round++) {
        const r = await file(filers[3]!, nextVkn(), {
          type: 'bounced_cheque',
          amount: null,
          currency: null,
          case: { prosecutor_office: 'X', investigation_number: String(round) },
        });
        const logBefore = (await listOperatorLog(database.engine.db)).length;
        const outcomes = await Promise.allSettled([approveReport(deps, op1, r.reportId), rejectReport(deps, op2, r.reportId, 'not a real file')]);
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, JSON.stringify(outcomes));
        refusedWith('conflict')((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason);
        assert.equal((await history(r.reportId)).length, 2, 'one step kept, not two');
        assert.equal((await listOperatorLog(database.engine.db)).length, logBefore + 1);
      }
    });

    test('D12 through the API, cache on: claims hidden until approved and three members agree; hidden again when one withdraws', async () => {
      const taxId = nextVkn();
      const claims = [];
      for (const filer of filers.slice(0, 3)) claims.push(await file(filer, taxId, { companyName: 'Konsensus Nakliyat A.Ş.' }));
      const companyId = claims[0]!.companyId;
      assert.equal((await byTaxId(taxId)).result_count, 0, 'filed, pending: nothing');
      await approveReport(deps, op1, claims[0]!.reportId);
      await approveReport(deps, op1, claims[1]!.reportId);
      assert.equal((await byTaxId(taxId)).result_count, 0, 'two approved claims: below the threshold');
      assert.equal(await visibleCount(companyId), 0);
      await approveReport(deps, op1, claims[2]!.reportId);
      const shown = await byTaxId(taxId);
      assert.equal(shown.result_count, 1, 'the third approved claim turns it visible');
      assert.equal(shown.results[0]!.report_count, 3);
      assert.equal(await visibleCount(companyId), 3);
      const byName = await search(t.app, key, `q=${encodeURIComponent('Konsensus Nakliyat')}`);
      assert.equal(byName.json<{ result_count: number }>().result_count, 1, 'and by name: the new company is in the name index');
      for (const ref of ['MOD-1', 'MOD-2', 'MOD-3', 'u@mod']) assert.ok(!byName.body.includes(ref), `D13: the reporting member is never shown (${ref})`);
      await withdrawReport(deps, filers[1]!, claims[1]!.reportId, 'the debt was paid');
      assert.equal((await byTaxId(taxId)).result_count, 0, 'one withdrawn: hidden again at once');
      assert.equal(await visibleCount(companyId), 0);
    });

    test('D12 through the API: an official file shows once approved, and lifts a single claim; deactivation hides it', async () => {
      const taxId = nextVkn();
      const claim = await file(filers[0]!, taxId);
      const official = await file(filers[1]!, taxId, {
        type: 'debt_assigned',
        amount: null,
        currency: null,
        case: { collection_company: 'Varlık A.Ş.', contract_number: 'C-1', assignment_date: '2026-06-01' },
      });
      await approveReport(deps, op1, claim.reportId);
      assert.equal((await byTaxId(taxId)).result_count, 0);
      await approveReport(deps, op1, official.reportId);
      assert.equal((await byTaxId(taxId)).results[0]?.report_count, 2);
      await deactivateReport(deps, op1, official.reportId, 'assignment cancelled');
      assert.equal((await byTaxId(taxId)).result_count, 0);
    });

    test("D29: each filer's typed company name and city stay on its own report; the first approved one names a company created by filing", async () => {
      const taxId = nextVkn();
      const assigned = (contract: string, companyName: string, city: string) => ({
        type: 'debt_assigned',
        amount: null,
        currency: null,
        companyName,
        city,
        case: { collection_company: 'Varlık A.Ş.', contract_number: contract, assignment_date: '2026-06-01' },
      });
      const first = await file(filers[0]!, taxId, assigned('N-1', 'Sahte Yazım Ltd', 'Ankara'));
      const second = await file(filers[1]!, taxId, assigned('N-2', 'Doğru Lojistik A.Ş.', 'İzmir'));
      assert.deepEqual([first.companyCreated, second.companyCreated, second.companyId], [true, false, first.companyId]);
      // Created by filing, nothing approved: invisible in the API, by tax ID and by name (no near match either).
      assert.equal((await byTaxId(taxId)).result_count, 0);
      const hidden = await search(t.app, key, `q=${encodeURIComponent('Sahte Yazım')}`);
      assert.deepEqual([hidden.json<{ result_count: number }>().result_count, hidden.json<{ near_matches: unknown[] }>().near_matches], [0, []]);
      // Each member's "My reports" shows what its own user typed.
      const mine = async (i: number, reportId: number) => (await listMyReports(database.engine.db, filers[i]!.memberId)).find((r) => r.report_id === reportId)!;
      assert.deepEqual([(await mine(1, second.reportId)).company.name, (await mine(1, second.reportId)).company.city], ['Doğru Lojistik A.Ş.', 'İzmir']);
      assert.deepEqual([(await mine(0, first.reportId)).company.name, (await mine(0, first.reportId)).company.city], ['Sahte Yazım Ltd', 'Ankara']);
      // The operator sees both: the company's stored values and what each filer typed.
      const queued = (await listPendingQueue(database.engine.db)).find((r) => r.report_id === second.reportId)!;
      assert.deepEqual(queued.filed, { companyName: 'Doğru Lojistik A.Ş.', city: 'İzmir' });
      assert.equal(queued.company.name, 'Sahte Yazım Ltd');
      // The first filer's report is rejected; the second one approved names the company.
      await rejectReport(deps, op1, first.reportId, 'no such contract');
      await approveReport(deps, op1, second.reportId);
      const shown = await search(t.app, key, `q=${taxId}&type=tax_id&country=TR`);
      const result = shown.json<{ results: Array<{ company_name: string; city: string }> }>().results[0]!;
      assert.deepEqual([result.company_name, result.city], ['Doğru Lojistik A.Ş.', 'İzmir']);
      assert.ok(!shown.body.includes('Sahte') && !shown.body.includes('Ankara'), "a rejected filing's text never becomes public");
      const byName = await search(t.app, key, `q=${encodeURIComponent('Doğru Lojistik')}`);
      assert.equal(byName.json<{ result_count: number }>().result_count, 1, 'the name index follows the new name');
      assert.equal((await search(t.app, key, `q=${encodeURIComponent('Sahte Yazım')}`)).json<{ result_count: number }>().result_count, 0);
      const log = (await listOperatorLog(database.engine.db, { limit: 50 })).find((e) => e.target === `report:${second.reportId}`);
      assert.match(JSON.stringify(log), /Doğru Lojistik/);
      // Once public, a later approved filing does not rename it; its typed values stay on its report.
      const third = await file(filers[2]!, taxId, assigned('N-3', 'Üçüncü Yazım', 'Bursa'));
      await approveReport(deps, op1, third.reportId);
      const company = await getCompanyFile(database.engine.db, first.companyId);
      assert.deepEqual([company.company.name, company.company.city], ['Doğru Lojistik A.Ş.', 'İzmir']);
      assert.deepEqual(company.reports.find((r) => r.report_id === third.reportId)?.filed, { companyName: 'Üçüncü Yazım', city: 'Bursa' });
    });

    test('D11: the CLI step still works on a filed report, and still has no pending → withdrawn', async () => {
      const r = await file(filers[3]!, nextVkn());
      await assert.rejects(
        setReportStatus({ db: database.engine.db, clock: t.clock }, { kind: 'cli', user: 'cli' }, { idOrRef: String(r.reportId), to: 'withdrawn' }),
        /can become approved or rejected, not withdrawn/,
      );
      const change = await setReportStatus(
        { db: database.engine.db, clock: t.clock },
        { kind: 'cli', user: 'cli' },
        { idOrRef: String(r.reportId), to: 'approved' },
      );
      assert.deepEqual([change.from, change.to], ['pending', 'approved']);
    });
  });
}
