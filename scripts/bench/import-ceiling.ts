// The ceiling for `risklookup import` on SQLite: the same file's rows written through one
// prepared statement per table in one transaction, with nothing but JSON.parse in between (no
// validation, no tax-ID checks, no look-ups of existing rows), into the same schema, with the
// same deferred name indexes, triggers and page cache as the import. How close the import comes to this
// is how much is left to gain on the write side.
//
//   node --import tsx scripts/bench/import-ceiling.ts [--companies 1000000]
import { rmSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { openEngine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const { values: args } = parseArgs({ options: { companies: { type: 'string', default: '1000000' } } });
const ROOT = new URL('../../', import.meta.url).pathname;
const file = `${ROOT}.bench/companies-${args.companies}.jsonl`;
const path = `${ROOT}.bench/ceiling-${args.companies}.db`;
for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });

const engine = openEngine(`sqlite:${path}`);
await migrateToLatest(engine);
await engine.close();

const db = new SQLite(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -32768');
const started = process.hrtime.bigint();
db.exec('BEGIN IMMEDIATE');
const deferred = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = 'companies'").all() as Array<{
  name: string;
  sql: string;
}>;
for (const index of deferred) db.exec(`DROP INDEX ${index.name}`);
const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('companies', 'reports')").all() as Array<{
  name: string;
  sql: string;
}>;
for (const trigger of triggers) db.exec(`DROP TRIGGER "${trigger.name}"`);
db.exec('INSERT INTO fts_bulk_load (active) VALUES (1)');
const company = db.prepare(
  'INSERT INTO companies (company_name, tax_id, tax_id_norm, country, city, name_key, name_core, visible_report_count, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const report = db.prepare(
  `INSERT INTO reports (company_id, ref, type, status, filed_at, description, amount_minor, currency, court_decision_date,
   concordat_start, concordat_end, case_json, reported_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const change = db.prepare('INSERT INTO report_status_changes (report_id, from_status, to_status, changed_at, changed_by) VALUES (?, ?, ?, ?, ?)');
/** A line of the generated JSONL file, as far as this script reads it. */
interface CeilingLine {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  reports: Array<{
    ref?: string;
    type: string;
    status: string;
    description: string;
    amount?: number;
    currency?: string;
    court_decision_date?: string;
    concordat_start?: string;
    concordat_end?: string;
    case?: Record<string, string>;
  }>;
}
const now = Date.now();
let companies = 0;
let reports = 0;
for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
  const c = JSON.parse(line) as CeilingLine;
  const key = String(c.company_name).toLowerCase();
  const id = company.run(c.company_name, c.tax_id, c.tax_id, c.country, c.city, key, key, c.reports.length, now).lastInsertRowid;
  companies++;
  for (const r of c.reports) {
    const reportId = report.run(
      id,
      r.ref ?? null,
      r.type,
      r.status,
      now,
      r.description,
      r.amount ?? null,
      r.currency ?? null,
      r.court_decision_date ?? null,
      r.concordat_start ?? null,
      r.concordat_end ?? null,
      r.case ? JSON.stringify(r.case) : null,
      null,
      now,
      now,
    ).lastInsertRowid;
    change.run(reportId, null, r.status, now, 'ceiling');
    reports++;
  }
}
for (const index of deferred) db.exec(index.sql);
for (const trigger of triggers) db.exec(trigger.sql);
db.exec("INSERT INTO company_name_fts (company_name_fts) VALUES ('rebuild')");
db.exec('DELETE FROM fts_bulk_load');
db.exec('COMMIT');
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
db.close();
console.log(`ceiling: ${companies} companies, ${reports} reports in ${seconds.toFixed(1)} s (${Math.round(companies / seconds)} companies/s)`);
