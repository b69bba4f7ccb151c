/**
 * The typed client against a real `risklookup serve` process, on every engine: a hit, a miss, a
 * near match, and each error class, each answer read through the generated types.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import pg from 'pg';
import { ENGINES, type TestDatabase } from '../../../test/helpers/engines.ts';
import { startServe, type ServeProcess } from '../../../test/helpers/cli.ts';
import { makeClaimants, makeCompanies, makeKeyHolder, makeReport, nextVkn } from '../../../test/helpers/factories.ts';
import { revokeKey } from '../../../src/keys/keys.service.ts';
import { systemClock } from '../../../src/lib/clock.ts';
import {
  createRiskLookupClient,
  errorDocsUrl,
  listEvents,
  listWatchlist,
  readNewEvents,
  readRateLimit,
  searchCompany,
  unwatchCompany,
  watchCompany,
  type ErrorBody,
  type ErrorReason,
  type Report,
} from '../src/index.ts';

const SCHEMA_FILE = new URL('../src/schema.d.ts', import.meta.url);
const OPENAPI_TYPESCRIPT = createRequire(import.meta.url)
  .resolve('openapi-typescript/package.json')
  .replace(/package\.json$/, 'bin/cli.js');

/** What a caller would do with a report: the generated union narrows on `type`. */
function caseLine(report: Report): string {
  switch (report.type) {
    case 'bounced_cheque':
      return `${report.case?.prosecutor_office ?? '?'} ${report.case?.investigation_number ?? '?'}`;
    case 'enforcement_plain':
    case 'enforcement_bill':
      return `${report.case?.enforcement_office ?? '?'} ${report.case?.file_number ?? '?'}`;
    case 'concordat':
      return `${report.concordat_start ?? '?'}..${report.concordat_end ?? '?'}`;
    default:
      return report.type;
  }
}

for (const engine of ENGINES) {
  describe(`typed client against a running server [${engine.name}]`, () => {
    let database: TestDatabase;
    let server: ServeProcess;
    const keys: Record<string, string> = {};
    let taxId: string;

    before(async () => {
      database = await engine.create();
      const db = database.engine.db;
      await makeClaimants(db, systemClock);
      [taxId] = (await makeCompanies(database.engine, systemClock, [
        {
          company_name: 'Clienttest Lojistik Ticaret A.Ş.',
          reports: [
            makeReport({
              type: 'bounced_cheque',
              amount: 72000.5,
              currency: 'TRY',
              case: { prosecutor_office: 'İstanbul Cumhuriyet Başsavcılığı', investigation_number: '2025/48213' },
            }),
            makeReport({ type: 'enforcement_plain', case: { enforcement_office: 'Ankara 3. İcra Dairesi', file_number: '2026/1' } }),
            makeReport({ type: 'concordat' }),
          ],
        },
      ])) as [string];
      keys.ok = await makeKeyHolder(db, systemClock, { ref: 'M-CLIENT' });
      keys.once = await makeKeyHolder(db, systemClock, { ref: 'M-ONCE', dailyLimit: 1 });
      keys.suspended = await makeKeyHolder(db, systemClock, { ref: 'M-SUSP', status: 'suspended' });
      keys.revoked = await makeKeyHolder(db, systemClock, { ref: 'M-REV' });
      await revokeKey(db, systemClock, 'M-REV');
      server = await startServe(['--db', database.url, '--db-statement-timeout', '300']);
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    const client = (key?: string) => createRiskLookupClient({ baseUrl: server.url, ...(key ? { apiKey: key } : {}) });

    async function expectError(
      call: Promise<{ data?: unknown; error?: ErrorBody; response: Response }>,
      status: number,
      reason: ErrorReason,
      followDocs = true,
    ) {
      const { data, error, response } = await call;
      assert.equal(data, undefined);
      assert.ok(error, `expected ${status} ${reason}`);
      assert.equal(response.status, status);
      assert.equal(error.reason, reason);
      assert.equal(error.code, status);
      assert.equal(error.docs, `/api/v1/docs/errors#reason-${reason}`);
      if (followDocs) await assertDocsEntry(error, response);
      return { error, response };
    }

    /** The docs link leads to the reason's entry on the same server. */
    async function assertDocsEntry(error: ErrorBody, response: Response) {
      const docs = await fetch(errorDocsUrl(error, response));
      assert.equal(docs.status, 200);
      assert.match(await docs.text(), new RegExp(`id="reason-${error.reason}"`));
    }

    test('the committed types are what openapi-typescript makes of the document the server serves', async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [OPENAPI_TYPESCRIPT, `${server.url}/api/v1/openapi.json`], {
        maxBuffer: 16 * 1024 * 1024,
      });
      assert.equal(stdout, readFileSync(SCHEMA_FILE, 'utf8'), 'stale: run `npm run docs` and `npm run generate -w clients/typescript`');
    });

    test('a hit: typed companies and reports, the quota in meta and in the standard RateLimit fields', async () => {
      const { data, error, response } = await searchCompany(client(keys.ok), { q: 'Clienttest Lojistik', country: 'TR' });
      assert.equal(error, undefined);
      assert.ok(data);
      assert.equal(data.result_count, 1);
      const company = data.results[0]!;
      assert.equal(company.tax_id, taxId);
      assert.equal(company.report_count, 3);
      assert.deepEqual(company.reports.map(caseLine).sort(), [
        '2025-01-01..2025-12-31',
        'Ankara 3. İcra Dairesi 2026/1',
        'İstanbul Cumhuriyet Başsavcılığı 2025/48213',
      ]);
      const cheque = company.reports.find((r) => r.type === 'bounced_cheque');
      assert.equal(cheque?.amount, 72000.5);
      assert.equal(data.meta.remaining_today, 99);
      const rateLimit = readRateLimit(response)!;
      assert.equal(rateLimit.limit, 100);
      assert.equal(rateLimit.remaining, 99);
      assert.ok(rateLimit.resetSeconds > 0 && rateLimit.resetSeconds <= 86_400);
    });

    test('the watchlist and the event feed: watch, list, poll (nothing yet), unwatch', async () => {
      const c = client(keys.ok);
      const watched = nextVkn();
      const put = await watchCompany(c, 'TR', watched);
      assert.equal(put.data?.watch.tax_id, watched);
      assert.equal(put.data?.added, true);
      const list = await listWatchlist(c, { limit: 10 });
      assert.equal(list.data?.cap, 500);
      assert.ok(list.data?.watches.some((w) => w.tax_id === watched));
      const polled = await readNewEvents(c, null);
      assert.deepEqual(polled.events, []);
      const gone = await unwatchCompany(c, 'TR', watched);
      assert.equal(gone.response.status, 204);
      await expectError(listEvents(c, { after: 'not-a-cursor' }), 400, 'invalid_cursor');
    });

    test('countries: the typed list with its tax-ID formats, no key needed', async () => {
      const { data } = await client().GET('/api/v1/countries.php');
      assert.ok(data);
      const tr = data.countries.find((c) => c.code === 'TR');
      assert.equal(tr?.id_types[0]?.type, 'VKN');
      assert.equal(data.country_count, data.countries.length);
    });

    test('a miss: 200 with no results; a tax-ID search has no near_matches', async () => {
      const { data } = await searchCompany(client(keys.ok), { q: 'Zzyzx Qwvbn Kargo' });
      assert.ok(data);
      assert.deepEqual(data.results, []);
      assert.equal(data.result_count, 0);
      assert.deepEqual(data.near_matches, []);
      const byId = await searchCompany(client(keys.ok), { q: nextVkn(), type: 'tax_id', country: 'TR' });
      assert.ok(byId.data);
      assert.deepEqual(byId.data.results, []);
      assert.equal(byId.data.near_matches, undefined);
    });

    test('a near match (D25): a misspelt name finds no result; near_matches names the company', async () => {
      const { data } = await searchCompany(client(keys.ok), { q: 'Clienttets Lojistik', country: 'TR' });
      assert.ok(data);
      assert.deepEqual(data.results, []);
      assert.equal(data.result_count, 0);
      assert.ok(data.near_matches, 'a name search always carries near_matches');
      const [best] = data.near_matches;
      assert.ok(best, 'the misspelt company is a near match');
      assert.equal(best.tax_id, taxId);
      assert.ok(best.similarity > 0 && best.similarity < 1, String(best.similarity));
      assert.equal('reports' in best, false);
    });

    test('400, 401 and 403: the reason, typed, with its docs link', async () => {
      await expectError(searchCompany(client(keys.ok), { q: 'ab' }), 400, 'invalid_parameter');
      await expectError(searchCompany(client(keys.ok), { q: 'A.Ş. Ltd' }), 400, 'query_too_generic');
      await expectError(searchCompany(client(), { q: 'Clienttest' }), 401, 'api_key_missing');
      await expectError(searchCompany(client('x'.repeat(64)), { q: 'Clienttest' }), 401, 'api_key_invalid');
      await expectError(searchCompany(client(keys.revoked), { q: 'Clienttest' }), 403, 'key_revoked');
      await expectError(searchCompany(client(keys.suspended), { q: 'Clienttest' }), 403, 'member_suspended');
    });

    test('429: the quota used up, with Retry-After and RateLimit r=0', async () => {
      assert.ok((await searchCompany(client(keys.once), { q: 'Clienttest' })).data);
      const { response } = await expectError(searchCompany(client(keys.once), { q: 'Clienttest' }), 429, 'rate_limited');
      assert.equal(readRateLimit(response)?.remaining, 0);
      assert.equal(Number(response.headers.get('retry-after')), Math.max(1, readRateLimit(response)!.resetSeconds));
    });

    if (engine.name === 'postgres') {
      test('503: the database does not answer in time (a lock held past the statement timeout)', async () => {
        let unavailable: { error: ErrorBody; response: Response } | undefined;
        const locker = new pg.Client({ connectionString: database.url });
        await locker.connect();
        try {
          await locker.query('BEGIN');
          await locker.query('LOCK TABLE usage_counters IN ACCESS EXCLUSIVE MODE');
          const { error, response } = await expectError(searchCompany(client(keys.ok), { q: 'Clienttest' }), 503, 'service_unavailable', false);
          assert.ok(Number(response.headers.get('retry-after')) >= 1);
          unavailable = { error, response };
        } finally {
          await locker.query('ROLLBACK');
          await locker.end();
        }
        await assertDocsEntry(unavailable.error, unavailable.response);
        assert.ok((await searchCompany(client(keys.ok), { q: 'Clienttest' })).data, 'answers again once the lock is gone');
      });
    }
  });
}
