/**
 * Several server processes on one database (D18 across processes): a `--workers 2` cluster and
 * a third, separate process share one member's quota exactly, on every engine, also while its key
 * is regenerated (D18 amended, issue 27 finding 1).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { httpGet } from './helpers/http.ts';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { startServe, type ServeProcess } from './helpers/cli.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { systemClock } from '../src/lib/clock.ts';
import { memberSubject } from '../src/quota/allowance.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';

for (const engine of ENGINES) {
  describe(`several server processes [${engine.name}]`, () => {
    let database: TestDatabase;
    const servers: ServeProcess[] = [];

    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      for (const s of servers) await s.stop();
      await database?.drop();
    });

    test('D18: 300 parallel requests over three processes with 50 left give exactly 50 answers of 200', async () => {
      const db = database.engine.db;
      const key = await makeKeyHolder(db, systemClock, { ref: 'M-MULTI', dailyLimit: 60 });
      await makeCompanies(database.engine, systemClock, [{ company_name: 'Multiprocess Lojistik A.Ş.' }]);
      // 10 of the 60 are already used today.
      const holder = await db.selectFrom('api_keys').select('member_id').executeTakeFirstOrThrow();
      await db
        .insertInto('usage_counters')
        .values({ subject: memberSubject(Number(holder.member_id)), day: quotaDayOf(Date.now()), used: 10 })
        .execute();

      servers.push(await startServe(['--workers', '2', '--db', database.url]));
      servers.push(await startServe(['--db', database.url]));
      // Many connections per server, so the requests really run side by side.
      const agent = new Agent({ keepAlive: true, maxSockets: 50 });
      const statuses = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          httpGet(`${servers[i % 2]!.url}/api/v1/search.php?q=Multiprocess`, { 'x-api-key': key }, agent).then((r) => r.status),
        ),
      );
      agent.destroy();
      const count = (s: number) => statuses.filter((x) => x === s).length;
      assert.deepEqual({ ok: count(200), limited: count(429), other: 300 - count(200) - count(429) }, { ok: 50, limited: 250, other: 0 });
    });

    test('D18 amended: 200 requests over three processes split between a key being regenerated and its successor, 30 left: exactly 30 answers', async () => {
      const db = database.engine.db;
      const oldKey = await makeKeyHolder(db, systemClock, { ref: 'M-REGEN', dailyLimit: 40 });
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'M-REGEN').executeTakeFirstOrThrow();
      // 10 of the 40 are already used today, by the old key.
      await db
        .insertInto('usage_counters')
        .values({ subject: memberSubject(Number(member.id)), day: quotaDayOf(Date.now()), used: 10 })
        .execute();
      const agent = new Agent({ keepAlive: true, maxSockets: 50 });
      const ask = (key: string, i: number) =>
        httpGet(`${servers[i % 2]!.url}/api/v1/search.php?q=Multiprocess`, { 'x-api-key': key }, agent).then((r) => ({
          status: r.status,
          reason: r.status === 403 ? (JSON.parse(r.body) as { reason: string }).reason : null,
        }));
      // The old key's requests are under way while the key is regenerated; the new key's follow.
      const onOld = Array.from({ length: 100 }, (_, i) => ask(oldKey, i));
      const newKey = (await issueKey(db, systemClock, 'M-REGEN', undefined)).key;
      const onNew = Array.from({ length: 100 }, (_, i) => ask(newKey, i));
      const answers = [...(await Promise.all(onOld)), ...(await Promise.all(onNew))];
      agent.destroy();
      const ok = answers.filter((a) => a.status === 200).length;
      const others = answers.filter((a) => a.status !== 200 && a.status !== 429 && !(a.status === 403 && a.reason === 'key_revoked'));
      assert.deepEqual({ ok, others }, { ok: 30, others: [] });
      const used = await db
        .selectFrom('usage_counters')
        .select('used')
        .where('subject', '=', memberSubject(Number(member.id)))
        .executeTakeFirstOrThrow();
      assert.equal(Number(used.used), 40);
    });

    test('SIGTERM stops the cluster and the single process with exit code 0', async () => {
      while (servers.length > 0) assert.equal(await servers.pop()!.stop(), 0);
    });
  });
}
