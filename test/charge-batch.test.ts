/**
 * The group commit of answered searches (src/quota/charge-batch.ts), on both engines: the units
 * taken in one turn are exact (D18: with R left, N requests get min(N, R), the counts in order),
 * and exactly the answers that got a unit have their audit record (D21) and lookups (D34) stored
 * with it, both for a member's first answers of a day (no counter row yet) and later ones. On
 * PostgreSQL a later batch is one statement, one round trip (issue 28, branch taxhit28): 4 + k of
 * them before, for k answers; on SQLite a run of one subject's units is read and raised once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { openEngine, type Engine } from '../src/db/connect.ts';
import { createChargeBatch } from '../src/quota/charge-batch.ts';
import type { AuditEntry } from '../src/audit/audit.repository.ts';
import { lookupMonthOf } from '../src/disclosure/disclosure-view.ts';

const AT = Date.UTC(2026, 10, 27, 12);
const DAY = '2026-11-27';

function entry(memberId: number, q: string): AuditEntry {
  return {
    at: AT,
    key_id: memberId,
    member_id: memberId,
    q,
    type: 'tax_id',
    country: 'TR',
    status: 200,
    result_count: 1,
    response_ms: 3,
    client_address: '127.0.0.1',
  };
}

for (const engine of ENGINES) {
  describe(`group commit of answered searches [${engine.name}]`, () => {
    let database: TestDatabase;
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => args.node,
      transformResult: (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
        statements++;
        return Promise.resolve(args.result);
      },
    };
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    async function stored(memberId: number) {
      const db = database.engine.db;
      const records = await db.selectFrom('audit_log').select('q').where('member_id', '=', memberId).orderBy('id').execute();
      const lookups = await db
        .selectFrom('company_lookups')
        .select(['company_id', 'month', 'lookups'])
        .where('company_id', '>=', memberId * 1000)
        .where('company_id', '<', memberId * 1000 + 1000)
        .orderBy('company_id')
        .execute();
      return { qs: records.map((r) => r.q), lookups: lookups.map((l) => `${Number(l.company_id)} ${l.month} ${Number(l.lookups)}`) };
    }

    /** n takes of one member in one turn, each answer finding company memberId*1000 + i % 2. */
    function takeAll(memberId: number, limit: number, n: number, from: number) {
      const batch = createChargeBatch(database.engine.db.withPlugin(counting));
      return Promise.all(
        Array.from({ length: n }, (_, i) =>
          batch.take(`member:${memberId}`, DAY, limit, {
            entry: entry(memberId, `q${from + i}`),
            foundCompanyIds: [memberId * 1000 + (i % 2), memberId * 1000 + (i % 2)],
          }),
        ),
      );
    }

    test("a member's first answers of the day, then later ones: exact units, and the records and lookups of exactly those answered", async () => {
      const month = lookupMonthOf(AT);
      // No counter row yet: 10 answers, 7 left.
      assert.deepEqual(await takeAll(1, 7, 10, 0), [1, 2, 3, 4, 5, 6, 7, null, null, null]);
      let s = await stored(1);
      assert.deepEqual(s.qs, ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
      assert.deepEqual(s.lookups, [`1000 ${month} 4`, `1001 ${month} 3`], 'one lookup per company an answer found, for answered requests only');

      // The row exists: the limit raised to 12, 10 more answers, 5 left.
      statements = 0;
      assert.deepEqual(await takeAll(1, 12, 10, 10), [8, 9, 10, 11, 12, null, null, null, null, null]);
      // PostgreSQL: one statement; SQLite: the count read and raised (2, not one a unit: 10), the 5
      // records (prepared runs of 4 and 1: audit.repository.ts), the lookups.
      assert.equal(statements, engine.name === 'postgres' ? 1 : 5, 'the units of one subject taken at once');
      s = await stored(1);
      assert.deepEqual(s.qs, ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q10', 'q11', 'q12', 'q13', 'q14']);
      assert.deepEqual(s.lookups, [`1000 ${month} 7`, `1001 ${month} 5`]);

      // Used up: nothing taken, nothing stored.
      assert.deepEqual(await takeAll(1, 12, 3, 20), [null, null, null]);
      assert.equal((await stored(1)).qs.length, 12);
    });

    test('random batches against a model of one conditional increment a unit, in order of subject then arrival', async () => {
      const db = database.engine.db;
      const model = new Map<string, number>();
      let seed = 7;
      const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      for (let round = 0; round < 25; round++) {
        const batch = createChargeBatch(db);
        // A limit a subject a round (its runs of three or more take the read-once path), now and then another.
        const limits = [1 + random(12), 1 + random(12), 1 + random(12)] as const;
        const takes = Array.from({ length: 1 + random(12) }, () => {
          const s = random(3);
          return { subject: `member:${900 + s}`, limit: random(6) === 0 ? 1 + random(12) : limits[s as 0 | 1 | 2] };
        });
        const outcomes = await Promise.all(
          takes.map((t, i) => batch.take(t.subject, DAY, t.limit, { entry: entry(900, `r${round}-${i}`), foundCompanyIds: [] })),
        );
        const expected = new Array<number | null>(takes.length);
        const order = takes.map((t, i) => ({ ...t, i })).sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.i - b.i));
        for (const t of order) {
          const used = model.get(t.subject) ?? 0;
          expected[t.i] = used < t.limit ? used + 1 : null;
          if (used < t.limit) model.set(t.subject, used + 1);
        }
        assert.deepEqual(outcomes, expected, `round ${round}: ${JSON.stringify(takes)}`);
      }
      const counters = await db
        .selectFrom('usage_counters')
        .select(['subject', 'used'])
        .where('subject', 'like', 'member:9__')
        .where('day', '=', DAY)
        .execute();
      assert.deepEqual(new Map(counters.map((c) => [c.subject, Number(c.used)])), model);
      const records = await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('member_id', '=', 900)
        .executeTakeFirstOrThrow();
      assert.equal(
        Number(records.n),
        [...model.values()].reduce((a, b) => a + b, 0),
        'a record for each unit taken, none for a refusal',
      );
    });

    test('two members in one batch, one of them with its limit lowered within the batch, each exact', async () => {
      await takeAll(2, 100, 1, 0);
      await takeAll(3, 100, 1, 0);
      const batch = createChargeBatch(database.engine.db.withPlugin(counting));
      const take = (memberId: number, limit: number, q: string) =>
        batch.take(`member:${memberId}`, DAY, limit, { entry: entry(memberId, q), foundCompanyIds: [] });
      const outcomes = await Promise.all([take(3, 100, 'a'), take(2, 3, 'b'), take(3, 100, 'c'), take(2, 3, 'd'), take(2, 2, 'e'), take(3, 100, 'f')]);
      // Member 2 had 1 used: 'b' takes the 2nd of 3, 'd' the 3rd, 'e' (a limit of 2 by then) none; member 3: 2, 3, 4.
      assert.deepEqual(outcomes, [2, 2, 3, 3, null, 4]);
      assert.deepEqual((await stored(2)).qs, ['q0', 'b', 'd']);
      assert.deepEqual((await stored(3)).qs, ['q0', 'a', 'c', 'f']);
    });
  });
}

/**
 * Two connections on one SQLite file (two processes, as `serve` runs them): a run of a member's
 * units is read once and raised once, which is exact only because BEGIN IMMEDIATE holds the one
 * write lock from the read to the commit; batches of both connections, interleaved, must give
 * exactly min(N, R) units, each count once, and one record a unit (a helper's review).
 */
for (const engine of ENGINES.filter((e) => e.name === 'sqlite')) {
  describe(`group commits of two connections on one file [${engine.name}]`, () => {
    let database: TestDatabase;
    let a: Engine;
    let b: Engine;
    before(async () => {
      database = await engine.create();
      // As serve opens its database: waiting for the write lock without blocking the event loop.
      a = openEngine(database.url, { yieldWhenBusy: true, connectionWaitMs: 20_000 });
      b = openEngine(database.url, { yieldWhenBusy: true, connectionWaitMs: 20_000 });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    test('1,200 answers of one member in runs of five from four batches on two connections: exactly its limit of 397 taken', async () => {
      const batches = [createChargeBatch(a.db), createChargeBatch(b.db), createChargeBatch(a.db), createChargeBatch(b.db)];
      const LIMIT = 397;
      let n = 0;
      const outcomes: Array<Promise<number | null>> = [];
      for (let round = 0; round < 60; round++) {
        for (const batch of batches) {
          for (let i = 0; i < 5; i++) outcomes.push(batch.take('member:950', DAY, LIMIT, { entry: entry(950, `q${n++}`), foundCompanyIds: [] }));
        }
        if (round % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const taken = (await Promise.all(outcomes)).filter((o): o is number => o !== null);
      assert.equal(taken.length, LIMIT, 'min(N, R) units');
      assert.deepEqual(
        [...taken].sort((x, y) => x - y),
        Array.from({ length: LIMIT }, (_, i) => i + 1),
        'each count once',
      );
      const counter = await a.db
        .selectFrom('usage_counters')
        .select('used')
        .where('subject', '=', 'member:950')
        .where('day', '=', DAY)
        .executeTakeFirstOrThrow();
      assert.equal(Number(counter.used), LIMIT);
      const records = await b.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('member_id', '=', 950)
        .executeTakeFirstOrThrow();
      assert.equal(Number(records.n), LIMIT, 'one record a unit taken');
    });
  });
}
