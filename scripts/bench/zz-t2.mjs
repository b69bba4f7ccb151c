import Database from 'better-sqlite3';
const db = new Database('/work/scratch/short28/sqlite-1e6.db', { readonly: true });
const L = [...'abcdefghijklmnopqrstuvwxyz0123456789 '];
const terms = (w) => [...new Set(L.flatMap((c) => [w + c, c + w]))];
const or2 = (w) => '(' + terms(w).map((t) => `"${t}"`).join(' OR ') + ')';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function time(label, sqlText, ...p) {
  const st = db.prepare(sqlText);
  let rows; const t = [];
  for (let i = 0; i < 5; i++) { const s = cpu(); rows = st.all(...p); t.push(cpu() - s); }
  t.sort((a,b)=>a-b);
  console.log(label, rows.length, t.map((x) => x.toFixed(2)).join(' '));
}
const cnt = db.prepare(`SELECT count(*) n FROM company_name_fts WHERE company_name_fts MATCH ?`);
for (const w of ['pk','dp','su','hu','fu','cc','kn','pl']) {
  const perTerm = terms(w).map((t) => [t, cnt.get(`"${t}"`).n]).filter((x) => x[1] > 0);
  const total = perTerm.reduce((a, b) => a + b[1], 0);
  const words = db.prepare(`SELECT count(*) n FROM name_word_trigrams WHERE name_word_trigrams MATCH ?`).get(or2(w)).n;
  console.log(w, 'terms present', perTerm.length, 'doclist total', total, 'name words holding', words);
  time(`${w}: or alone`, `SELECT count(*) FROM company_name_fts WHERE company_name_fts MATCH ?`, or2(w));
  time(`${w}: words via trigrams`, `SELECT word FROM name_word_trigrams WHERE name_word_trigrams MATCH ?`, or2(w));
}
for (const [short, long] of [[['pk'], ['fil']], [['dp'], ['unl']], [['hu'], ['sve', 'mer']], [['fu'], ['coz']], [['cc'], ['enj', 'oji']], [['kn'], ['vis']], [['pl'], ['duk']]]) {
  const m = [...long.map((w) => `"${w}"`), ...short.map(or2)].join(' AND ');
  time(`${short} ${long}: fts ids (rare trigram)`, `SELECT rowid FROM company_name_fts WHERE company_name_fts MATCH ? LIMIT 2001`, m);
  time(`${short} ${long}: long rare only`, `SELECT rowid FROM company_name_fts WHERE company_name_fts MATCH ? LIMIT 20001`, long.map((w) => `"${w}"`).join(' AND '));
}
