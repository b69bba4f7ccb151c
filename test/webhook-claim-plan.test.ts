/**
 * The delivery claim at a backlog, on both engines (issue 30): in a fresh database right after a
 * big enqueue (statistics of near-empty tables, no ANALYZE), the claim takes the oldest due rows
 * by walking `webhook_deliveries_due_order` and stops at its limit: no sort of every pending row,
 * the per-endpoint order checked by one probe into `webhook_deliveries_unattempted` per row.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { claimDueDeliveries, dueCandidates, walkTheIndex, type ClaimRequest } from '../src/webhooks/deliveries.repository.ts';

const N = 2000;

for (const engine of ENGINES) {
  describe(`webhook claim at a backlog [${engine.name}]`, () => {
    let database: TestDatabase;
    const now = Date.now();
    const endpoints: number[] = [];
    before(async () => {
      database = await engine.create();
      const db = database.engine.db;
      for (let i = 0; i < N; i += 500) {
        const members = await db
          .insertInto('members')
          .values(
            Array.from({ length: 500 }, (_, j) => ({
              ref: `CP-${i + j}`,
              name: `Claim plan ${i + j}`,
              tier: 'full' as const,
              status: 'active' as const,
              agreement_signed_on: '2026-01-01',
              created_at: now,
              updated_at: now,
            })),
          )
          .returning('id')
          .execute();
        const rows = members.map((m) => ({
          member_id: Number(m.id),
          url: 'https://receiver.test/hook',
          description: '',
          status: 'enabled' as const,
          secret_sealed: 'sealed',
          created_at: now,
          updated_at: now,
        }));
        endpoints.push(...(await db.insertInto('webhook_endpoints').values(rows).returning('id').execute()).map((r) => Number(r.id)));
      }
      // Each endpoint: one message, and a second one behind it (held back by the per-endpoint order).
      for (const round of [0, 1]) {
        for (let i = 0; i < N; i += 500) {
          const rows = endpoints.slice(i, i + 500).map((endpoint_id) => ({
            endpoint_id,
            webhook_id: `msg_${round}_${endpoint_id}`,
            event_type: 'company.changed',
            payload: '{}',
            state: 'pending' as const,
            next_attempt_at: now - 1000 + round,
            created_at: now,
          }));
          await db.insertInto('webhook_deliveries').values(rows).execute();
        }
      }
    });
    after(async () => {
      await database?.drop();
    });

    const request = (limit: number): ClaimRequest => ({
      now,
      limit,
      holder: 'plan-test',
      token: `t-${limit}`,
      claimUntil: now + 30_000,
      roomFor: () => 4,
      fullEndpoints: [],
    });

    test('the pending walk reads the due index in order and stops at the limit', async () => {
      const { engine: e } = database;
      const compiled = dueCandidates(e.db, e.seam, request(16), 'pending', 16).compile();
      if (engine.name === 'sqlite') {
        const plan = (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql.replaceAll('?', 'NULL')}`).execute(e.db)).rows.map((r) => r.detail);
        assert.ok(
          plan.some((d) => d.includes('webhook_deliveries_due_order')),
          plan.join('\n'),
        );
        assert.ok(
          plan.some((d) => d.includes('webhook_deliveries_unattempted')),
          plan.join('\n'),
        );
        assert.ok(!plan.some((d) => d.includes('TEMP B-TREE')), `no sort of the due rows:\n${plan.join('\n')}`);
      } else {
        await e.db
          .transaction()
          .execute(async (trx) => {
            await walkTheIndex(trx, e.seam);
            const result = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `EXPLAIN (ANALYZE, FORMAT JSON) ${compiled.sql}` });
            const plan = JSON.stringify(result.rows[0]!['QUERY PLAN']);
            assert.doesNotMatch(plan, /"Node Type":"Sort"/, 'no sort of the due rows');
            assert.match(plan, /"Index Name":"webhook_deliveries_due_order"/);
            assert.match(plan, /"Index Name":"webhook_deliveries_unattempted"/);
            // The walk read the 16 rows it returned, not the 4,000 pending ones.
            const walk =
              /"Index Name":"webhook_deliveries_due_order"[^}]*?"Actual Rows":(\d+)/.exec(plan) ??
              /"Actual Rows":(\d+)[^{}]*"Index Name":"webhook_deliveries_due_order"/.exec(plan);
            assert.ok(walk, plan);
            assert.ok(Number(walk[1]) <= 16, `rows read from the due index: ${walk[1]}`);
            throw new Error('rolled back');
          })
          .catch((error: unknown) => {
            if (!(error instanceof Error && error.message === 'rolled back')) throw error;
          });
      }
    });

    test('a claim takes the oldest due first messages, one per endpoint, in order', async () => {
      const claimed = await claimDueDeliveries(database.engine.db, database.engine.seam, request(16));
      assert.deepEqual(
        claimed.map((c) => c.endpointId),
        endpoints.slice(0, 16),
      );
      assert.ok(claimed.every((c) => c.webhookId.startsWith('msg_0_')));
      const next = await claimDueDeliveries(database.engine.db, database.engine.seam, { ...request(16), token: 'second' });
      assert.deepEqual(
        next.map((c) => c.endpointId),
        endpoints.slice(16, 32),
        'the claimed rows are not taken again; the held-back second messages are not taken',
      );
      assert.ok(
        [...claimed, ...next].every(
          (c) => c.url === 'https://receiver.test/hook' && c.secretSealed === 'sealed' && c.previousSecretSealed === null && !c.reclaimed,
        ),
        "the claim returns each endpoint's address and secret with its rows",
      );
    });

    test('expired claims are taken again (oldest first, marked reclaimed) only when the claim looks for them', async () => {
      // The two claims above expire at now + 30 s.
      const later = { ...request(16), now: now + 31_000, claimUntil: now + 61_000 };
      const pendingOnly = await claimDueDeliveries(database.engine.db, database.engine.seam, { ...later, token: 'third', lookForExpired: false });
      assert.deepEqual(
        pendingOnly.map((c) => [c.endpointId, c.reclaimed]),
        endpoints.slice(32, 48).map((id) => [id, false]),
        'not looking: pending rows only, the expired claims left',
      );
      const looking = await claimDueDeliveries(database.engine.db, database.engine.seam, { ...later, token: 'fourth' });
      assert.deepEqual(
        looking.map((c) => [c.endpointId, c.reclaimed, c.webhookId.startsWith('msg_0_')]),
        endpoints.slice(0, 16).map((id) => [id, true, true]),
        "looking: the first claim's rows, expired, before any pending row",
      );
    });
  });
}
