/**
 * The server's background work runs under the runner (src/jobs/): `serve` starts it, the daily
 * retention job (D34: reports, and D21's audit records after a year) is one of its jobs, and
 * SIGTERM drains it before the process exits 0.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startServe } from './helpers/cli.ts';

const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe(`serve runs the background work [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('two serve processes on one database: the retention job (audit purge) runs once, and SIGTERM leaves nothing held', async () => {
      const now = Date.now();
      const row = (at: number) => ({ at, status: 200, response_ms: 1, client_address: '127.0.0.1' });
      await database.engine.db
        .insertInto('audit_log')
        .values([row(now - 400 * DAY), row(now - 366 * DAY), row(now - 10 * DAY)])
        .execute();
      const servers = await Promise.all([startServe(['--db', database.url]), startServe(['--db', database.url])]);
      try {
        const db = database.engine.db;
        let state;
        for (let i = 0; i < 200; i++) {
          state = await db.selectFrom('job_state').selectAll().where('name', '=', 'retention').executeTakeFirst();
          if (state?.last_finished_at) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(state?.last_finished_at, 'the purge ran');
        const left = await db.selectFrom('audit_log').select('at').execute();
        assert.deepEqual(
          left.map((r) => r.at),
          [now - 10 * DAY],
        );
        // Due again at the next 03:00 Turkey time: the other process, started at the same moment, did not run it again.
        assert.ok(state.next_due_at! > state.last_started_at!, `next due ${state.next_due_at}`);
        assert.equal((state.next_due_at! + 3 * 3600_000) % DAY, 3 * 3600_000, 'at 03:00 Turkey time');
        const runs = await db.selectFrom('operator_log').select('actor').where('action', '=', 'retention.purge').execute();
        assert.equal(runs.length, 1, 'one purge, logged once');
      } finally {
        const codes = await Promise.all(servers.map((s) => s.stop('SIGTERM')));
        assert.deepEqual(codes, [0, 0], servers.map((s) => s.stderr()).join('\n'));
      }
      const held = await database.engine.db.selectFrom('job_state').select(['name', 'holder']).where('holder', 'is not', null).execute();
      assert.deepEqual(held, [], 'every claim and lease given back on SIGTERM');
    });
  });
}
