import Database from 'better-sqlite3';
const db = new Database('/work/scratch/short28/sqlite-1e6.db', { readonly: true });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function time(label, sqlText, ...p) {
  const st = db.prepare(sqlText);
  let rows; const t = [];
  for (let i = 0; i < 5; i++) { const s = cpu(); rows = st.all(...p); t.push(cpu() - s); }
  t.sort((a,b)=>a-b);
  console.log(label, rows.length, t.map((x) => x.toFixed(2)).join(' '));
}
for (const [short, long, rare] of [[['pk'], ['film'], ['fil']], [['dp','su'], ['urunleri'], ['unl']], [['hu'], ['alisveris','merkezleri'], ['sve', 'mer']], [['fu'], ['cozumleri'], ['coz']], [['cc'], ['enerji','lojistik'], ['rji','oji']], [['kn'], ['servis'],['vis']], [['pl'], ['produksiyon'],['duk']]]) {
  const checks = [...short, ...long].map((w) => `AND instr(c.name_key,'${w}')>0`).join(' ');
  time(`${short} ${long}: rows checked`, `SELECT f.rowid FROM company_name_fts f JOIN companies c ON c.id=f.rowid WHERE company_name_fts MATCH ? ${checks} LIMIT 2001`, rare.map(t=>`"${t}"`).join(' AND '));
  time(`${short} ${long}: rows checked +vis`, `SELECT f.rowid FROM company_name_fts f JOIN companies c ON c.id=f.rowid WHERE company_name_fts MATCH ? ${checks} AND c.visible_report_count + 0 > 0 LIMIT 2001`, rare.map(t=>`"${t}"`).join(' AND '));
}
console.log(db.prepare(`EXPLAIN QUERY PLAN SELECT f.rowid FROM company_name_fts f JOIN companies c ON c.id=f.rowid WHERE company_name_fts MATCH ? AND instr(c.name_key,'pk')>0 LIMIT 2001`).all('"fil"'));
