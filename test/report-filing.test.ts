/**
 * Filing (D29) on both engines: who may file, what is written (company, pending report, history,
 * attachments), one open claim per member and company (the database's own rule, under
 * concurrency too), and who may download an attachment.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { countries, makeCompanies, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { EXE_FILE, HTML_FILE, JPEG_FILE, PDF_FILE } from './helpers/files.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { claimInput, refusedWith } from './helpers/filing.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';
import { type FilingDeps } from '../src/reports/filing.service.ts';
import { fileReport, type Filer, withdrawReport } from './helpers/use-cases.ts';
import { insertFiledReport } from '../src/reports/filing.repository.ts';
import { fetchAttachment } from '../src/reports/attachments.ts';

const clock = fixedClock(NOON_TR);

for (const engine of ENGINES) {
  describe(`report filing [${engine.name}]`, () => {
    let database: TestDatabase;
    let deps: FilingDeps;
    const filers: Record<string, Filer> = {};
    let secondUserOfA: Filer;
    let operatorId: number;

    before(async () => {
      database = await engine.create();
      const { db } = database.engine;
      deps = { db, clock, countries };
      for (const ref of ['F-A', 'F-B', 'F-LIMIT']) await makeMember(db, clock, { ref });
      await makeMember(db, clock, { ref: 'F-ASSOC', tier: 'associate' });
      await makeMember(db, clock, { ref: 'F-UNSIGNED', agreementSigned: false });
      await makeMember(db, clock, { ref: 'F-SUSP', status: 'suspended' });
      for (const ref of ['F-A', 'F-B', 'F-LIMIT', 'F-ASSOC', 'F-UNSIGNED', 'F-SUSP']) {
        const userId = await makeUser(db, { email: `user@${ref.toLowerCase()}.test`, role: 'member_user', memberRef: ref });
        filers[ref] = { userId, memberId: await memberIdOf(db, ref) };
      }
      secondUserOfA = { userId: await makeUser(db, { email: 'admin@f-a.test', role: 'member_admin', memberRef: 'F-A' }), memberId: filers['F-A']!.memberId };
      operatorId = await makeUser(db, { email: 'op@bureau.test', role: 'operator' });
    });
    after(async () => {
      await database?.drop();
    });

    const countReports = async () =>
      Number(
        (
          await database.engine.db
            .selectFrom('reports')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('D29: a claim starts pending on a company it creates, with its history row and attachments', async () => {
      const { db } = database.engine;
      const taxId = nextVkn();
      const filed = await fileReport(deps, filers['F-A']!, {
        ...claimInput(`TR-${taxId}`),
        attachments: [
          { fileName: 'fatura.pdf', declaredType: 'application/pdf', content: PDF_FILE },
          { fileName: 'dekont.jpg', declaredType: 'image/jpeg', content: JPEG_FILE },
        ],
      });
      assert.equal(filed.status, 'pending');
      assert.equal(filed.companyCreated, true);
      const company = await db.selectFrom('companies').selectAll().where('id', '=', filed.companyId).executeTakeFirstOrThrow();
      assert.deepEqual([company.tax_id_norm, company.country, company.city, Number(company.visible_report_count)], [taxId, 'TR', 'Bursa', 0]);
      const report = await db.selectFrom('reports').selectAll().where('id', '=', filed.reportId).executeTakeFirstOrThrow();
      assert.equal(report.status, 'pending');
      assert.equal(Number(report.reported_by), filers['F-A']!.memberId);
      assert.equal(Number(report.filed_by_user_id), filers['F-A']!.userId);
      assert.equal(report.event_date, '2026-09-30');
      assert.deepEqual([Number(report.amount_minor), report.currency, Number(report.filed_at)], [4_800_000, 'TRY', NOON_TR]);
      const history = await db.selectFrom('report_status_changes').selectAll().where('report_id', '=', filed.reportId).execute();
      assert.deepEqual(
        history.map((h) => [h.from_status, h.to_status, h.changed_by, Number(h.changed_by_user_id), Number(h.changed_at)]),
        [[null, 'pending', 'user@f-a.test', filers['F-A']!.userId, NOON_TR]],
      );
      const stored = await db.selectFrom('report_attachments').selectAll().where('report_id', '=', filed.reportId).orderBy('id').execute();
      assert.deepEqual(
        stored.map((a) => [a.file_name, a.content_type, Number(a.size_bytes), a.sha256]),
        [
          ['fatura.pdf', 'application/pdf', PDF_FILE.length, createHash('sha256').update(PDF_FILE).digest('hex')],
          ['dekont.jpg', 'image/jpeg', JPEG_FILE.length, createHash('sha256').update(JPEG_FILE).digest('hex')],
        ],
      );
      assert.ok(Buffer.from(stored[0]!.content).equals(PDF_FILE), 'the bytes come back as they went in');
    });

    test('D29: a known company (by country and canonical tax ID) is reused, not twinned', async () => {
      const taxId = nextVkn();
      const first = await fileReport(deps, filers['F-A']!, claimInput(taxId));
      const second = await fileReport(deps, filers['F-B']!, claimInput(`TR ${taxId.slice(0, 3)} ${taxId.slice(3)}`, { companyName: 'Another Spelling Ltd' }));
      assert.equal(second.companyCreated, false);
      assert.equal(second.companyId, first.companyId);
    });

    test('D29: only a user of an active full member with a signed agreement files', async () => {
      const before = await countReports();
      for (const [ref, pattern] of [
        ['F-ASSOC', /full members/],
        ['F-UNSIGNED', /data agreement/],
        ['F-SUSP', /suspended/],
      ] as const) {
        await assert.rejects(fileReport(deps, filers[ref]!, claimInput(nextVkn())), refusedWith('forbidden', pattern), ref);
      }
      // A user acting for a member it does not belong to, and an operator, do not file.
      await assert.rejects(
        fileReport(deps, { userId: filers['F-B']!.userId, memberId: filers['F-A']!.memberId }, claimInput(nextVkn())),
        refusedWith('forbidden'),
      );
      await assert.rejects(fileReport(deps, { userId: operatorId, memberId: filers['F-A']!.memberId }, claimInput(nextVkn())), refusedWith('forbidden'));
      const disabled = await makeUser(database.engine.db, { email: 'gone@f-a.test', role: 'member_user', memberRef: 'F-A', status: 'disabled' });
      await assert.rejects(fileReport(deps, { userId: disabled, memberId: filers['F-A']!.memberId }, claimInput(nextVkn())), refusedWith('forbidden'));
      assert.equal(await countReports(), before, 'nothing written');
    });

    test("D9: a mistyped tax ID is refused with the API's message, and nothing is written", async () => {
      const before = await countReports();
      await assert.rejects(
        fileReport(deps, filers['F-A']!, claimInput('1234567891')),
        refusedWith('invalid', /'1234567891' is not a valid TR tax ID: expected VKN/),
      );
      assert.equal(await countReports(), before);
    });

    test('D29: a renamed .exe or an HTML file is refused, and nothing is written', async () => {
      const before = await countReports();
      const taxId = nextVkn();
      const withFile = (fileName: string, declaredType: string, content: Buffer) =>
        fileReport(deps, filers['F-A']!, { ...claimInput(taxId), attachments: [{ fileName, declaredType, content }] });
      await assert.rejects(withFile('invoice.pdf', 'application/pdf', EXE_FILE), refusedWith('invalid', /Windows program/));
      await assert.rejects(withFile('invoice.pdf', 'application/pdf', HTML_FILE), refusedWith('invalid', /web page/));
      assert.equal(await countReports(), before);
      const company = await database.engine.db.selectFrom('companies').select('id').where('tax_id_norm', '=', taxId).executeTakeFirst();
      assert.equal(company, undefined, 'no company created either');
    });

    test('D29: one pending or approved claim per member and company; after a withdrawal another may be filed', async () => {
      const taxId = nextVkn();
      const first = await fileReport(deps, filers['F-A']!, claimInput(taxId));
      await assert.rejects(fileReport(deps, secondUserOfA, claimInput(taxId)), refusedWith('conflict', /already has a pending or approved unpaid_debt/));
      // Another member, and an official file of the same member, are not limited by it.
      await fileReport(deps, filers['F-B']!, claimInput(taxId));
      await fileReport(
        deps,
        filers['F-A']!,
        claimInput(taxId, { type: 'bounced_cheque', amount: null, currency: null, case: { prosecutor_office: 'Bursa CBS', investigation_number: '2026/991' } }),
      );
      await withdrawReport({ db: database.engine.db, clock }, filers['F-A']!, first.reportId, 'paid on 1 November');
      const again = await fileReport(deps, filers['F-A']!, claimInput(taxId));
      assert.equal(again.companyId, first.companyId);
    });

    test('D29: the database itself refuses a second open filed claim (migration 0005), as a conflict', async () => {
      const filed = await fileReport(deps, filers['F-B']!, claimInput(nextVkn()));
      const { db } = database.engine;
      const row = await db.selectFrom('reports').selectAll().where('id', '=', filed.reportId).executeTakeFirstOrThrow();
      const copy = { ...row, id: undefined };
      await assert.rejects(insertFiledReport(db, { ...copy, status: 'approved' }), refusedWith('conflict', /already has a pending or approved unpaid_debt/));
      // Closed claims are outside the rule: history is kept, not blocked.
      await insertFiledReport(db, { ...copy, status: 'withdrawn' });
      await insertFiledReport(db, { ...copy, status: 'rejected' });
    });

    test('D29: an open imported claim of the member also blocks a filed one', async () => {
      const [taxId] = await makeCompanies(database.engine, clock, [
        { company_name: 'Imported Claim A.Ş.', reports: [makeReport({ type: 'unpaid_debt', reported_by: 'F-B', status: 'approved' })] },
      ]);
      await assert.rejects(fileReport(deps, filers['F-B']!, claimInput(taxId!)), refusedWith('conflict'));
      await fileReport(deps, filers['F-A']!, claimInput(taxId!));
    });

    test('D29: two filings of one claim at once (a new company) → exactly one succeeds, one company', async () => {
      for (let round = 0; round < 3; round++) {
        const taxId = nextVkn();
        const outcomes = await Promise.allSettled([fileReport(deps, filers['F-A']!, claimInput(taxId)), fileReport(deps, secondUserOfA, claimInput(taxId))]);
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, JSON.stringify(outcomes));
        const failure = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        refusedWith('conflict', /already has a pending or approved unpaid_debt/)(failure.reason);
        const companies = await database.engine.db.selectFrom('companies').select('id').where('tax_id_norm', '=', taxId).execute();
        assert.equal(companies.length, 1);
      }
    });

    test('D29: the same filing replayed (same type, event date, case number) is refused while the first is open', async () => {
      const taxId = nextVkn();
      const enforcement = (fileNumber: string, eventDate = '2026-09-30') =>
        claimInput(taxId, {
          type: 'enforcement_plain',
          eventDate,
          amount: null,
          currency: null,
          case: { enforcement_office: 'Bursa 3. İcra', file_number: fileNumber, date: '2026-10-02' },
        });
      const outcomes = await Promise.allSettled([1, 2, 3].map(() => fileReport(deps, filers['F-A']!, enforcement('2026/100'))));
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, JSON.stringify(outcomes));
      for (const o of outcomes) if (o.status === 'rejected') refusedWith('conflict', /already has a pending or approved report of this type/)(o.reason);
      const first = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ reportId: number }>).value;
      // Another user of the member replaying it is the same member; a case number typed differently only in case is the same.
      await assert.rejects(fileReport(deps, secondUserOfA, enforcement(' 2026/100 ')), refusedWith('conflict'));
      // Another case number, another event date, another member: different reports.
      await fileReport(deps, filers['F-A']!, enforcement('2026/101'));
      await fileReport(deps, filers['F-A']!, enforcement('2026/100', '2026-09-29'));
      await fileReport(deps, filers['F-B']!, enforcement('2026/100'));
      // Once the first is closed, it may be filed again.
      await withdrawReport({ db: database.engine.db, clock }, filers['F-A']!, first.reportId, 'filed by mistake');
      await fileReport(deps, filers['F-A']!, enforcement('2026/100'));
    });

    test('D29: an amount too long for its digits and an event date before 1900 are refused, nothing written', async () => {
      const before = await countReports();
      await assert.rejects(
        fileReport(deps, filers['F-A']!, claimInput(nextVkn(), { amount: '99999999999999999999' })),
        refusedWith('invalid', /at most 9999999999999\.99/),
      );
      await assert.rejects(fileReport(deps, filers['F-A']!, claimInput(nextVkn(), { eventDate: '0001-01-01' })), refusedWith('invalid', /before 1900-01-01/));
      assert.equal(await countReports(), before);
    });

    test("D29/D19: a member files at most the day's limit (all its users together, parallel too); the next Turkey day it files again", async () => {
      const limited = { ...deps, filingsPerDay: 3 };
      const filer = filers['F-LIMIT']!;
      const first = await fileReport(limited, filer, claimInput(nextVkn()));
      // A withdrawn filing was filed all the same: it counts.
      await withdrawReport({ db: database.engine.db, clock }, filer, first.reportId, 'typed the wrong company');
      const outcomes = await Promise.allSettled([1, 2, 3, 4].map(() => fileReport(limited, filer, claimInput(nextVkn()))));
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 2, JSON.stringify(outcomes));
      for (const o of outcomes) if (o.status === 'rejected') refusedWith('conflict', /filed 3 reports today, the most a member may file in a day/)(o.reason);
      // The next quota day (00:00 Turkey time) starts afresh.
      const midnight = Date.parse(`${quotaDayOf(NOON_TR)}T00:00:00+03:00`) + 86_400_000;
      await assert.rejects(fileReport({ ...limited, clock: fixedClock(midnight - 1) }, filer, claimInput(nextVkn())), refusedWith('conflict'));
      await fileReport({ ...limited, clock: fixedClock(midnight) }, filer, claimInput(nextVkn()));
    });

    test("D29: an attachment is served to the filing member's users and to operators only; others get not_found", async () => {
      const filed = await fileReport(deps, filers['F-A']!, {
        ...claimInput(nextVkn()),
        attachments: [{ fileName: 'fatura.pdf', declaredType: 'application/pdf', content: PDF_FILE }],
      });
      const { db } = database.engine;
      const [meta] = await db.selectFrom('report_attachments').select('id').where('report_id', '=', filed.reportId).execute();
      const id = Number(meta!.id);
      const asAdmin = await fetchAttachment(db, { kind: 'member', userId: secondUserOfA.userId, memberId: secondUserOfA.memberId }, id);
      assert.ok(asAdmin.content.equals(PDF_FILE));
      assert.deepEqual([asAdmin.fileName, asAdmin.contentType, asAdmin.reportId], ['fatura.pdf', 'application/pdf', filed.reportId]);
      assert.ok((await fetchAttachment(db, { kind: 'operator', userId: operatorId }, id)).content.equals(PDF_FILE));
      const other = { kind: 'member' as const, userId: filers['F-B']!.userId, memberId: filers['F-B']!.memberId };
      await assert.rejects(fetchAttachment(db, other, id), refusedWith('not_found', new RegExp(`^no attachment ${id}$`)));
      await assert.rejects(
        fetchAttachment(db, other, id + 1000),
        refusedWith('not_found', new RegExp(`^no attachment ${id + 1000}$`)),
        'the same answer as for no attachment',
      );
    });
  });
}
