/**
 * The server's background work runs under the runner (src/jobs/): `serve` starts it, the audit
 * purge (D21's retention) is one of its jobs, and SIGTERM drains it before the process exits 0.
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

    test('two serve processes on one database: the audit purge runs once, and SIGTERM leaves nothing held', async () => {
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
          state = await db.selectFrom('job_state').selectAll().where('name', '=', 'audit-purge').executeTakeFirst();
          if (state?.last_finished_at) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(state?.last_finished_at, 'the purge ran');
        const left = await db.selectFrom('audit_log').select('at').execute();
        assert.deepEqual(
          left.map((r) => r.at),
          [now - 10 * DAY],
        );
        // Due again in 6 hours: the other process, started at the same moment, did not purge again.
        assert.ok(state.next_due_at! - state.last_started_at! > 5.9 * 3600_000, `next due ${state.next_due_at}`);
      } finally {
        const codes = await Promise.all(servers.map((s) => s.stop('SIGTERM')));
        assert.deepEqual(codes, [0, 0], servers.map((s) => s.stderr()).join('\n'));
      }
      const held = await database.engine.db.selectFrom('job_state').select(['name', 'holder']).where('holder', 'is not', null).execute();
      assert.deepEqual(held, [], 'every claim and lease given back on SIGTERM');
    });
  });
}
