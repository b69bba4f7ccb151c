import SQLite from 'better-sqlite3';
const db = new SQLite(process.argv[2]);
db.pragma('cache_size = -32768');
const names = ['companies_name_core_visible', 'companies_rank_visible', 'reports_expired_at', 'reports_reported_by', 'reports_retention', 'reports_status_created'];
const sqls = names.map((n) => db.prepare('select sql from sqlite_master where name = ?').pluck().get(n));
for (const threads of (process.argv[3] ?? '0,2,0,2').split(',').map(Number)) {
  db.pragma(`threads = ${threads}`);
  db.exec('begin');
  for (const n of names) db.exec(`drop index "${n}"`);
  const out = [];
  let tw = 0, tc = 0;
  for (let i = 0; i < names.length; i++) {
    const c0 = process.cpuUsage(); const w0 = performance.now();
    db.exec(sqls[i]);
    const w = (performance.now() - w0) / 1000; const c = process.cpuUsage(c0); const cpu = (c.user + c.system) / 1e6;
    tw += w; tc += cpu;
    out.push(`${names[i]} ${w.toFixed(2)}/${cpu.toFixed(2)}`);
  }
  db.exec('rollback');
  console.log(`threads=${threads} wall ${tw.toFixed(2)} s cpu ${tc.toFixed(2)} s load ${(await import('node:os')).loadavg()[0].toFixed(1)} :: ${out.join(', ')}`);
}
