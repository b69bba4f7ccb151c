/** Import (D24) and report lifecycle (D11), on every engine. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, createWriteStream, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport, nextVkn } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importFile, ImportFailed } from '../src/import/import.service.ts';
import { listStatusChanges } from '../src/reports/reports.repository.ts';
import { countCompanies } from '../src/companies/companies.repository.ts';
import { NOON_TR } from './helpers/app.ts';
import { setReportStatus } from './helpers/use-cases.ts';

const dir = mkdtempSync(join(tmpdir(), 'risklookup-import-'));
let fileSeq = 0;
function writeLines(lines: string[]): string {
  const path = join(dir, `import-${++fileSeq}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

for (const engine of ENGINES) {
  describe(`import [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);

    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
    });
    after(async () => {
      await database?.drop();
    });

    const run = (path: string, checkInWorker?: boolean) => importFile(database.engine, path, { countries, clock, checkInWorker });
    const reportByRef = (ref: string) => database.engine.db.selectFrom('reports').selectAll().where('ref', '=', ref).executeTakeFirstOrThrow();

    for (const checkInWorker of [false, true])
      test(`D24: a bad file writes nothing and lists every bad line (lines checked ${checkInWorker ? 'on a worker thread' : 'inline'})`, async () => {
        const before = await countCompanies(database.engine.db);
        const path = writeLines([
          companyLine({ company_name: 'Goodline Lojistik A.Ş.' }),
          '{not json',
          JSON.stringify({ company_name: 'Badid A.Ş.', tax_id: '1234567891', country: 'TR', city: 'X', reports: [] }),
          companyLine({ company_name: 'Badtype A.Ş.', reports: [makeReport({ type: 'rumour' })] }),
          companyLine({ company_name: 'Noreporter A.Ş.', reports: [makeReport({ type: 'unpaid_debt', reported_by: undefined })] }),
          companyLine({ company_name: 'Unknownmember A.Ş.', reports: [makeReport({ type: 'unpaid_debt', reported_by: 'M-NOBODY' })] }),
          companyLine({ company_name: 'Badcase A.Ş.', reports: [makeReport({ type: 'bounced_cheque', case: { file_number: '1' } })] }),
          companyLine({ company_name: 'Badamount A.Ş.', reports: [makeReport({ amount: 10.555, currency: 'TRY' })] }),
          companyLine({ company_name: 'Serverfield A.Ş.', reports: [makeReport({ report_id: 5, official: true })] }),
          '',
          companyLine({ company_name: 'Goodline Two A.Ş.' }),
        ]);
        await assert.rejects(run(path, checkInWorker), (error: unknown) => {
          assert.ok(error instanceof ImportFailed);
          const text = error.problems.join('\n');
          assert.match(text, /^line 2: not valid JSON/m);
          assert.match(text, /^line 3: '1234567891' is not a valid TR tax ID/m);
          assert.match(text, /^line 4: reports\[0\]\.type must be one of/m);
          assert.match(text, /^line 5: reports\[0\]\.reported_by \(a member ref\) is required for unpaid_debt/m);
          assert.match(text, /^line 6: reports\[0\]\.reported_by: no member with ref 'M-NOBODY'/m);
          assert.match(text, /^line 7: reports\[0\]\.case\.file_number is not a field of a bounced_cheque case/m);
          assert.match(text, /^line 8: reports\[0\]\.amount must have at most 2 decimals/m);
          assert.match(text, /^line 9: reports\[0\]\.report_id is set by the service/m);
          assert.doesNotMatch(text, /^line (1|10|11):/m);
          return true;
        });
        assert.equal(await countCompanies(database.engine.db), before, 'nothing written');
      });

    test('D24: on a worker thread, lines of many chunks apply in file order', async () => {
      // 2 500 lines = 3 chunks; the last line changes a report that the first line made.
      const taxId = nextVkn();
      const first = companyLine({ company_name: 'Chunkorder A.Ş.', tax_id: taxId, reports: [makeReport({ ref: 'CHUNK-1', status: 'approved' })] });
      const filler = Array.from({ length: 2498 }, (_, i) => companyLine({ company_name: `Chunkfiller ${i} A.Ş.` }));
      const last = companyLine({ company_name: 'Chunkorder A.Ş.', tax_id: taxId, reports: [makeReport({ ref: 'CHUNK-1', status: 'withdrawn' })] });
      const summary = await run(writeLines([first, ...filler, last]), true);
      assert.equal(summary.lines, 2500);
      assert.equal(summary.companiesAdded, 2499);
      assert.equal(summary.reportsUpdated, 1);
      assert.equal((await reportByRef('CHUNK-1')).status, 'withdrawn');
    });

    test('D24: importing the same file twice is idempotent by ref', async () => {
      const taxId = nextVkn();
      const lines = [companyLine({ company_name: 'Idempotent Lojistik A.Ş.', tax_id: taxId, reports: [makeReport({ ref: 'IDEM-1' })] })];
      const first = await run(writeLines(lines));
      assert.deepEqual([first.companiesAdded, first.reportsAdded], [1, 1]);
      const second = await run(writeLines(lines));
      assert.deepEqual([second.companiesAdded, second.companiesUpdated, second.reportsAdded, second.reportsUpdated], [0, 0, 0, 1]);
      const rows = await database.engine.db.selectFrom('reports').select('id').where('ref', '=', 'IDEM-1').execute();
      assert.equal(rows.length, 1);
      // The same company under a differently written tax ID is still the same company.
      const spaced = `TR ${taxId.slice(0, 5)} ${taxId.slice(5)}`;
      const third = await run(writeLines([companyLine({ company_name: 'Idempotent Lojistik A.Ş.', tax_id: spaced, reports: [] })]));
      assert.equal(third.companiesAdded, 0);
    });

    test('D11/D24: status moves by ref only along the lifecycle; the history is kept', async () => {
      const taxId = nextVkn();
      const line = (status: string) =>
        companyLine({
          company_name: 'Lifecycle Lojistik A.Ş.',
          tax_id: taxId,
          reports: [makeReport({ ref: 'LIFE-1', status, filed_at: '2026-01-01 10:00:00' })],
        });
      await run(writeLines([line('pending')]));
      await run(writeLines([line('approved')]));
      await assert.rejects(run(writeLines([line('pending')])), (e: ImportFailed) => {
        assert.match(e.problems[0]!, /line 1: reports\[0\] \(ref 'LIFE-1'\): a approved report can become withdrawn or deactivated, not pending/);
        return true;
      });
      await run(writeLines([line('withdrawn')]));
      const report = await reportByRef('LIFE-1');
      assert.equal(report.status, 'withdrawn');
      const history = await listStatusChanges(database.engine.db, Number(report.id));
      assert.deepEqual(
        history.map((h) => [h.from_status, h.to_status]),
        [
          [null, 'pending'],
          ['pending', 'approved'],
          ['approved', 'withdrawn'],
        ],
      );
    });

    test('D24: lines apply in order, even when a company or ref repeats within a file', async () => {
      const taxId = nextVkn();
      const claims = [1, 2, 3].map((i) => makeReport({ ref: `ORD-${i}`, type: 'unpaid_debt', reported_by: `M-CLAIM-${i}`, status: 'pending' }));
      const summary = await run(
        writeLines([
          companyLine({ company_name: 'Orderly A.Ş.', tax_id: taxId, reports: claims }),
          companyLine({ company_name: 'Orderly Renamed A.Ş.', tax_id: taxId, reports: [{ ...claims[0]!, status: 'approved' }] }),
          companyLine({
            company_name: 'Orderly Renamed A.Ş.',
            tax_id: taxId,
            reports: [
              { ...claims[1]!, status: 'approved' },
              { ...claims[2]!, status: 'approved' },
            ],
          }),
        ]),
      );
      assert.deepEqual([summary.companiesAdded, summary.companiesUpdated, summary.reportsAdded, summary.reportsUpdated], [1, 1, 3, 3]);
      const company = await database.engine.db.selectFrom('companies').selectAll().where('tax_id_norm', '=', taxId).executeTakeFirstOrThrow();
      assert.equal(company.company_name, 'Orderly Renamed A.Ş.');
      assert.equal(Number(company.visible_report_count), 3, 'three approved claims from three members are visible');
      await assert.rejects(
        run(writeLines([companyLine({ company_name: 'Twice A.Ş.', reports: [makeReport({ ref: 'DUP-1' }), makeReport({ ref: 'DUP-1' })] })])),
        (e: ImportFailed) => /line 1: report ref 'DUP-1' appears twice in this line/.test(e.problems[0]!),
      );
    });

    test('D11: report status steps; an illegal step fails and changes nothing', async () => {
      await run(writeLines([companyLine({ company_name: 'Stepper A.Ş.', reports: [makeReport({ ref: 'STEP-1', status: 'pending' })] })]));
      const change = await setReportStatus({ db: database.engine.db, clock }, { kind: 'cli', user: 'test' }, { idOrRef: 'STEP-1', to: 'approved' });
      assert.deepEqual([change.from, change.to], ['pending', 'approved']);
      await assert.rejects(
        setReportStatus({ db: database.engine.db, clock }, { kind: 'cli', user: 'test' }, { idOrRef: 'STEP-1', to: 'rejected' }),
        /can become withdrawn or deactivated, not rejected/,
      );
      await assert.rejects(
        setReportStatus({ db: database.engine.db, clock }, { kind: 'cli', user: 'test' }, { idOrRef: String(change.reportId), to: 'bogus' }),
        /unknown status/,
      );
      await assert.rejects(
        setReportStatus({ db: database.engine.db, clock }, { kind: 'cli', user: 'test' }, { idOrRef: 'NO-SUCH', to: 'approved' }),
        /no report with id or ref/,
      );
      const byId = await setReportStatus(
        { db: database.engine.db, clock },
        { kind: 'cli', user: 'test' },
        { idOrRef: String(change.reportId), to: 'deactivated', reason: 'the debt was settled' },
      );
      assert.equal(byId.to, 'deactivated');
      assert.equal((await reportByRef('STEP-1')).status, 'deactivated');
    });

    test('D12: the visible count follows status changes (a third claim withdrawn hides all)', async () => {
      const claims = [1, 2, 3].map((i) => makeReport({ ref: `VIS-${i}`, type: 'unpaid_debt', reported_by: `M-CLAIM-${i}` }));
      const taxId = nextVkn();
      await run(writeLines([companyLine({ company_name: 'Visiblecount A.Ş.', tax_id: taxId, reports: claims })]));
      const count = async () =>
        Number(
          (await database.engine.db.selectFrom('companies').select('visible_report_count').where('tax_id_norm', '=', taxId).executeTakeFirstOrThrow())
            .visible_report_count,
        );
      assert.equal(await count(), 3);
      await setReportStatus({ db: database.engine.db, clock }, { kind: 'cli', user: 'test' }, { idOrRef: 'VIS-3', to: 'withdrawn' });
      assert.equal(await count(), 0);
    });

    test('D24: a file read and checked on the worker thread: the progress bar reaches its lines and bytes; a missing file fails', async () => {
      const lines = Array.from({ length: 2_500 }, (_, i) => companyLine({ company_name: `Workerread ${i} Gıda A.Ş.`, reports: [makeReport()] }));
      lines[1_200] = '';
      const path = writeLines(lines);
      const calls: Array<[number, number]> = [];
      const summary = await importFile(database.engine, path, { countries, clock, checkInWorker: true, onProgress: (n, bytes) => calls.push([n, bytes]) });
      assert.equal(summary.lines, 2_499);
      assert.equal(summary.companiesAdded, 2_499);
      assert.ok(calls.length >= 3, 'a report every 1 000 lines and one at the end');
      assert.deepEqual(calls[calls.length - 1], [2_500, statSync(path).size]);
      for (let i = 1; i < calls.length; i++) assert.ok(calls[i]![0] >= calls[i - 1]![0] && calls[i]![1] >= calls[i - 1]![1], 'lines and bytes only grow');
      await assert.rejects(importFile(database.engine, join(dir, 'missing.jsonl'), { countries, clock, checkInWorker: true }), /ENOENT/);
    });

    test('D24: a 2 000-line file imports line by line with progress reports', async () => {
      const path = join(dir, 'large.jsonl');
      const out = createWriteStream(path);
      for (let i = 0; i < 2_000; i++) {
        if (!out.write(`${companyLine({ company_name: `Bulk Şirketi ${i} Lojistik`, reports: [makeReport()] })}\n`)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      let progressCalls = 0;
      const summary = await importFile(database.engine, path, { countries, clock, onProgress: () => progressCalls++ });
      assert.equal(summary.companiesAdded, 2_000);
      assert.ok(progressCalls >= 2);
      rmSync(path);
    });
  });
}
