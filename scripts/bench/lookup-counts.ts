/**
 * What the disclosure's "lookups per month" costs (D34), measured on both engines with 10^6 audit
 * records over 12 months: (a) scanning the audit log at print time for one tax ID (only possible
 * for tax-ID searches: a name search's record does not say which companies it found), against
 * (b) the counter table: the audit writer's one upsert per batch of 200 searches, and the read of
 * one company's 12 months.
 *
 *   node --import tsx scripts/bench/lookup-counts.ts [postgres://…/postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openEngine, type Engine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { addLookups, listLookups } from '../../src/disclosure/lookup-counts.repository.ts';
import { disclosureMonths } from '../../src/disclosure/disclosure-view.ts';

const RECORDS = 1_000_000;
const COMPANIES = 200_000;
const NOW = Date.UTC(2026, 10, 27, 9);
const YEAR = 365 * 86_400_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(runs: number, f: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await f();
    ms.push(performance.now() - start);
  }
  return median(ms);
}

async function measure(name: string, engine: Engine) {
  await migrateToLatest(engine);
  const db = engine.db;
  const taxId = (i: number) => String(1_000_000_000 + i);
  for (let start = 0; start < RECORDS; start += 2000) {
    const rows = Array.from({ length: 2000 }, (_, k) => {
      const i = start + k;
      return {
        at: NOW - Math.floor((i / RECORDS) * YEAR),
        status: 200,
        response_ms: 3,
        client_address: '10.0.0.1',
        q: taxId(i % COMPANIES),
        type: 'tax_id',
        country: 'TR',
        result_count: 1,
        channel: 'api',
      };
    });
    await db.insertInto('audit_log').values(rows).execute();
  }
  const months = disclosureMonths(NOW);
  const scan = await time(5, () =>
    db
      .selectFrom('audit_log')
      .select([sql<number>`count(*)`.as('n')])
      .where('q', '=', taxId(4242))
      .where('type', '=', 'tax_id')
      .where('status', '=', 200)
      .where('at', '>=', months[0]!.from)
      .execute(),
  );
  const batches = Array.from({ length: 20 }, (_, b) =>
    Array.from({ length: 200 }, (_, k) => ({ at: NOW, companyIds: [1 + (((b * 200 + k) * 7919) % COMPANIES)] })),
  );
  let b = 0;
  const upsert = await time(20, () => db.transaction().execute((trx) => addLookups(trx, batches[b++]!)));
  const read = await time(20, () => listLookups(db, 4242, months[0]!.month));
  console.log(
    `${name}: scan of 10^6 audit records for one tax ID ${scan.toFixed(1)} ms; counter upsert of a 200-search batch ${upsert.toFixed(2)} ms (${((upsert / 200) * 1000).toFixed(1)} µs a search); one company's 12 months ${read.toFixed(2)} ms`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'lookup-bench-'));
try {
  await measure('SQLite', openEngine(`sqlite:${join(dir, 'bench.db')}`)).catch((e: unknown) => console.error(e));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const adminUrl = process.argv[2];
if (adminUrl) {
  const name = `lookup_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const engine = openEngine(url.toString());
  try {
    await measure('PostgreSQL', engine);
  } finally {
    await engine.close();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}
