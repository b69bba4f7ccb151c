// A preload that times every better-sqlite3 statement of a process (SQLite's per-statement
// profile in docs/benchmarks.md): `node -r ./scripts/bench/statement-times.cjs bin/risklookup.js serve …`,
// or through fresh-cpu.ts: `--node-args='-r <this file>'`. Timing starts STMT_FROM_MS after the
// start (default 30,000: past the index of names' load). At exit it writes, to
// STMT_OUT (default `statement-times-<pid>.txt` in the working directory), one line a statement:
// calls, mean µs a call, total ms, the SQL's first 110 characters; SIGUSR2 prints the same to
// stderr and starts again. STMT_SAMPLE=text keeps up to 3,000 calls of the statements whose SQL
// holds the text (µs, SQL, parameters) in `<STMT_OUT>.samples.json`, to replay them.
// What it leaves out: `prepare` itself (Kysely's SQLite driver prepares each query, from
// better-sqlite3's cache), an `iterate`'s rows (only the iterator's making is timed), and the
// difference between statements whose first 110 characters are the same (one line for all). A
// process that exits before STMT_FROM_MS writes an empty file.
'use strict';
const Database = require('better-sqlite3');
const { writeFileSync } = require('node:fs');

const stats = new Map();
const samples = [];
const sampled = process.env.STMT_SAMPLE;
const out = process.env.STMT_OUT || `statement-times-${process.pid}.txt`;
let timing = false;
setTimeout(
  () => {
    timing = true;
    stats.clear();
  },
  Number(process.env.STMT_FROM_MS || 30_000),
).unref();

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) {
  const statement = prepare.call(this, sql);
  const key = sql.replace(/\s+/g, ' ').slice(0, 110);
  const keep = sampled !== undefined && sql.includes(sampled);
  for (const method of ['all', 'run', 'get', 'iterate']) {
    const original = statement[method];
    statement[method] = function (...args) {
      if (!timing) return original.apply(this, args);
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - started;
        const s = stats.get(key) ?? { calls: 0, ms: 0 };
        s.calls++;
        s.ms += ms;
        stats.set(key, s);
        if (keep && samples.length < 3000) samples.push({ us: Math.round(ms * 1000), sql, params: args });
      }
    };
  }
  return statement;
};

function report() {
  return [...stats]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 40)
    .map(([sql, s]) => `${s.calls}\t${((s.ms * 1000) / s.calls).toFixed(1)} µs\t${s.ms.toFixed(0)} ms\t${sql}`)
    .join('\n');
}

process.on('SIGUSR2', () => {
  process.stderr.write(`${report()}\n`);
  stats.clear();
});
process.on('exit', () => {
  writeFileSync(out, `${report()}\n`);
  if (samples.length > 0) writeFileSync(`${out}.samples.json`, JSON.stringify(samples));
});
