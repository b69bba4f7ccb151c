/** `risklookup search` (support staff): the API's answer, no quota, audited as the operator. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli } from './helpers/cli.ts';
import { makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { makeTestApp, search } from './helpers/app.ts';
import { systemClock } from '../src/lib/clock.ts';
import { readJson, type SearchBody } from './helpers/bodies.ts';

for (const engine of ENGINES) {
  describe(`risklookup search [${engine.name}]`, () => {
    let database: TestDatabase;
    let taxId: string;
    const cli = (...args: string[]) => runCli([...args, '--db', database.url]);

    before(async () => {
      database = await engine.create();
      const taxIds = await makeCompanies(database.engine, systemClock, [
        { company_name: 'Destek Lojistik A.Ş.', reports: [makeReport({ amount: 1250.5, currency: 'TRY' })] },
      ]);
      taxId = taxIds[0]!;
    });
    after(async () => {
      await database?.drop();
    });

    test('--json prints the body the API answers, without quota figures; the text names company and reports', async () => {
      const key = await makeKeyHolder(database.engine.db, systemClock, { ref: 'M-SUPPORT', dailyLimit: 5 });
      const testApp = await makeTestApp(database);
      const api = (await search(testApp.app, key, 'q=destek%20lojistik')).json<SearchBody>();
      await testApp.close();
      const printed = await cli('search', 'destek lojistik', '--json');
      assert.equal(printed.code, 0, printed.stderr);
      const body = readJson<SearchBody>(printed.stdout);
      const { queries_used_today: _u, daily_limit: _d, remaining_today: _r, response_ms: _a, ...apiMeta } = api.meta;
      const { response_ms: _b, ...cliMeta } = body.meta;
      assert.deepEqual({ ...body, meta: cliMeta }, { ...api, meta: apiMeta });

      const text = await cli('search', taxId!, '--type', 'tax_id', '--country', 'tr');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /Destek Lojistik A\.Ş\./);
      assert.match(text.stdout, /1250\.50 TRY/);
    });

    test('audited as the operator (channel cli), charged to nobody; a mistyped tax ID is a usage error', async () => {
      const before = await database.engine.db.selectFrom('usage_counters').select(['subject', 'used']).execute();
      const typo = await cli('search', `${taxId!.slice(0, 9)}${(Number(taxId!.at(-1)) + 1) % 10}`, '--type', 'tax_id', '--country', 'TR');
      assert.equal(typo.code, 2);
      assert.match(typo.stderr, /not a valid TR tax ID/);
      const rows = await database.engine.db.selectFrom('audit_log').select(['channel', 'actor', 'status', 'key_id']).where('channel', '=', 'cli').execute();
      assert.deepEqual(
        rows.map((r) => [r.channel, r.status, r.key_id, typeof r.actor]),
        [
          ['cli', 200, null, 'string'],
          ['cli', 200, null, 'string'],
          ['cli', 400, null, 'string'],
        ],
      );
      assert.deepEqual(await database.engine.db.selectFrom('usage_counters').select(['subject', 'used']).execute(), before);
    });
  });
}
