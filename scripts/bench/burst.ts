// `npm run bench:burst`: the full-size bursts of D18/D26 against two `serve` processes sharing one
// database, per engine, with the servers' default limits, driven from separate processes:
// - 600 parallel searches of one key with 100 left (expect exactly 100 × 200 and 500 × 429);
// - 2,000 parallel with 200 left (expect only 200, 429 and 503 overloaded; 200s = min(admitted, 200));
// - key A fires 1,000 parallel (100 left) while key B makes 50 sequential searches: B's statuses,
//   B's p99 idle and under A's burst.
// Writes the table into docs/benchmarks.md between the burst markers.
//
//   npm run bench:burst -- [--engines sqlite,postgres] [--bin path/to/bin/risklookup.js] [--no-write]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { burst, percentile, sequential, startBurst, type BurstResult } from './load-clients.ts';
import { generateKeyEntry } from '../../src/secrets/key-ring.ts';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: process.env.TEST_DATABASE_URL || process.env.BENCH_PG_URL ? 'sqlite,postgres' : 'sqlite' },
    bin: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = args.bin ?? `${ROOT}bin/risklookup.js`;
const WORK = `${ROOT}.bench`;
const PG_ADMIN = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PATH = '/api/v1/search.php?q=Anadolu%20Demir';
mkdirSync(WORK, { recursive: true });

function cli(cliArgs: string[]): string {
  return execFileSync(process.execPath, [BIN, ...cliArgs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

async function freshDatabase(engine: string): Promise<string> {
  if (engine === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${WORK}/burst.db${suffix}`, { force: true });
    return `sqlite:${WORK}/burst.db`;
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS risklookup_burst WITH (FORCE)');
  await admin.query('CREATE DATABASE risklookup_burst');
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = '/risklookup_burst';
  return url.toString();
}

const BENCH_KEY_RING = generateKeyEntry('bench');

function serve(url: string, demo: boolean): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log-level', 'warn', '--db', url, ...(demo ? ['--demo'] : [])], {
    // D35: a server needs a key ring; the bench makes one per run (it stores no secret worth keeping).
    env: { ...process.env, RISKLOOKUP_SECRET_KEYS: process.env.RISKLOOKUP_SECRET_KEYS || BENCH_KEY_RING },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

let members = 0;
function newKey(db: string, dailyLimit: number): string {
  const ref = `BURST-${process.pid}-${++members}`;
  cli(['member', 'add', ref, '--name', `Burst member ${members}`, '--agreement-signed', '--db', db]);
  return (JSON.parse(cli(['key', 'issue', ref, '--daily-limit', String(dailyLimit), '--json', '--db', db])) as { key: string }).key;
}

const fmtStatuses = (r: BurstResult) =>
  Object.entries(r.reasons).length === 0
    ? `${r.statuses[200] ?? 0} × 200`
    : [`${r.statuses[200] ?? 0} × 200`, ...Object.entries(r.reasons).map(([k, n]) => `${n} × ${k}`)].join(', ');

async function benchEngine(engine: string): Promise<string[]> {
  const db = await freshDatabase(engine);
  // The first process fills the demo data; the second shares the database.
  const first = await serve(db, true);
  const second = await serve(db, false);
  const urls = [first.url, second.url];
  try {
    const rows: string[] = [];
    const b600 = await burst(urls, PATH, newKey(db, 100), 600);
    rows.push(`| 600 parallel, 100 left | ${fmtStatuses(b600)} | ${b600.p50} / ${b600.p99} | ${b600.seconds.toFixed(2)} |`);
    const b2000 = await burst(urls, PATH, newKey(db, 200), 2000);
    rows.push(`| 2,000 parallel, 200 left | ${fmtStatuses(b2000)} | ${b2000.p50} / ${b2000.p99} | ${b2000.seconds.toFixed(2)} |`);
    const keyB = newKey(db, 1000);
    await sequential(urls, PATH, keyB, 20);
    const idle = await sequential(urls, PATH, keyB, 50);
    const a = startBurst(urls, PATH, newKey(db, 100), 1000);
    await new Promise((r) => setTimeout(r, 150));
    const loaded = await sequential(urls, PATH, keyB, 50);
    const resultA = await a.done;
    const idleP99 = percentile(
      idle.map((r) => r.ms),
      99,
    );
    const loadedP99 = percentile(
      loaded.map((r) => r.ms),
      99,
    );
    const bOk = loaded.filter((r) => r.status === 200).length;
    rows.push(`| key A: 1,000 parallel, 100 left | ${fmtStatuses(resultA)} | ${resultA.p50} / ${resultA.p99} | ${resultA.seconds.toFixed(2)} |`);
    rows.push(
      `| key B meanwhile: 50 sequential | ${bOk} × 200 of 50; p99 ${loadedP99.toFixed(1)} ms vs ${idleP99.toFixed(1)} ms idle (**${(loadedP99 / idleP99).toFixed(1)} ×**) | ${percentile(
        loaded.map((r) => r.ms),
        50,
      ).toFixed(1)} / ${loadedP99.toFixed(1)} | — |`,
    );
    return [`### ${engine}`, '', '| burst | answers | p50 / p99 ms | seconds |', '|---|---|---|---|', ...rows, ''];
  } finally {
    first.child.kill('SIGTERM');
    second.child.kill('SIGTERM');
  }
}

const lines = [
  `Generated by \`npm run bench:burst\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}. ` +
    'Two `serve` processes with their default limits on one database (demo data); each burst comes from its own client process, one connection per request, spread evenly over the two servers.',
  '',
];
for (const engine of args.engines.split(',')) lines.push(...(await benchEngine(engine)));
const text = lines.join('\n');
console.log(text);
const START = '<!-- burst:start -->';
const END = '<!-- burst:end -->';
if (!args['no-write']) {
  const path = `${ROOT}docs/benchmarks.md`;
  const doc = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const [before, rest] = doc.includes(START) ? doc.split(START) : [`${doc}\n## Bursts (D18, D26)\n\n`, END];
  writeFileSync(path, `${before}${START}\n${text}\n${END}${rest!.slice(rest!.indexOf(END) + END.length)}`);
}
