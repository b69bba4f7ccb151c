/**
 * A watch added while an import runs (D31): its baseline is computed from what was committed, so
 * without the import's rows; the import must tell it at its end, whatever the watch's time stamp
 * says (a process whose clock runs behind, or a watch whose transaction began long before it
 * committed). The import reads the watched companies again under the feed's head, which a new
 * watch takes too, and compares them with those it read at its start.
 *
 * PostgreSQL only: a watch can commit while an import runs only there (on SQLite the import holds
 * the database's one write lock from its first line to its commit, and a watch waits for it).
 * There too, a load into an empty database holds the companies and reports exclusively until its
 * commit: a watch asked for meanwhile waits for it, and neither is aborted.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { companyLine, countries, makeKeyHolder, makeReport, nextVkn } from './helpers/factories.ts';
import { importLines } from '../src/import/import.service.ts';
import type { CompanyEventView } from '../src/events/company-event.ts';

for (const engine of ENGINES.filter((e) => e.name === 'postgres')) {
  describe(`a watch added while an import runs [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let watcher: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      watcher = await makeKeyHolder(database.engine.db, t.clock, { ref: 'WD-1', dailyLimit: 1000 });
      // Not empty: the import is an ordinary one, not a fresh load.
      await importLines(database.engine, [companyLine({ company_name: 'Önceki Lojistik A.Ş.' })], 'test', { countries, clock: t.clock });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const events = async (): Promise<CompanyEventView[]> => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/events?limit=100', headers: { 'x-api-key': watcher } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json<{ events: CompanyEventView[] }>().events;
    };

    for (const [label, ahead] of [
      ['the clocks agree', 0],
      ["the import's clock 10 minutes ahead of the watch's", 600_000],
    ] as const) {
      test(`a company watched after the import's first lines gets its event (${label})`, async () => {
        const taxId = nextVkn();
        const seen = (await events()).length;
        let watched = false;
        async function* lines() {
          yield companyLine({ company_name: 'İzlenen Nakliyat Ltd. Şti.', tax_id: taxId, reports: [makeReport(), makeReport()] });
          for (let i = 0; i < 5; i++) yield companyLine({ company_name: `Başka ${i} Ticaret A.Ş.` });
          // The watch commits on another connection while the import's transaction is open.
          const res = await t.app.inject({ method: 'PUT', url: `/api/v1/watchlist/TR/${taxId}`, headers: { 'x-api-key': watcher } });
          assert.equal(res.statusCode, 200, res.body);
          watched = true;
          for (let i = 5; i < 10; i++) yield companyLine({ company_name: `Başka ${i} Ticaret A.Ş.` });
        }
        await importLines(database.engine, lines(), 'test', { countries, clock: { now: () => t.clock.now() + ahead } });
        assert.ok(watched);
        const told = (await events()).slice(seen);
        assert.deepEqual(
          told.map((e) => [e.tax_id, e.report_count.before, e.report_count.after, e.kinds.join()]),
          [[taxId, 0, 2, 'report_published']],
        );
      });
    }
  });
}

for (const engine of ENGINES.filter((e) => e.name === 'postgres')) {
  describe(`a watch asked for while a load into an empty database runs [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let watcher: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      watcher = await makeKeyHolder(database.engine.db, t.clock, { ref: 'WD-2', dailyLimit: 1000 });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    /** Until a statement of this database waits for a lock (the watch, behind the load's). */
    const someoneWaitsForALock = async () => {
      for (let i = 0; i < 500; i++) {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(database.engine.db);
        if (rows[0]!.n > 0) return;
        await sleep(20);
      }
      assert.fail('no statement came to wait for the load');
    };

    test('the load and the watch both succeed, and the watch starts from what the load wrote', async () => {
      const taxId = nextVkn();
      let put: Promise<{ statusCode: number; body: string }> | null = null;
      async function* lines() {
        yield companyLine({ company_name: 'İzlenen Nakliyat Ltd. Şti.', tax_id: taxId, reports: [makeReport(), makeReport()] });
        for (let i = 0; i < 5; i++) yield companyLine({ company_name: `Başka ${i} Ticaret A.Ş.` });
        put = (async () => await t.app.inject({ method: 'PUT', url: `/api/v1/watchlist/TR/${taxId}`, headers: { 'x-api-key': watcher } }))();
        // Before: the watch took the feed's head, then waited for the load's lock on the companies,
        // and the load, taking the head at its end, was aborted as a deadlock.
        await someoneWaitsForALock();
        for (let i = 5; i < 10; i++) yield companyLine({ company_name: `Başka ${i} Ticaret A.Ş.` });
      }
      const summary = await importLines(database.engine, lines(), 'test', { countries, clock: t.clock });
      assert.equal(summary.companiesAdded, 11);
      const res = await put!;
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(await events(t, watcher), [], 'its baseline holds the load: nothing changed since');
      // The next change is told from there.
      const more = companyLine({ company_name: 'İzlenen Nakliyat Ltd. Şti.', tax_id: taxId, reports: [makeReport()] });
      await importLines(database.engine, [more], 'test', { countries, clock: t.clock });
      assert.deepEqual(
        (await events(t, watcher)).map((e) => [e.report_count.before, e.report_count.after]),
        [[2, 3]],
      );
    });
  });
}

async function events(t: TestApp, key: string): Promise<CompanyEventView[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/events?limit=100', headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ events: CompanyEventView[] }>().events;
}
