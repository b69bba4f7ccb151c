// The delivery claim's plan and cost at issue 30's load: a fresh database (no ANALYZE) with N
// endpoints and one pending delivery each, the claim's candidate query explained and timed.
//   node --import tsx scripts/bench/claim-plan.ts --engine postgres|sqlite [--n 10000] [--old]
// --old: the query and indexes before migration 0019 (the index dropped, the old one put back),
// for the before/after in docs/benchmarks.md.
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { openEngine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { Db } from '../../src/db/types.ts';
import type { DialectSeam } from '../../src/db/dialect-seam.ts';
import { dueCandidates, type ClaimRequest } from '../../src/webhooks/deliveries.repository.ts';

const { values: args } = parseArgs({
  options: { engine: { type: 'string', default: 'postgres' }, n: { type: 'string', default: '10000' }, old: { type: 'boolean', default: false } },
});
const N = Number(args.n);
const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The candidate query as it was before 0019 (one OR over both states; EXISTS left to the planner). */
function oldCandidates(db: Db, seam: Pick<DialectSeam, 'claimRows'>, request: ClaimRequest) {
  const { now, limit } = request;
  return seam.claimRows(
    db
      .selectFrom('webhook_deliveries as d')
      .select(['d.id', 'd.endpoint_id'])
      .where((eb) =>
        eb.and([
          eb.or([
            eb.and([eb('d.state', '=', 'pending'), eb('d.next_attempt_at', '<=', now)]),
            eb.and([eb('d.state', '=', 'delivering'), eb('d.claim_until', '<=', now)]),
          ]),
          eb.exists(eb.selectFrom('webhook_endpoints as e').select('e.id').whereRef('e.id', '=', 'd.endpoint_id').where('e.status', '=', 'enabled')),
          eb.or([
            eb('d.first_attempt_at', 'is not', null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('webhook_deliveries as o')
                  .select('o.id')
                  .whereRef('o.endpoint_id', '=', 'd.endpoint_id')
                  .whereRef('o.id', '<', 'd.id')
                  .where('o.first_attempt_at', 'is', null)
                  .where('o.state', 'in', ['pending', 'delivering']),
              ),
            ),
          ]),
        ]),
      )
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit),
  );
}

let url: string;
if (args.engine === 'sqlite') {
  const file = `/tmp/claim-plan-${process.pid}.db`;
  url = `sqlite:${file}`;
  process.on('exit', () => ['', '-wal', '-shm'].forEach((s) => rmSync(file + s, { force: true })));
} else {
  const name = `claimfix_plan_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  url = PG_ADMIN.replace(/\/postgres$/, `/${name}`);
}
const engine = openEngine(url);
const db = engine.db;
try {
  await migrateToLatest(engine);
  if (args.old) {
    await sql.raw('DROP INDEX webhook_deliveries_due_order').execute(db);
    await sql.raw('DROP INDEX webhook_deliveries_unattempted').execute(db);
    await sql.raw('CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at)').execute(db);
  }
  const now = Date.now();
  const members: number[] = [];
  for (let i = 0; i < N; i += 500) {
    const rows = Array.from({ length: Math.min(500, N - i) }, (_, j) => ({
      ref: `P-${i + j}`,
      name: `Plan ${i + j}`,
      tier: 'full' as const,
      status: 'active' as const,
      agreement_signed_on: '2026-01-01',
      created_at: now,
      updated_at: now,
    }));
    members.push(...(await db.insertInto('members').values(rows).returning('id').execute()).map((r) => Number(r.id)));
  }
  const endpoints: number[] = [];
  for (let i = 0; i < N; i += 500) {
    const rows = members.slice(i, i + 500).map((member_id) => ({
      member_id,
      url: 'https://localhost/hook',
      description: '',
      status: 'enabled' as const,
      secret_sealed: 'x',
      created_at: now,
      updated_at: now,
    }));
    endpoints.push(...(await db.insertInto('webhook_endpoints').values(rows).returning('id').execute()).map((r) => Number(r.id)));
  }
  for (let i = 0; i < N; i += 500) {
    const rows = endpoints.slice(i, i + 500).map((endpoint_id, j) => ({
      endpoint_id,
      webhook_id: `msg_${i + j}`,
      event_type: 'company.changed',
      payload: '{}',
      state: 'pending' as const,
      next_attempt_at: now,
      created_at: now,
    }));
    await db.insertInto('webhook_deliveries').values(rows).execute();
  }
  const request: ClaimRequest = { now: now + 1, limit: 16, holder: 'plan', token: 't', claimUntil: now + 30_000, roomFor: () => 4, fullEndpoints: [] };
  const queries = args.old
    ? [oldCandidates(db, engine.seam, request)]
    : [dueCandidates(db, engine.seam, request, 'delivering', 16), dueCandidates(db, engine.seam, request, 'pending', 16)];
  for (const query of queries) {
    const compiled = query.compile();
    if (args.engine === 'sqlite') {
      const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql.replaceAll('?', () => 'NULL')}`).execute(db);
      console.log(compiled.sql);
      console.log(plan.rows.map((r) => r.detail).join('\n'));
      // Timed with its parameters (5 runs; the median).
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const rows = await db.executeQuery(compiled);
        times.push(performance.now() - t);
        if (i === 0) console.log(`rows: ${rows.rows.length}`);
      }
      times.sort((a, b) => a - b);
      console.log(`median ms: ${times[2]!.toFixed(2)}`);
    } else {
      await db
        .transaction()
        .execute(async (trx) => {
          await sql.raw("SET LOCAL statement_timeout = '60s'").execute(trx);
          if (!args.old) await sql.raw('SET LOCAL enable_sort = off').execute(trx); // as claimDueDeliveries does
          const explain = { ...compiled, sql: `EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}`, query: compiled.query };
          const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(explain);
          console.log(result.rows.map((r) => r['QUERY PLAN']).join('\n'));
          throw new Error('rollback');
        })
        .catch((e: unknown) => {
          if (!(e instanceof Error && e.message === 'rollback')) throw e;
        });
    }
    console.log('----');
  }
} finally {
  await engine.close();
  if (args.engine !== 'sqlite') {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS claimfix_plan_${process.pid} WITH (FORCE)`);
    await admin.end();
  }
}
