/**
 * D18 and D21 across a crash (issue 28): a server process killed with -9 the moment it has
 * answered leaves every answered request's quota unit and audit record in the database. The audit
 * writer used to keep records up to 50 ms in memory after the answer had left, and a crash lost
 * them; a record is now committed before its answer is sent (audit-writer.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { httpGet } from './helpers/http.ts';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startServe } from './helpers/cli.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { systemClock } from '../src/lib/clock.ts';
import { memberSubject } from '../src/quota/allowance.ts';

for (const engine of ENGINES) {
  describe(`a server killed with -9 right after answering [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('every answered request has its audit record and its quota unit in the database', async () => {
      const db = database.engine.db;
      const key = await makeKeyHolder(db, systemClock, { ref: 'M-KILL', dailyLimit: 1000 });
      const [taxId] = await makeCompanies(database.engine, systemClock, [{ company_name: 'Killtest Lojistik A.Ş.' }]);
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'M-KILL').executeTakeFirstOrThrow();
      const server = await startServe(['--db', database.url]);
      const agent = new Agent({ keepAlive: true, maxSockets: 10 });
      // Ten clients ask back to back, tax-ID hits and name searches; the process is killed the
      // moment the 300th answer arrives, while others are under way. Every 200 a client received
      // was answered and must be counted and recorded, also those that arrive after the kill.
      let answered = 0;
      let killed = false;
      const client = async (c: number) => {
        for (let i = 0; !killed; i++) {
          const path = (c + i) % 2 === 0 ? `type=tax_id&country=TR&q=${taxId}` : 'q=Killtest';
          const status = await httpGet(`${server.url}/api/v1/search.php?${path}`, { 'x-api-key': key }, agent).then(
            (r) => r.status,
            () => null,
          );
          if (status === null) return;
          assert.equal(status, 200);
          answered++;
          if (answered === 300 && !killed) {
            killed = true;
            server.signal('SIGKILL');
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: 10 }, (_, c) => client(c)));
      } finally {
        agent.destroy();
        await server.stop('SIGKILL');
      }
      assert.ok(answered >= 300);
      const records = await db.selectFrom('audit_log').select(['status', 'q']).where('member_id', '=', member.id).execute();
      // Only what was answered must be there: a unit or record of an answer the kill cut off may be too.
      assert.ok(records.filter((r) => r.status === 200).length >= answered, `${records.length} records for ${answered} answers`);
      const used = await db
        .selectFrom('usage_counters')
        .select('used')
        .where('subject', '=', memberSubject(Number(member.id)))
        .executeTakeFirstOrThrow();
      assert.ok(Number(used.used) >= answered, `${used.used} units for ${answered} answers`);
    });
  });
}
