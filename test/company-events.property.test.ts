/**
 * D31, as a property on both engines: for random sequences of filings and steps (file, approve,
 * reject, deactivate, withdraw; import a report, move an imported report by ref), the events each
 * watcher reads from the feed after a step are exactly the difference between the search answers
 * (a real tax-ID search through the API) before and after it: one event per changed watched
 * company, with the threat level and count before and after, `report_published` when a report
 * became visible and `report_removed` when one stopped being visible; none when nothing changed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { companyLine, countries, makeClaimants, makeKeyHolder, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { claimInput } from './helpers/filing.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { fileReport, type Filer, moderateReport } from './helpers/use-cases.ts';
import { importLines, ImportFailed } from '../src/import/import.service.ts';
import { DomainError } from '../src/lib/errors.ts';
import type { CompanyEventView } from '../src/events/company-event.ts';
import type { ModerationDeps } from '../src/reports/moderation.service.ts';

type Step =
  | { kind: 'file'; filer: number; company: number; official: boolean }
  | { kind: 'moderate'; report: number; step: 'approve' | 'reject' | 'deactivate' | 'withdraw' }
  | { kind: 'import'; company: number; claimant: number | null; status: 'approved' | 'pending' }
  | { kind: 'import_status'; report: number; status: 'approved' | 'withdrawn' | 'deactivated' | 'rejected' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('file' as const), filer: fc.nat(2), company: fc.nat(1), official: fc.boolean() }),
  fc.record({ kind: fc.constant('moderate' as const), report: fc.nat(7), step: fc.constantFrom('approve', 'approve', 'reject', 'deactivate', 'withdraw') }),
  fc.record({
    kind: fc.constant('import' as const),
    company: fc.nat(1),
    claimant: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    status: fc.constantFrom('approved', 'pending'),
  }),
  fc.record({ kind: fc.constant('import_status' as const), report: fc.nat(5), status: fc.constantFrom('approved', 'withdrawn', 'deactivated', 'rejected') }),
);

interface Answer {
  threat: string | null;
  count: number;
  ids: number[];
}

for (const engine of ENGINES) {
  describe(`events are the difference of search answers (property) [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let deps: ModerationDeps;
    let searcher: string;
    let watchers: string[];
    const filers: Filer[] = [];
    let op: number;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { watchlistDailyLimit: 1_000_000, eventsDailyLimit: 1_000_000 });
      const { db } = database.engine;
      deps = { db, clock: t.clock };
      await makeClaimants(db, t.clock);
      searcher = await makeKeyHolder(db, t.clock, { ref: 'P-SEARCH', dailyLimit: 10_000_000 });
      watchers = [await makeKeyHolder(db, t.clock, { ref: 'P-W1' }), await makeKeyHolder(db, t.clock, { ref: 'P-W2' })];
      for (const ref of ['P-F1', 'P-F2', 'P-F3']) {
        await makeMember(db, t.clock, { ref });
        filers.push({
          userId: await makeUser(db, { email: `u@${ref.toLowerCase()}.test`, role: 'member_user', memberRef: ref }),
          memberId: await memberIdOf(db, ref),
        });
      }
      op = await makeUser(db, { email: 'op@property.test', role: 'operator' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const answerOf = async (taxId: string): Promise<Answer> => {
      const res = await search(t.app, searcher, `q=${taxId}&type=tax_id&country=TR`);
      assert.equal(res.statusCode, 200, res.body);
      const result = res.json<{ results: Array<{ threat_level: string; report_count: number; reports: Array<{ report_id: number }> }> }>().results[0];
      return result
        ? { threat: result.threat_level, count: result.report_count, ids: result.reports.map((r) => r.report_id).sort((a, b) => a - b) }
        : { threat: null, count: 0, ids: [] };
    };
    const cursors = new Map<string, string | null>();
    const newEvents = async (key: string): Promise<CompanyEventView[]> => {
      const out: CompanyEventView[] = [];
      for (;;) {
        const after = cursors.get(key);
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/events?limit=50${after ? `&after=${after}` : ''}`, headers: { 'x-api-key': key } });
        const page = res.json<{ events: CompanyEventView[]; next_cursor: string | null; has_more: boolean }>();
        out.push(...page.events);
        cursors.set(key, page.next_cursor);
        if (!page.has_more) return out;
      }
    };
    const expected = (taxId: string, before: Answer, after: Answer) => {
      const kinds = [];
      if (after.ids.some((id) => !before.ids.includes(id))) kinds.push('report_published');
      if (before.ids.some((id) => !after.ids.includes(id))) kinds.push('report_removed');
      if (kinds.length === 0) return [];
      return [
        { tax_id: taxId, threat_level: { before: before.threat, after: after.threat }, report_count: { before: before.count, after: after.count }, kinds },
      ];
    };
    const shapeOf = (e: CompanyEventView) => ({ tax_id: e.tax_id, threat_level: e.threat_level, report_count: e.report_count, kinds: e.kinds });

    /** Runs one step; a refused step (D11, D29 rules) changes nothing and is kept as such. */
    async function run(step: Step, companies: string[], filed: number[], imported: string[]): Promise<void> {
      try {
        if (step.kind === 'file') {
          const overrides = step.official
            ? {
                type: 'enforcement_plain',
                amount: null,
                currency: null,
                case: { enforcement_office: 'İzmir 1. İcra', file_number: '2026/1', date: '2026-04-01' },
              }
            : {};
          filed.push((await fileReport({ ...deps, countries }, filers[step.filer]!, claimInput(companies[step.company]!, overrides))).reportId);
        } else if (step.kind === 'moderate') {
          const reportId = filed[step.report % Math.max(1, filed.length)];
          if (reportId === undefined) return;
          const row = await deps.db.selectFrom('reports').select('reported_by').where('id', '=', reportId).executeTakeFirstOrThrow();
          const filer = filers.find((f) => f.memberId === Number(row.reported_by)) ?? filers[0]!;
          const who =
            step.step === 'withdraw'
              ? ({ kind: 'member', userId: filer.userId, memberId: filer.memberId } as const)
              : ({ kind: 'operator', userId: op } as const);
          await moderateReport(deps, who, reportId, step.step, step.step === 'approve' ? null : 'property step');
        } else if (step.kind === 'import') {
          const report =
            step.claimant === null
              ? makeReport({ status: step.status })
              : makeReport({ type: 'unpaid_debt', reported_by: `M-CLAIM-${step.claimant}`, status: step.status });
          imported.push(report.ref as string);
          await importLines(
            database.engine,
            [companyLine({ company_name: 'Özellik Makina A.Ş.', tax_id: companies[step.company]!, reports: [report] })],
            'test',
            {
              countries,
              clock: t.clock,
            },
          );
        } else {
          const ref = imported[step.report % Math.max(1, imported.length)];
          if (ref === undefined) return;
          const row = await deps.db
            .selectFrom('reports')
            .innerJoin('companies', 'companies.id', 'reports.company_id')
            .select(['reports.type', 'companies.tax_id'])
            .where('reports.ref', '=', ref)
            .executeTakeFirst();
          if (!row) return;
          const report = makeReport({ ref, type: row.type, status: step.status, ...(row.type === 'unpaid_debt' ? { reported_by: 'M-CLAIM-1' } : {}) });
          await importLines(database.engine, [companyLine({ company_name: 'Özellik Makina A.Ş.', tax_id: row.tax_id, reports: [report] })], 'test', {
            countries,
            clock: t.clock,
          });
        }
      } catch (error) {
        if (!(error instanceof DomainError) && !(error instanceof ImportFailed)) throw error;
      }
    }

    test('after every step, each watcher reads exactly the changes of the answers of the companies it watches', async () => {
      let seen = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
          const companies = [nextVkn(), nextVkn()];
          // The first watcher watches both companies, the second only the first.
          for (const [i, key] of watchers.entries()) {
            for (const taxId of i === 0 ? companies : companies.slice(0, 1)) {
              const res = await t.app.inject({ method: 'PUT', url: `/api/v1/watchlist/TR/${taxId}`, headers: { 'x-api-key': key } });
              assert.equal(res.statusCode, 200, res.body);
            }
            await newEvents(key);
          }
          const filed: number[] = [];
          const imported: string[] = [];
          for (const step of steps) {
            const before = await Promise.all(companies.map(answerOf));
            t.clock.advance(1000);
            await run(step, companies, filed, imported);
            const after = await Promise.all(companies.map(answerOf));
            for (const [i, key] of watchers.entries()) {
              const watched = i === 0 ? [0, 1] : [0];
              const want = watched.flatMap((c) => expected(companies[c]!, before[c]!, after[c]!));
              const got = (await newEvents(key)).map(shapeOf);
              seen += got.length;
              assert.deepEqual(got, want, `watcher ${i + 1} after ${JSON.stringify(step)}`);
            }
          }
        }),
        { numRuns: engine.name === 'sqlite' ? 25 : 12, seed: Number(process.env.PROPERTY_SEED ?? 20_261_127) },
      );
      // A fixed seed (PROPERTY_SEED to explore others), so the run is the same every time.
      assert.ok(seen > 0, `the sequences changed answers (${seen} events compared)`);
    });
  });
}
