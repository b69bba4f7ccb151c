import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openEngine, type Engine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createRetention } from '../../src/retention/retention.service.ts';
import { DEFAULT_RETENTION } from '../../src/retention/retention-settings.ts';
import { fixedClock } from '../../src/lib/clock.ts';

const COMPANIES = 10_000,
  PER = 5;
async function measure(name: string, engine: Engine) {
  await migrateToLatest(engine);
  const db = engine.db;
  for (let c = 0; c < COMPANIES; c += 500) {
    const ids = await db
      .insertInto('companies')
      .values(
        Array.from({ length: 500 }, (_, k) => ({
          company_name: `Firma ${c + k}`,
          tax_id: String(1e9 + c + k),
          tax_id_norm: String(1e9 + c + k),
          country: 'TR',
          city: 'X',
          name_key: `firma ${c + k}`,
          name_core: `firma ${c + k}`,
          updated_at: 0,
        })),
      )
      .returning('id')
      .execute();
    const reports = ids.flatMap(({ id }) =>
      Array.from({ length: PER }, (_, r) => ({
        company_id: id,
        type: 'enforcement_plain',
        status: 'approved',
        filed_at: Date.UTC(2019 + r, 5, 1),
        description: '',
        case_json: JSON.stringify({ enforcement_office: 'x', file_number: 'y', date: `${2019 + r}-05-01` }),
        created_at: 0,
        updated_at: 0,
      })),
    );
    await db.insertInto('reports').values(reports).execute();
  }
  const clock = fixedClock(Date.UTC(2026, 10, 27, 9));
  const retention = createRetention({ db, clock, settings: DEFAULT_RETENTION, recordCompanyChanges: () => Promise.resolve(0) });
  let t = performance.now();
  const plan = await retention.plan();
  const planMs = performance.now() - t;
  const cpu0 = process.cpuUsage();
  t = performance.now();
  const out = await retention.run({ kind: 'system', job: 'retention' });
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${name}: ${COMPANIES * PER} reports, anchors filled ${out.anchorsFilled}; plan ${planMs.toFixed(0)} ms; run expired ${out.expired.count} (planned ${plan.expired.count}) in ${(ms / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms node CPU: ${(ms / out.expired.count).toFixed(3)} ms a report`,
  );
}
const dir = mkdtempSync(join(tmpdir(), 'retbench-'));
await measure('SQLite', openEngine(`sqlite:${join(dir, 'b.db')}`));
const name = `retention_bench_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const e = openEngine(`postgres://postgres@127.0.0.1:5432/${name}`);
try {
  await measure('PostgreSQL', e);
} finally {
  await e.close();
  await admin.query(`DROP DATABASE ${name}`);
  await admin.end();
}
