/** Search answers (spec 2.1–2.4, D4, D7, D8, D10, D12–D14), on every engine. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import type { ErrorBody, ReportBody, SearchBody } from './helpers/bodies.ts';
import { REPORT_TYPES, type ReportType } from '../src/reports/report-types.ts';
import { makeClaimants, makeCompanies, makeKeyHolder, makeReport, nextVkn } from './helpers/factories.ts';

const claim = (by: number, overrides: Record<string, unknown> = {}) => makeReport({ type: 'unpaid_debt', reported_by: `M-CLAIM-${by}`, ...overrides });

for (const engine of ENGINES) {
  describe(`search answers [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;
    const ids: Record<string, string> = {};

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      key = await makeKeyHolder(db, t.clock, { ref: 'M-1', dailyLimit: 10_000 });
      await makeClaimants(db, t.clock);
      const taxIds = await makeCompanies(database.engine, t.clock, [
        {
          company_name: 'Fieldtest Kargo A.Ş.',
          city: 'Bursa',
          reports: [
            makeReport({
              type: 'enforcement_judgment',
              filed_at: '2026-03-01 09:15:00',
              description: 'ilamlı takip',
              amount: 1234.5,
              currency: 'TRY',
              court_decision_date: '2026-02-20',
              case: { enforcement_office: 'Bursa 3. İcra', file_number: '2026/11', date: '2026-02-25' },
            }),
            makeReport({
              type: 'bounced_cheque',
              filed_at: '2026-04-01 09:15:00',
              case: { prosecutor_office: 'Bursa CBS', investigation_number: '2026/77' },
            }),
            makeReport({
              type: 'debt_assigned',
              filed_at: '2026-04-01 09:15:00',
              // Filed in another order than the document's: answered in the document's.
              case: { assignment_date: '2026-03-30', contract_number: 'C-1', collection_company: 'X Varlık' },
            }),
            makeReport({ type: 'concordat', filed_at: '2025-01-01 00:00:00', concordat_start: '2024-12-01', concordat_end: '2025-12-01' }),
            makeReport({ type: 'court_decision', filed_at: '2025-02-01 00:00:00', court_decision_date: '2025-01-15' }),
          ],
        },
        { company_name: 'Twoclaims Nakliyat Ltd. Şti.', reports: [claim(1), claim(2)] },
        { company_name: 'Threeclaims Nakliyat Ltd. Şti.', reports: [claim(1), claim(2), claim(3)] },
        { company_name: 'Onemember Nakliyat Ltd. Şti.', reports: [claim(1), claim(1), claim(1)] },
        { company_name: 'Withdrawnthird Nakliyat Ltd. Şti.', reports: [claim(1), claim(2), claim(3, { status: 'withdrawn' })] },
        { company_name: 'Rejectedthird Nakliyat Ltd. Şti.', reports: [claim(1), claim(2), claim(3, { status: 'rejected' })] },
        { company_name: 'Officiallift Nakliyat Ltd. Şti.', reports: [claim(1), makeReport({ type: 'enforcement_bill' })] },
        { company_name: 'Pendingonly Gıda A.Ş.', reports: [makeReport({ status: 'pending' })] },
        { company_name: 'Fivereports Lojistik A.Ş.', reports: [1, 2, 3, 4, 5].map(() => makeReport()) },
        { company_name: 'Sixreports Lojistik A.Ş.', reports: [1, 2, 3, 4, 5, 6].map(() => makeReport()) },
        { company_name: 'İSTANBUL IŞIK Çelik Sanayi ve Ticaret A.Ş.' },
        { company_name: 'Kaya' + ' Demir A.Ş.' },
        { company_name: 'Demir A.Ş.' },
        { company_name: 'Demir Yolu Taşımacılık A.Ş.' },
        { company_name: 'Özdemir Metal Ltd. Şti.', reports: [makeReport(), makeReport()] },
        { company_name: '100% Pure_Plastik A.Ş.' },
        { company_name: 'Müller Spedition GmbH', tax_id: 'DE136695976', country: 'DE' },
      ]);
      ['fieldtest', 'two', 'three', 'onemember', 'withdrawn', 'rejected', 'official', 'pending', 'five', 'six', 'istanbul'].forEach(
        (name, i) => (ids[name] = taxIds[i]!),
      );
      for (let i = 0; i < 12; i++) await makeCompanies(database.engine, t.clock, [{ company_name: `Manyhits Transport ${i}` }]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    async function ok(query: string) {
      const res = await search(t.app, key, query);
      assert.equal(res.statusCode, 200, res.body);
      return res.json<SearchBody>();
    }

    test('spec 2.1-2.4: every envelope, company and report field, with D14 type-specific fields', async () => {
      const body = await ok('q=Fieldtest');
      assert.deepEqual(Object.keys(body), ['success', 'query', 'type', 'country', 'result_count', 'results', 'meta', 'near_matches']);
      // D25: on every name search; [] when there are results.
      assert.deepEqual(body.near_matches, []);
      assert.equal(body.success, true);
      assert.equal(body.result_count, 1);
      const company = body.results[0]!;
      assert.equal(company.company_name, 'Fieldtest Kargo A.Ş.');
      assert.equal(company.tax_id, ids.fieldtest);
      assert.equal(company.country, 'TR');
      assert.equal(company.city, 'Bursa');
      assert.equal(company.threat_level, 'normal');
      assert.equal(company.report_count, 5);
      assert.equal(company.reports.length, 5);
      assert.match(company.last_updated, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // D4: the last change was made at the test clock's noon, Turkey time.
      assert.equal(company.last_updated, '2026-11-21 12:00:00');
      const byType = Object.fromEntries(company.reports.map((r) => [r.type, r])) as Record<ReportType, ReportBody>;
      assert.deepEqual(Object.keys(byType.enforcement_judgment).sort(), [
        'amount',
        'case',
        'court_decision_date',
        'currency',
        'description',
        'disputed',
        'filed_at',
        'official',
        'report_id',
        'type',
      ]);
      // D33: every report item says whether it is disputed; no statement without an upheld dispute.
      assert.deepEqual(
        company.reports.map((r) => [r.disputed, 'statement' in r]),
        company.reports.map(() => [false, false]),
      );
      assert.equal(byType.enforcement_judgment.filed_at, '2026-03-01 09:15:00');
      assert.equal(byType.enforcement_judgment.amount, 1234.5);
      assert.equal(byType.enforcement_judgment.currency, 'TRY');
      assert.equal(byType.enforcement_judgment.court_decision_date, '2026-02-20');
      assert.deepEqual(byType.enforcement_judgment.case, { enforcement_office: 'Bursa 3. İcra', file_number: '2026/11', date: '2026-02-25' });
      assert.equal(byType.enforcement_judgment.official, true);
      assert.deepEqual(byType.bounced_cheque.case, { prosecutor_office: 'Bursa CBS', investigation_number: '2026/77' });
      assert.deepEqual(byType.debt_assigned.case, { collection_company: 'X Varlık', contract_number: 'C-1', assignment_date: '2026-03-30' });
      assert.deepEqual(Object.keys(byType.debt_assigned.case), ['collection_company', 'contract_number', 'assignment_date']);
      assert.equal(byType.concordat.official, false);
      assert.equal(byType.concordat.concordat_start, '2024-12-01');
      assert.equal(byType.concordat.concordat_end, '2025-12-01');
      assert.equal(byType.court_decision.court_decision_date, '2025-01-15');
      assert.equal(byType.court_decision.official, false);
      // Absent, not null, where a field does not apply.
      assert.equal('amount' in byType.bounced_cheque, false);
      assert.equal('case' in byType.concordat, false);
      assert.equal('court_decision_date' in byType.bounced_cheque, false);
      assert.equal(typeof byType.bounced_cheque.report_id, 'number');
      // The reporting member is never shown (D13).
      assert.equal(JSON.stringify(company).includes('M-CLAIM'), false);
    });

    test('every answer fits SearchResponse of the OpenAPI document: every report type, near matches, tax-ID', async () => {
      // The route writes its 200 body with JSON.stringify (search.routes.ts): the model, not the
      // schema, decides what is written, so an extra or misnamed field must fail here.
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ ...(await t.app.inject({ url: '/api/v1/openapi.json' })).json<object>(), $id: 'doc' });
      const fits = ajv.getSchema('doc#/components/schemas/SearchResponse')!;
      const types = new Set<string>();
      let nearMatches = 0;
      for (const query of [
        'q=Fieldtest',
        'q=Threeclaims',
        'q=Officiallift',
        'q=Fivereports',
        'q=Fieldtezt Kargo',
        'q=Nobody Here',
        `type=tax_id&country=TR&q=${ids.fieldtest}`,
      ]) {
        const body = await ok(query);
        assert.ok(fits(body), `${query}: ${JSON.stringify(fits.errors)}`);
        for (const company of body.results) for (const report of company.reports) types.add(report.type);
        nearMatches += body.near_matches?.length ?? 0;
      }
      assert.deepEqual([...types].sort(), [...REPORT_TYPES].sort());
      assert.ok(nearMatches > 0, 'a near match was checked');
      // And the check can fail: one field more than the document allows.
      const body = await ok('q=Fieldtest');
      body.results[0]!.reports[0]!.description = 'x';
      assert.ok(fits(body));
      Object.assign(body.results[0]!.reports[0]!, { reported_by: 'M-1' });
      assert.ok(!fits(body));
    });

    test('D13: reports newest first, ties by report_id descending', async () => {
      const { reports } = (await ok('q=Fieldtest')).results[0]!;
      const order = reports.map((r) => [r.filed_at, r.report_id] as const);
      const sorted = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
      assert.deepEqual(order, sorted);
      assert.equal(reports[0]!.filed_at, '2026-04-01 09:15:00');
      assert.ok(reports[0]!.report_id > reports[1]!.report_id);
    });

    test('spec 2.4 / D19: meta counts this request', async () => {
      const first = await ok('q=Fieldtest');
      const second = await ok('q=Fieldtest');
      assert.equal(second.meta.queries_used_today, first.meta.queries_used_today + 1);
      assert.equal(second.meta.daily_limit, 10_000);
      assert.equal(second.meta.remaining_today, 10_000 - second.meta.queries_used_today);
      assert.equal(typeof second.meta.response_ms, 'number');
      assert.equal(second.meta.truncated, false);
    });

    test('D7: echoes are the trimmed q, the type used and the upper-cased country', async () => {
      const body = await ok('q=%20%20Fieldtest%20%20%20Kargo%20&country=tr');
      assert.equal(body.query, 'Fieldtest Kargo');
      assert.equal(body.type, 'name');
      assert.equal(body.country, 'TR');
      assert.equal((await ok('q=Fieldtest')).country, null);
    });

    test('spec 2.1: nothing found is a success with zero results', async () => {
      const body = await ok('q=Nosuchcompanyatall');
      assert.equal(body.success, true);
      assert.equal(body.result_count, 0);
      assert.deepEqual(body.results, []);
    });

    test('D12: two claims hidden, three from one member hidden, third withdrawn or rejected hidden', async () => {
      for (const q of ['Twoclaims', 'Onemember', 'Withdrawnthird', 'Rejectedthird', 'Pendingonly']) {
        assert.equal((await ok(`q=${q}`)).result_count, 0, q);
      }
      for (const taxId of [ids.two, ids.onemember, ids.withdrawn, ids.pending]) {
        assert.equal((await ok(`q=${taxId}&type=tax_id&country=TR`)).result_count, 0, taxId);
      }
    });

    test('D12: three independent claims are all shown, unofficial', async () => {
      const company = (await ok('q=Threeclaims')).results[0]!;
      assert.equal(company.report_count, 3);
      assert.ok(company.reports.every((r: { type: string; official: boolean }) => r.type === 'unpaid_debt' && r.official === false));
    });

    test('D12: one official file lifts a single claim', async () => {
      const company = (await ok('q=Officiallift')).results[0]!;
      assert.deepEqual(company.reports.map((r: { type: string }) => r.type).sort(), ['enforcement_bill', 'unpaid_debt']);
    });

    test('spec 3.2: 5 reports normal, 6 reports high', async () => {
      const five = (await ok('q=Fivereports')).results[0]!;
      const six = (await ok('q=Sixreports')).results[0]!;
      assert.deepEqual([five.report_count, five.threat_level], [5, 'normal']);
      assert.deepEqual([six.report_count, six.threat_level], [6, 'high']);
    });

    test('D8: Turkish İ/I/ı/i and diacritics match either way', async () => {
      for (const q of ['istanbul isik', 'İSTANBUL IŞIK', 'ıstanbul ışık', 'ISTANBUL celik', 'Istanbul Çelik']) {
        const body = await ok(`q=${encodeURIComponent(q)}`);
        assert.equal(body.result_count, 1, q);
        assert.equal(body.results[0]!.company_name, 'İSTANBUL IŞIK Çelik Sanayi ve Ticaret A.Ş.');
      }
    });

    test('D8: any word order, partial words, legal forms dropped', async () => {
      assert.equal((await ok(`q=${encodeURIComponent('celik istanbul')}`)).result_count, 1);
      assert.equal((await ok(`q=${encodeURIComponent('stanb Işı')}`)).result_count, 1);
      assert.equal((await ok(`q=${encodeURIComponent('İstanbul Işık A.Ş. Ltd. Şti.')}`)).result_count, 1);
      assert.equal((await ok(`q=${encodeURIComponent('istanbul demir')}`)).result_count, 0);
    });

    test('D8: % _ * ? are never wildcards', async () => {
      // Read as wildcards these would match every company; as punctuation they leave no word.
      for (const q of ['%%%', '___', '***', '???', '%_*?%']) {
        const res = await search(t.app, key, `q=${encodeURIComponent(q)}`);
        assert.equal(res.statusCode, 400, q);
        assert.equal(res.json<ErrorBody>().reason, 'query_too_generic', q);
      }
      const plain = (await ok('q=demir')).results;
      assert.deepEqual((await ok(`q=${encodeURIComponent('%%%demir*')}`)).results, plain);
      assert.equal((await ok(`q=${encodeURIComponent('Pure_Plastik')}`)).result_count, 1);
    });

    test('D8: ranking whole name, then prefix, then contains; ties by report count', async () => {
      const names = (await ok('q=demir')).results.map((r: { company_name: string }) => r.company_name);
      assert.deepEqual(names, ['Demir A.Ş.', 'Demir Yolu Taşımacılık A.Ş.', 'Özdemir Metal Ltd. Şti.', 'Kaya Demir A.Ş.']);
    });

    test('D10: at most 10 companies, truncated says more matched', async () => {
      const body = await ok('q=Manyhits');
      assert.equal(body.result_count, 10);
      assert.equal(body.results.length, 10);
      assert.equal(body.meta.truncated, true);
      assert.equal((await ok('q=Fieldtest')).meta.truncated, false);
    });

    test('D9: tax ID matches exactly after normalisation, with or without the country prefix', async () => {
      const id = ids.fieldtest!;
      const spaced = `${id.slice(0, 3)} ${id.slice(3, 6)}.${id.slice(6)}`;
      for (const q of [id, spaced, `TR${id}`, `tr-${id}`]) {
        const body = await ok(`type=tax_id&country=TR&q=${encodeURIComponent(q)}`);
        assert.equal(body.result_count, 1, q);
        assert.equal(body.results[0]!.tax_id, id);
      }
      assert.equal((await ok(`type=tax_id&q=${id}`)).result_count, 1);
      assert.equal((await ok(`type=tax_id&q=${id.slice(0, 9)}`)).result_count, 0, 'never partial');
      assert.equal((await ok('type=tax_id&q=de136695976')).results[0]?.company_name, 'Müller Spedition GmbH');
      assert.equal((await ok('type=tax_id&q=136695976&country=DE')).result_count, 1);
    });

    test('D9: a valid but unknown TR tax ID is a clean zero', async () => {
      const body = await ok(`type=tax_id&country=TR&q=${nextVkn()}`);
      assert.equal(body.result_count, 0);
    });

    test('country filter restricts results', async () => {
      assert.equal((await ok('q=Muller&country=DE')).result_count, 1);
      assert.equal((await ok('q=Muller&country=TR')).result_count, 0);
    });

    test('D5: search answers are not cacheable and carry no CORS headers', async () => {
      const res = await search(t.app, key, 'q=Fieldtest');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    });
  });
}
