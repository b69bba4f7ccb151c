/**
 * `serve` on SQLite reads near matches' look-ups in a thread of its own (db/sqlite-reader.ts,
 * issue 28), unless `--sqlite-reader no`: the same answers either way, and the metrics port says
 * which thread read them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeClaimants, makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { startServe } from './helpers/cli.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { NOON_TR } from './helpers/app.ts';

const clock = fixedClock(NOON_TR);
const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;

describe("serve on SQLite: near matches' look-ups in the reading thread", () => {
  let database: TestDatabase;
  let key: string;

  before(async () => {
    database = await sqlite.create();
    await makeClaimants(database.engine.db, clock);
    await makeCompanies(database.engine, clock, [
      { company_name: 'Karabacakoğlu Seramik A.Ş.', city: 'Kütahya', reports: [makeReport({ status: 'approved' })] },
      { company_name: 'Anadolu Seramik Ltd. Şti.', reports: [makeReport({ status: 'approved' })] },
    ]);
    key = await makeKeyHolder(database.engine.db, clock, { ref: 'M-READER' });
    // The server opens the file itself.
    await database.engine.close();
  });
  after(async () => {
    await database?.drop();
  });

  /** A misspelt name's answer and the reading thread's figures from the metrics port. */
  async function askOnce(args: string[]) {
    const server = await startServe(['--db', database.url, '--metrics-port', '0', '--search-cache-entries', '0', ...args]);
    try {
      const response = await fetch(`${server.url}/api/v1/search.php?q=${encodeURIComponent('Karabacakolu Seramik')}&type=name`, {
        headers: { 'X-API-Key': key },
      });
      const body = await response.text();
      assert.equal(response.status, 200, body);
      const metrics = await (await fetch(/metrics on (http:\/\/\S+)/.exec(server.stdout())![1]!)).text();
      const figure = (name: string) => {
        const found = new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics);
        return found ? Number(found[1]) : null;
      };
      return {
        body: JSON.parse(body) as { near_matches: Array<{ company_name: string }> },
        running: figure('risklookup_sqlite_reader_running'),
        statements: figure('risklookup_sqlite_reader_statements_total'),
      };
    } finally {
      assert.equal(await server.stop(), 0, server.stderr());
    }
  }

  test('by default the thread reads them; with --sqlite-reader no the serving thread does; the answers are the same', async () => {
    const threaded = await askOnce([]);
    assert.deepEqual(
      threaded.body.near_matches.map((m) => m.company_name),
      ['Karabacakoğlu Seramik A.Ş.'],
    );
    assert.equal(threaded.running, 1);
    assert.ok(threaded.statements! > 0, `statements ${threaded.statements}`);
    const plain = await askOnce(['--sqlite-reader', 'no']);
    // The same answer (its meta counts the member's second query of the day).
    assert.deepEqual({ ...plain.body, meta: null }, { ...threaded.body, meta: null });
    assert.equal(plain.running, null);
    assert.equal(plain.statements, null);
  });
});
