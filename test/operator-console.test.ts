/**
 * The reads and member actions the operator console (D30) and "My reports" (D29) call, on both
 * engines: the queue, a company's whole file, a member's own reports (D13), the search audit by
 * member and day, the operator log, and member administration logged with before and after.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { countries, makeCompanies, makeKeyHolder, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { claimInput, refusedWith } from './helpers/filing.ts';
import { PDF_FILE, PNG_FILE } from './helpers/files.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { fileReport, type Filer, approveReport, rejectReport } from './helpers/use-cases.ts';
import { findCompanyIdByTaxId, getCompanyFile, listMyReports, listPendingQueue, summariseSearchAudit } from '../src/reports/report-queries.service.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { createServices } from '../src/services.ts';
import { parseConfig } from '../src/config.ts';
import type { Actor } from '../src/actors/actor.ts';
import { proveStepUp, stepUpTarget, type StepUpAction } from '../src/operator/step-up.ts';

for (const engine of ENGINES) {
  describe(`operator console services [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    const filers: Filer[] = [];
    let op: Extract<Actor, { kind: 'operator' }>;

    before(async () => {
      database = await engine.create();
      const { db } = database.engine;
      for (const ref of ['CON-1', 'CON-2']) {
        await makeMember(db, clock, { ref });
        filers.push({
          userId: await makeUser(db, { email: `u@${ref.toLowerCase()}.test`, role: 'member_user', memberRef: ref }),
          memberId: await memberIdOf(db, ref),
        });
      }
      op = { kind: 'operator', userId: await makeUser(db, { email: 'op@bureau.test', role: 'operator' }) };
    });
    after(async () => {
      await database?.drop();
    });

    const deps = () => ({ db: database.engine.db, clock, countries });
    const services = () => createServices({ db: database.engine.db, clock, config: parseConfig({}, {}) });
    /** The operator, having confirmed this action with password and code in the console (issue 27, finding 4). */
    const confirmed = (action: StepUpAction, target: string) => ({ ...op, stepUp: proveStepUp(op.userId, action, target) });

    test('D30: the queue holds pending reports oldest first, with member, filer and attachment metadata', async () => {
      const taxId = nextVkn();
      const first = await fileReport(deps(), filers[1]!, {
        ...claimInput(taxId),
        attachments: [
          { fileName: 'a.pdf', declaredType: 'application/pdf', content: PDF_FILE },
          { fileName: 'b.png', declaredType: 'image/png', content: PNG_FILE },
        ],
      });
      clock.advance(1000);
      const second = await fileReport(deps(), filers[0]!, claimInput(taxId));
      clock.advance(1000);
      const approved = await fileReport(deps(), filers[0]!, claimInput(nextVkn()));
      await approveReport(deps(), op, approved.reportId);
      const queue = await listPendingQueue(database.engine.db);
      const ids = queue.map((r) => r.report_id);
      assert.ok(ids.indexOf(first.reportId) < ids.indexOf(second.reportId), 'oldest first');
      assert.ok(!ids.includes(approved.reportId), 'pending only');
      const item = queue.find((r) => r.report_id === first.reportId)!;
      assert.deepEqual(item.member, { ref: 'CON-2', name: 'Member CON-2' });
      assert.deepEqual(item.filedBy, { userId: filers[1]!.userId, name: 'u', email: 'u@con-2.test' });
      assert.deepEqual(
        [item.status, item.type, item.amount, item.currency, item.eventDate, item.company.taxId],
        ['pending', 'unpaid_debt', 48000, 'TRY', '2026-09-30', taxId],
      );
      assert.deepEqual(
        item.attachments.map((a) => [a.fileName, a.contentType, a.sizeBytes]),
        [
          ['a.pdf', 'application/pdf', PDF_FILE.length],
          ['b.png', 'image/png', PNG_FILE.length],
        ],
      );
      assert.ok(!('content' in item.attachments[0]!), 'metadata only');
    });

    test('D30: a company with every report in every status, who filed each, and each whole history', async () => {
      const [taxId] = await makeCompanies(database.engine, clock, [
        { company_name: 'Dossier Gıda A.Ş.', reports: [makeReport({ type: 'enforcement_bill', status: 'approved' })] },
      ]);
      const filed = await fileReport(deps(), filers[0]!, claimInput(taxId!));
      await rejectReport(deps(), op, filed.reportId, 'no proof of delivery');
      const companyId = await findCompanyIdByTaxId(database.engine.db, countries, 'tr', `TR${taxId}`);
      const file = await getCompanyFile(database.engine.db, companyId);
      assert.equal(file.company.taxId, taxId);
      assert.deepEqual(file.reports.map((r) => [r.type, r.status]).sort(), [
        ['enforcement_bill', 'approved'],
        ['unpaid_debt', 'rejected'],
      ]);
      const mine = file.reports.find((r) => r.report_id === filed.reportId)!;
      assert.deepEqual(mine.member?.ref, 'CON-1');
      assert.equal(mine.filedBy?.email, 'u@con-1.test');
      assert.deepEqual(
        mine.history.map((h) => [h.from, h.to, h.by, h.reason]),
        [
          [null, 'pending', 'u@con-1.test', null],
          ['pending', 'rejected', 'op@bureau.test', 'no proof of delivery'],
        ],
      );
      const imported = file.reports.find((r) => r.type === 'enforcement_bill')!;
      assert.deepEqual([imported.member, imported.filedBy, imported.history.map((h) => h.by)], [null, null, ['test']]);
      await assert.rejects(getCompanyFile(database.engine.db, 987654), refusedWith('not_found'));
      await assert.rejects(findCompanyIdByTaxId(database.engine.db, countries, 'TR', '1234567891'), refusedWith('invalid', /not a valid TR tax ID/));
    });

    test('D29/D13: "My reports" lists the member\'s own reports with status and latest reason, never another member or an operator', async () => {
      const taxId = nextVkn();
      const mine = await fileReport(deps(), filers[0]!, claimInput(taxId));
      const theirs = await fileReport(deps(), filers[1]!, claimInput(taxId));
      await rejectReport(deps(), op, mine.reportId, 'invoice unreadable');
      const list = await listMyReports(database.engine.db, filers[0]!.memberId);
      assert.ok(
        list.every((r) => r.report_id !== theirs.reportId),
        'only its own',
      );
      const row = list.find((r) => r.report_id === mine.reportId)!;
      assert.deepEqual([row.status, row.latest.status, row.latest.reason], ['rejected', 'rejected', 'invoice unreadable']);
      const text = JSON.stringify(list);
      for (const hidden of ['CON-2', 'u@con-2.test', 'op@bureau.test']) assert.ok(!text.includes(hidden), `never shows ${hidden}`);
    });

    test('D30: the search audit by member and Turkey day', async () => {
      const { db } = database.engine;
      const memberId = await memberIdOf(db, 'CON-1');
      const at = (iso: string) => Date.parse(iso);
      const row = (when: number, status: number, channel = 'api') => ({
        at: when,
        key_id: null,
        member_id: memberId,
        q: 'x',
        type: 'name',
        country: null,
        status,
        result_count: status === 200 ? 2 : null,
        response_ms: 3,
        client_address: '127.0.0.1',
        channel,
      });
      await db
        .insertInto('audit_log')
        .values([
          row(at('2026-11-20T20:59:00Z'), 200), // 23:59 on the 20th in Turkey
          row(at('2026-11-20T21:00:00Z'), 200), // 00:00 on the 21st
          row(at('2026-11-21T08:00:00Z'), 429),
          row(at('2026-11-21T08:30:00Z'), 200, 'portal'),
        ])
        .execute();
      const summary = (await summariseSearchAudit(db, clock.now(), 7)).filter((s) => s.memberRef === 'CON-1');
      assert.deepEqual(
        summary.map((s) => [s.day, s.channel, s.searches, s.answered, s.results]),
        [
          ['2026-11-21', 'api', 2, 1, 2],
          ['2026-11-21', 'portal', 1, 1, 2],
          ['2026-11-20', 'api', 1, 1, 2],
        ],
      );
    });

    test('D30: member administration writes the operator log with before and after, newest first', async () => {
      const { db } = database.engine;
      await services().memberAdmin.addMember(op, { ref: 'CON-NEW', name: 'New Lojistik', tier: 'associate' });
      await services().memberAdmin.setMemberTier(op, { ref: 'CON-NEW', tier: 'full' });
      await services().memberAdmin.setMemberAgreement(op, { ref: 'CON-NEW', signed: true });
      await makeKeyHolder(db, clock, { ref: 'CON-KEY', dailyLimit: 100 });
      await assert.rejects(
        services().memberAdmin.setKeyDailyLimit(op, { ref: 'CON-KEY', dailyLimit: 250 }),
        refusedWith('forbidden', /password and a new code/),
      );
      await assert.rejects(
        services().memberAdmin.setKeyDailyLimit(confirmed('member.key_daily_limit', stepUpTarget.member('CON-NEW')), { ref: 'CON-KEY', dailyLimit: 250 }),
        refusedWith('forbidden'),
        'a confirmation holds for its own target only',
      );
      await assert.rejects(
        services().memberAdmin.setKeyDailyLimit(
          { ...op, stepUp: { userId: op.userId, action: 'member.key_daily_limit' as const, target: 'member:CON-KEY' } },
          { ref: 'CON-KEY', dailyLimit: 250 },
        ),
        refusedWith('forbidden'),
        'a look-alike object is no confirmation',
      );
      const limited = await services().memberAdmin.setKeyDailyLimit(confirmed('member.key_daily_limit', stepUpTarget.member('CON-KEY')), {
        ref: 'CON-KEY',
        dailyLimit: 250,
      });
      assert.deepEqual([limited.state.key_daily_limit, limited.state.active_key?.daily_limit], [250, 250], 'the next key and the active one');
      const suspended = await services().memberAdmin.setMemberStatus(confirmed('member.status', stepUpTarget.member('CON-NEW')), {
        ref: 'CON-NEW',
        status: 'suspended',
      });
      assert.deepEqual([suspended.state.status, suspended.state.tier, suspended.state.agreement_signed_on], ['suspended', 'full', '2026-11-21']);
      const revoked = await services().memberAdmin.revokeKey(op, { ref: 'CON-KEY' });
      assert.equal(revoked.state.active_key, null);
      await assert.rejects(services().memberAdmin.revokeKey(op, { ref: 'CON-KEY' }), refusedWith('not_found', /no active key/));
      const log = await listOperatorLog(db, { limit: 6 });
      assert.deepEqual(
        log.map((e) => e.action),
        ['member.revoke_key', 'member.status', 'member.key_daily_limit', 'member.agreement', 'member.tier', 'member.add'],
      );
      assert.ok(log.every((e) => e.actor === 'op@bureau.test' && e.userId === op.userId));
      const status = log[1]!;
      assert.equal(status.target, 'member:CON-NEW');
      assert.equal((status.before as { status: string }).status, 'active');
      assert.equal((status.after as { status: string }).status, 'suspended');
      assert.equal(log[5]!.before, null);
      assert.equal((log[5]!.after as { tier: string }).tier, 'associate');
      assert.deepEqual((log[0]!.before as { active_key: { daily_limit: number } }).active_key.daily_limit, 250);
      const page = await listOperatorLog(db, { limit: 2, beforeId: log[1]!.id });
      assert.deepEqual(
        page.map((e) => e.action),
        ['member.key_daily_limit', 'member.agreement'],
      );
    });

    test('D30: users invited, sent a reset link and disabled by an operator, each in the log (never the link secret)', async () => {
      const { db } = database.engine;
      const invitation = { email: 'New.User@CON-1.test', role: 'member_user' as const, memberRef: 'CON-1' };
      await assert.rejects(services().userAdmin.inviteUser(op, invitation), refusedWith('forbidden'), 'an invitation needs a confirmation');
      const invited = await services().userAdmin.inviteUser(confirmed('user.invite', stepUpTarget.user(invitation.email)), invitation);
      await assert.rejects(
        services().userAdmin.createResetLink(op, { email: 'new.user@con-1.test' }),
        refusedWith('forbidden'),
        'a reset needs a confirmation',
      );
      const again = await services().userAdmin.createResetLink(confirmed('user.reset', stepUpTarget.user('New.User@con-1.test')), {
        email: 'new.user@con-1.test',
      });
      assert.equal(again.purpose, 'invite', 'not accepted yet: a fresh invitation');
      const disabled = await services().userAdmin.disableUser(op, { email: 'new.user@con-1.test' });
      assert.equal(disabled.status, 'disabled');
      const log = await listOperatorLog(db, { limit: 3 });
      assert.deepEqual(
        log.map((e) => e.action),
        ['user.disable', 'user.reinvite', 'user.invite'],
      );
      assert.ok(log.every((e) => e.target === `user:${invited.user.email}`));
      assert.equal((log[0]!.before as { status: string }).status, 'invited');
      assert.equal((log[0]!.after as { status: string }).status, 'disabled');
      const text = JSON.stringify(log);
      assert.ok(!text.includes(invited.token) && !text.includes(again.token), 'the link secret is never logged');
      await assert.rejects(
        services().userAdmin.inviteUser({ kind: 'operator', userId: filers[0]!.userId }, { email: 'x@con-1.test', role: 'member_user', memberRef: 'CON-1' }),
        refusedWith('forbidden'),
      );
      assert.equal(await db.selectFrom('users').select('id').where('email_norm', '=', 'x@con-1.test').executeTakeFirst(), undefined);
    });

    test('D30: a member user is refused every console action, and nothing is logged or changed', async () => {
      const { db } = database.engine;
      const before = (await listOperatorLog(db, { limit: 1000 })).length;
      // A member user's id presented as an operator: the operator check in the transaction refuses it.
      const asMember = { kind: 'operator', userId: filers[0]!.userId } as const;
      await assert.rejects(services().memberAdmin.addMember(asMember, { ref: 'CON-SNEAK', name: 'x' }), refusedWith('forbidden'));
      await assert.rejects(services().memberAdmin.setMemberStatus(asMember, { ref: 'CON-2', status: 'terminated' }), refusedWith('forbidden'));
      await assert.rejects(approveReport(deps(), asMember, 1), refusedWith('forbidden'));
      assert.equal((await listOperatorLog(db, { limit: 1000 })).length, before);
      const member = await db.selectFrom('members').select('status').where('ref', '=', 'CON-2').executeTakeFirstOrThrow();
      assert.equal(member.status, 'active');
      assert.equal(await db.selectFrom('members').select('id').where('ref', '=', 'CON-SNEAK').executeTakeFirst(), undefined);
    });
  });
}
