/**
 * Disputes by the reported company (D33) through the real server on every engine: the operator
 * records one in the console (documents, check boxes, escaping), the search answer keeps its
 * threat level and count and marks the reports `"disputed": true`; the filing member sees its
 * own report with the 15-day deadline and supports it with a document; another member, a
 * member's plain user on operator pages and no session get nothing; the operator decides
 * `corrected` (the API shows the correction, `disputed` false again) and `upheld` with the
 * company's statement; two decisions at once, one wins; the daily job, on the runner with a fake
 * clock and a missed day, deactivates the claim nobody supported; the watchers' seam is called
 * where a dispute opens, closes or a report leaves search.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, NOON_TR, search, type TestApp } from './helpers/app.ts';
import { countries, makeKeyHolder, makeMember, nextVkn } from './helpers/factories.ts';
import { claimInput, refusedWith } from './helpers/filing.ts';
import { PDF_FILE, squash } from './helpers/files.ts';
import { postMultipart } from './helpers/multipart.ts';
import { captureLog } from './helpers/jobs.ts';
import { makePortalUser, PortalBrowser, signIn, type PortalUser } from './helpers/portal.ts';
import { memberIdOf } from './helpers/users.ts';
import { fileReport, type Filer, approveReport } from './helpers/use-cases.ts';
import { decideDispute, recordDispute, supportInDispute } from './helpers/use-cases.ts';
import { createDisputes } from '../src/disputes/disputes.service.ts';
import { disputeLapseJob } from '../src/disputes/dispute-lapse.job.ts';
import { NOT_SUPPORTED_REASON } from '../src/disputes/dispute-effects.ts';
import type { CompanyChange } from '../src/events/company-changes.ts';
import { ensureJobRow } from '../src/jobs/job-state.repository.ts';
import { runPeriodicIfDue } from '../src/jobs/periodic-run.ts';
import { firstDue } from '../src/jobs/schedule.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { turkeyDateOf } from '../src/lib/calendar-date.ts';
import { recordCompanyChanges } from '../src/events/company-changes.ts';
import { createRetention, RETENTION_JOB_ACTOR } from '../src/retention/retention.service.ts';
import { DEFAULT_RETENTION } from '../src/retention/retention-settings.ts';

const DAY = 24 * 3_600_000;

type Item = { report_id: number; type: string; description: string; disputed: boolean; statement?: string; amount?: number };
type Answer = { result_count: number; results: Array<{ threat_level: string; report_count: number; reports: Item[] }> };

for (const engine of ENGINES) {
  describe(`disputes by the reported company [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    let operatorUser: PortalUser;
    let operator: PortalBrowser;
    let opId: number;
    const filers: Record<string, Filer> = {};
    const browsers: Record<string, PortalBrowser> = {};

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      key = await makeKeyHolder(db, t.clock, { ref: 'DS-SEARCH', dailyLimit: 1000 });
      for (const ref of ['DS-1', 'DS-2', 'DS-3']) {
        await makeMember(db, t.clock, { ref });
        const admin = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: ref, email: `admin@${ref.toLowerCase()}.test` });
        filers[ref] = { userId: admin.id, memberId: await memberIdOf(db, ref) };
        browsers[ref] = await signIn(t.app, admin);
      }
      const plain = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'DS-1', email: 'plain@ds-1.test' });
      browsers.plain = await signIn(t.app, plain);
      operatorUser = await makePortalUser(db, t.clock, { role: 'operator', email: 'op@bureau.test' });
      opId = operatorUser.id;
      operator = await signIn(t.app, operatorUser, t.clock);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const deps = () => ({ db: database.engine.db, clock: t.clock });
    /** A company with an approved official file by DS-1 and an approved claim by DS-2 (visible: D12). */
    const company = async () => {
      const taxId = nextVkn();
      const official = await fileReport({ ...deps(), countries }, filers['DS-1']!, {
        ...claimInput(taxId),
        type: 'enforcement_plain',
        amount: null,
        currency: null,
        case: { enforcement_office: 'Bursa 2. İcra', file_number: '2026/7', date: '2026-05-01' },
      });
      const claim = await fileReport({ ...deps(), countries }, filers['DS-2']!, claimInput(taxId));
      await approveReport(deps(), { userId: opId }, official.reportId);
      await approveReport(deps(), { userId: opId }, claim.reportId);
      return { taxId, official: official.reportId, claim: claim.reportId };
    };
    const byTaxId = async (taxId: string) => {
      const res = await search(t.app, key, `q=${taxId}&type=tax_id&country=TR`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json<Answer>();
    };
    const item = (answer: Answer, id: number) => answer.results[0]!.reports.find((r) => r.report_id === id)!;
    const today = () => turkeyDateOf(t.clock.now());
    const pdf = (fileName: string) => ({ name: 'attachments', fileName, type: 'application/pdf', content: PDF_FILE });
    const recordInput = (reportIds: number[]) => ({
      identificationMethod: 'e_signature',
      identificationReference: 'cert 4F:22:91',
      receivedOn: today(),
      grounds: 'The debt was paid in full.',
      reportIds,
    });

    let first: { taxId: string; official: number; claim: number };
    let disputeId: number;

    test('the operator records a dispute in the console: the reports stay as visible as before, marked disputed', async () => {
      first = await company();
      const before = await byTaxId(first.taxId);
      assert.deepEqual(
        before.results[0]!.reports.map((r) => r.disputed),
        [false, false],
        'every report item carries disputed',
      );
      const form = await operator.get(`/portal/operator/disputes/new?country=TR&tax_id=${first.taxId}`);
      assert.equal(form.statusCode, 200);
      assert.match(form.body, new RegExp(`name="report_ids" value="${first.claim}"`));
      const res = await postMultipart(
        operator,
        '/portal/operator/disputes',
        {
          company_id: '0',
          report_ids: [String(first.official), String(first.claim)],
          identification_method: 'kep',
          identification_reference: 'firma@hs01.kep.tr',
          received_on: today(),
          grounds: '<script>alert(1)</script> The invoices were paid on 2 October.',
        },
        [pdf('dekont.pdf')],
      );
      assert.equal(res.statusCode, 303, res.body.slice(0, 800));
      disputeId = Number(/\/portal\/operator\/disputes\/(\d+)\?done=record$/.exec(String(res.headers.location))?.[1]);
      assert.ok(disputeId > 0);

      const page = await operator.get(`/portal/operator/disputes/${disputeId}?done=record`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /kaydedildi/);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'the grounds are escaped');
      assert.doesNotMatch(page.body, /<script>alert/);
      assert.match(page.body, /30 gün kaldı/, 'the decision is due 30 days after receipt');
      assert.match(page.body, /15 gün kaldı/, "the member's 15 days");
      assert.match(page.body, /firma@hs01\.kep\.tr/);
      assert.match(squash(page.body), /dekont\.pdf/);

      const queue = await operator.get('/portal/operator/disputes');
      assert.match(queue.body, new RegExp(`href="/portal/operator/disputes/${disputeId}"`));

      const after = await byTaxId(first.taxId);
      assert.equal(after.results[0]!.report_count, before.results[0]!.report_count, 'the same count while open');
      assert.equal(after.results[0]!.threat_level, before.results[0]!.threat_level);
      assert.equal(item(after, first.official).disputed, true);
      assert.equal(item(after, first.claim).disputed, true);

      const history = await database.engine.db.selectFrom('report_status_changes').selectAll().where('report_id', '=', first.claim).orderBy('id').execute();
      assert.match(history.at(-1)!.reason ?? '', new RegExp(`dispute ${disputeId} recorded \\(kep`));
      assert.equal(history.at(-1)!.from_status, 'approved');
      assert.equal(history.at(-1)!.to_status, 'approved');
      const log = await listOperatorLog(database.engine.db, { limit: 5 });
      assert.ok(log.some((l) => l.action === 'dispute.record' && l.target === `dispute:${disputeId}`));
    });

    test('another member, a plain user on the console and no session get nothing', async () => {
      const other = await browsers['DS-3']!.get('/portal/disputes');
      assert.equal(other.statusCode, 200);
      assert.doesNotMatch(other.body, new RegExp(`/portal/disputes/${disputeId}/`));
      assert.match(other.body, /Hiçbir şirket bildirimlerinize itiraz etmedi/);
      const support = await postMultipart(browsers['DS-3']!, `/portal/disputes/${disputeId}/reports/${first.claim}/support`, { text: 'mine' }, []);
      assert.equal(support.statusCode, 404);
      const withdraw = await browsers['DS-3']!.post(`/portal/disputes/${disputeId}/reports/${first.claim}/withdraw`, { note: 'x' });
      assert.equal(withdraw.statusCode, 404);
      // DS-1's users see their own report and not DS-2's claim, nor the company's identification.
      const own = await browsers.plain!.get('/portal/disputes');
      assert.match(own.body, new RegExp(`/portal/disputes/${disputeId}/reports/${first.official}/support`));
      assert.doesNotMatch(own.body, new RegExp(`<td>${first.claim}</td>`));
      assert.doesNotMatch(own.body, /firma@hs01/);
      const companyDoc = await database.engine.db.selectFrom('dispute_attachments').select('id').where('dispute_id', '=', disputeId).executeTakeFirstOrThrow();
      assert.equal((await browsers.plain!.get(`/portal/disputes/attachments/${companyDoc.id}`)).statusCode, 404, "the company's documents: operators only");
      assert.equal((await operator.get(`/portal/operator/disputes/attachments/${companyDoc.id}`)).statusCode, 200);
      for (const path of ['/portal/operator/disputes', `/portal/operator/disputes/${disputeId}`, '/portal/operator/disputes/new']) {
        assert.equal((await browsers.plain!.get(path)).statusCode, 403, path);
        assert.equal((await browsers['DS-1']!.get(path)).statusCode, 403, path);
      }
      const decide = await browsers['DS-1']!.post(`/portal/operator/disputes/${disputeId}/decide`, { outcome: 'removed', reason: 'x' });
      assert.equal(decide.statusCode, 403);
      const anonymous = new PortalBrowser(t.app);
      for (const path of ['/portal/disputes', '/portal/operator/disputes', `/portal/operator/disputes/${disputeId}`]) {
        const res = await anonymous.get(path);
        assert.equal(res.statusCode, 303, path);
        assert.match(String(res.headers.location), /\/portal\/sign-in/);
      }
      const noSession = await postMultipart(anonymous, `/portal/disputes/${disputeId}/reports/${first.official}/support`, { text: 'x' }, [], { csrf: 'x' });
      assert.notEqual(noSession.statusCode, 303);
      assert.equal((await database.engine.db.selectFrom('dispute_steps').select('id').where('dispute_id', '=', disputeId).execute()).length, 1);
    });

    test('the filing member sees the deadline and supports its report with a document; CSRF is checked', async () => {
      const page = await browsers['DS-1']!.get('/portal/disputes');
      assert.match(page.body, /15 gün kaldı/);
      const noToken = await postMultipart(browsers['DS-1']!, `/portal/disputes/${disputeId}/reports/${first.official}/support`, { text: 'x' }, [], {
        csrf: null,
      });
      assert.equal(noToken.statusCode, 403);
      const res = await postMultipart(
        browsers['DS-1']!,
        `/portal/disputes/${disputeId}/reports/${first.official}/support`,
        { text: 'The enforcement file is open: see the office letter.' },
        [pdf('icra.pdf')],
      );
      assert.equal(res.statusCode, 303, res.body.slice(0, 600));
      const after = await browsers['DS-1']!.get(String(res.headers.location));
      assert.match(after.body, /Desteğiniz büroya iletildi/);
      assert.match(after.body, /Desteklendi/);
      const doc = await database.engine.db.selectFrom('dispute_attachments').select('id').where('file_name', '=', 'icra.pdf').executeTakeFirstOrThrow();
      const download = await browsers.plain!.get(`/portal/disputes/attachments/${doc.id}`);
      assert.equal(download.statusCode, 200);
      assert.match(String(download.headers['content-disposition']), /^attachment;/);
      assert.equal(download.headers['x-content-type-options'], 'nosniff');
      assert.equal((await browsers['DS-2']!.get(`/portal/disputes/attachments/${doc.id}`)).statusCode, 404);
      // Supporting twice is refused with the reason, in the page's language.
      const again = await postMultipart(browsers['DS-1']!, `/portal/disputes/${disputeId}/reports/${first.official}/support`, { text: 'again' }, []);
      assert.equal(again.statusCode, 409);
      const op = await operator.get(`/portal/operator/disputes/${disputeId}`);
      assert.match(op.body, /The enforcement file is open/);
      assert.match(op.body, /Üyenin yanıtı bekleniyor/, "DS-2's answer is still awaited");
    });

    test('the operator decides corrected: the correction shows in the API, disputed is false again; a second decision is refused', async () => {
      const res = await operator.post(`/portal/operator/disputes/${disputeId}/decide`, {
        outcome: 'corrected',
        reason: 'The claim was paid in part; amount corrected.',
        [`correct_${first.claim}_amount`]: '12000.50',
        [`correct_${first.claim}_currency`]: 'TRY',
      });
      assert.equal(res.statusCode, 303, res.body.slice(0, 800));
      const answer = await byTaxId(first.taxId);
      assert.equal(item(answer, first.claim).amount, 12000.5);
      assert.equal(item(answer, first.claim).disputed, false);
      assert.equal(item(answer, first.official).disputed, false);
      assert.equal(answer.results[0]!.report_count, 2);
      const member = await browsers['DS-2']!.get('/portal/disputes');
      assert.match(member.body, /Kayıt düzeltildi/);
      assert.match(member.body, /Karardan önce yanıtlanmadı/);
      const again = await operator.post(`/portal/operator/disputes/${disputeId}/decide`, { outcome: 'removed', reason: 'no' });
      assert.equal(again.statusCode, 409);
      assert.match(again.body, /karara bağlandı/);
      const log = await listOperatorLog(database.engine.db, { limit: 10 });
      const decided = log.find((l) => l.action === 'dispute.decide')!;
      assert.ok(decided, 'the decision is in the operator log');
      assert.match(JSON.stringify(decided.after), /1200050/);
      assert.match(JSON.stringify(decided.before), /4800000/);
    });

    test('upheld: the company statement (at most 500 characters) is shown with its reports in the API and the portal search', async () => {
      const c = await company();
      const { disputeId: id } = await recordDispute(deps(), { userId: opId }, recordInput([c.official]));
      const early = await operator.post(`/portal/operator/disputes/${id}/statement`, { statement: 'too early' });
      assert.equal(early.statusCode, 409);
      assert.equal((await operator.post(`/portal/operator/disputes/${id}/decide`, { outcome: 'upheld', reason: 'The file is open.' })).statusCode, 303);
      const long = await operator.post(`/portal/operator/disputes/${id}/statement`, { statement: 'x'.repeat(501) });
      assert.equal(long.statusCode, 400);
      assert.match(long.body, /500/);
      const ok = await operator.post(`/portal/operator/disputes/${id}/statement`, { statement: 'We paid on <b>2 October</b>; the creditor has the receipt.' });
      assert.equal(ok.statusCode, 303);
      const answer = await byTaxId(c.taxId);
      assert.equal(item(answer, c.official).statement, 'We paid on <b>2 October</b>; the creditor has the receipt.');
      assert.equal(item(answer, c.official).disputed, false);
      assert.equal(item(answer, c.claim).statement, undefined, 'absent on a report outside the dispute');
      const portal = await browsers['DS-3']!.get(`/portal/search?q=${c.taxId}&type=tax_id&country=TR`);
      assert.equal(portal.statusCode, 200);
      assert.match(portal.body, /We paid on &lt;b&gt;2 October&lt;\/b&gt;/);
    });

    test('a corrected event date moves the retention end (D34): the next daily run takes the report out of search', async () => {
      const c = await company();
      const retention = createRetention({ db: database.engine.db, clock: t.clock, settings: DEFAULT_RETENTION, recordCompanyChanges });
      // A daily run before the dispute has worked out the reports' anchors from the dates filed.
      assert.equal((await retention.run(RETENTION_JOB_ACTOR)).expired.byType.unpaid_debt, undefined);
      const { disputeId: id } = await recordDispute(deps(), { userId: opId }, recordInput([c.claim]));
      // The invoice was from 2019: past the 3 years an unpaid debt is kept.
      await decideDispute(deps(), { userId: opId }, id, {
        outcome: 'corrected',
        reason: 'The unpaid invoice dates from March 2019.',
        corrections: [{ reportId: c.claim, fields: { event_date: '2019-03-01' } }],
      });
      assert.equal((await byTaxId(c.taxId)).results[0]!.report_count, 2, 'shown until the daily run');
      const run = await retention.run(RETENTION_JOB_ACTOR);
      assert.deepEqual(run.expired.byType.unpaid_debt, [c.claim]);
      const answer = await byTaxId(c.taxId);
      assert.equal(answer.results[0]!.report_count, 1);
      assert.deepEqual(
        answer.results[0]!.reports.map((r) => r.report_id),
        [c.official],
      );
    });

    test('two decisions at once: exactly one is taken', async () => {
      const c = await company();
      const { disputeId: id } = await recordDispute(deps(), { userId: opId }, recordInput([c.claim]));
      const results = await Promise.allSettled([
        decideDispute(deps(), { userId: opId }, id, { outcome: 'upheld', reason: 'one' }),
        decideDispute(deps(), { userId: opId }, id, { outcome: 'removed', reason: 'two' }),
      ]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results.map((r) => r.status)));
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.ok(refusedWith('conflict')(refused.reason));
      const twice = await Promise.allSettled([
        recordDispute(deps(), { userId: opId }, recordInput([c.official])),
        recordDispute(deps(), { userId: opId }, recordInput([c.official])),
      ]);
      assert.equal(twice.filter((r) => r.status === 'fulfilled').length, 1, 'one undecided dispute per report');
    });

    test('the watchers are told where a dispute opens, closes or a report leaves search', async () => {
      const calls: Array<{ at: number; changes: readonly CompanyChange[] }> = [];
      const spy = (_trx: unknown, at: number, changes: readonly CompanyChange[]) => Promise.resolve((calls.push({ at, changes }), 0));
      const seamDeps = { ...deps(), recordCompanyChanges: spy };
      const c = await company();
      const { disputeId: id } = await recordDispute(seamDeps, { userId: opId }, recordInput([c.official, c.claim]));
      assert.deepEqual(calls.at(-1)!.changes, [{ country: 'TR', taxIdNorm: c.taxId, kinds: ['report_disputed'] }]);
      assert.equal(calls.at(-1)!.at, t.clock.now());
      await supportInDispute(seamDeps, filers['DS-1']!, id, c.official, 'It stands.');
      assert.equal(calls.length, 1, 'a support changes nothing a search answers');
      await decideDispute(seamDeps, { userId: opId }, id, { outcome: 'removed', reason: 'Not verified.' });
      assert.deepEqual(calls.at(-1)!.changes, [{ country: 'TR', taxIdNorm: c.taxId, kinds: ['dispute_closed'] }]);
      assert.equal((await byTaxId(c.taxId)).result_count, 0, 'removed: both reports left search');
    });

    test('the daily job on the runner: a claim not supported within 15 days is deactivated, a missed day caught up', async () => {
      const calls: Array<readonly CompanyChange[]> = [];
      const spy = (_trx: unknown, _at: number, changes: readonly CompanyChange[]) => Promise.resolve((calls.push(changes), 0));
      const c = await company();
      const { disputeId: id } = await recordDispute(deps(), { userId: opId }, recordInput([c.claim]));
      const told = t.clock.now();
      const db = database.engine.db;
      const log = captureLog();
      const job = disputeLapseJob({ disputes: createDisputes({ db, clock: t.clock, recordCompanyChanges: spy }), log });
      await ensureJobRow(db, job.name, firstDue(job.schedule, t.clock.now()));
      const runDeps = { db, clock: t.clock, log, holder: 'test', leaseMs: 60_000, failureRetryMs: 60_000, stopping: new AbortController().signal };
      assert.equal(await runPeriodicIfDue(job, runDeps), 'succeeded');
      assert.equal(await runPeriodicIfDue(job, runDeps), 'not_due', 'once a day');
      // The 15th day is the last day to answer: the job that runs on it leaves the claim alone.
      t.clock.set(told + 15 * DAY);
      assert.equal(await runPeriodicIfDue(job, runDeps), 'succeeded');
      assert.equal((await db.selectFrom('disputes').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state, 'awaiting_member');
      assert.equal((await byTaxId(c.taxId)).results[0]!.report_count, 2);
      // No process runs for three days; the next start runs once and catches up.
      t.clock.set(told + 18 * DAY + 3 * 3_600_000);
      assert.equal(await runPeriodicIfDue(job, runDeps), 'succeeded');
      assert.equal(await runPeriodicIfDue(job, runDeps), 'not_due', 'one run for the missed days');
      const dispute = await db.selectFrom('disputes').select('state').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(dispute.state, 'open', "the operator's turn now");
      const report = await db.selectFrom('reports').select(['status', 'disputed']).where('id', '=', c.claim).executeTakeFirstOrThrow();
      assert.equal(report.status, 'deactivated');
      const last = await db.selectFrom('report_status_changes').selectAll().where('report_id', '=', c.claim).orderBy('id', 'desc').executeTakeFirstOrThrow();
      assert.equal(last.reason, NOT_SUPPORTED_REASON);
      assert.equal(last.changed_by, 'job:dispute-lapse');
      const answer = await byTaxId(c.taxId);
      assert.equal(answer.results[0]!.report_count, 1, 'the claim left search');
      // (Disputes of the earlier tests lapse too; this company's change is the one looked at.)
      assert.deepEqual(
        calls.filter((changes) => changes.some((ch) => ch.taxIdNorm === c.taxId)),
        [[{ country: 'TR', taxIdNorm: c.taxId, kinds: [] }]],
        'the watchers hear of the report leaving search',
      );
      await assert.rejects(supportInDispute(deps(), filers['DS-2']!, id, c.claim, 'late'), refusedWith('conflict'));
      assert.ok(log.lines.some((l) => l.message.includes('lapsed')));
      const ops = await listOperatorLog(db, { limit: 5 });
      assert.ok(ops.some((l) => l.action === 'dispute.lapse' && l.actor === 'job:dispute-lapse'));
      assert.ok(t.clock.now() > NOON_TR);
    });
  });
}
