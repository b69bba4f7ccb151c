// The per-request cost of the quota write on tax-ID hits, before and after a change, side by side
// (issue 27, findings 1 and 2: the quota moved from the key's counter to the member's). Two
// programs (`--before` and `--after`, each a checkout's bin/risklookup.js) serve copies of the
// same database (made by `npm run bench -- --tag …`); rounds alternate between them, each round
// next to the bare node:http ceiling. Reports req/s, the ratio to the ceiling, the server's CPU
// ms per answered request and, on PostgreSQL, that of the server's own backends (its database's
// connections, read from pg_stat_activity: not the other databases on a shared server).
//
//   node --import tsx scripts/bench/quota-cost.ts --before /tmp/before/bin/risklookup.js --after bin/risklookup.js \
//        --sqlite .bench/bench-100000-quota.db --postgres postgres://postgres@127.0.0.1:5432/rl_quota_bench_100000_quota [--rounds 3] [--duration 5]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openEngine } from '../../src/db/connect.ts';
import { generateKeyEntry } from '../../src/secrets/key-ring.ts';
import { cpuSecondsOf } from './process-cpu.ts';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    sqlite: { type: 'string' },
    postgres: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    'warm-up': { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
  },
});
if (!args.before || !args.after) throw new Error('give --before and --after (each a bin/risklookup.js)');
const ROOT = new URL('../../', import.meta.url).pathname;
const RING = generateKeyEntry('bench');

function cli(bin: string, cliArgs: string[]): string {
  return execFileSync(process.execPath, [bin, ...cliArgs], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, RISKLOOKUP_SECRET_KEYS: RING },
  });
}

function start(command: string, cliArgs: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, cliArgs, { env: { ...process.env, RISKLOOKUP_SECRET_KEYS: RING }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`${cliArgs.join(' ')} exited ${code}`)));
  });
}

function autocannon(url: string, headers: Record<string, string>, seconds: number) {
  const flags = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const json = execFileSync(
    process.execPath,
    [`${ROOT}node_modules/autocannon/autocannon.js`, '-c', args.connections, '-d', String(seconds), '-j', ...flags, url],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 26,
    },
  );
  const r = JSON.parse(json) as { requests: { average: number; total: number }; non2xx: number; errors: number };
  return { rps: r.requests.average, total: r.requests.total, bad: r.non2xx + r.errors };
}

/** A copy of the database for the program after the change (it migrates its copy; the original stays as the program before left it). */
async function copyOf(url: string): Promise<string> {
  if (url.startsWith('postgres')) {
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}_after WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}_after TEMPLATE ${name}`);
    await admin.end();
    return url.replace(/\/[^/]*$/, `/${name}_after`);
  }
  const file = url.replace(/^sqlite:/, '');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}.after${suffix}`, { force: true });
  copyFileSync(file, `${file}.after`);
  return `sqlite:${file}.after`;
}

async function backendPids(url: string): Promise<number[]> {
  if (!url.startsWith('postgres')) return [];
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  await admin.end();
  return rows.map((r) => r.pid);
}

async function taxIdHit(url: string): Promise<string> {
  const engine = openEngine(url);
  try {
    const hit = await engine.db
      .selectFrom('companies')
      .select('tax_id_norm')
      .where('visible_report_count', '>=', 3)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    return `/api/v1/search.php?type=tax_id&country=TR&q=${hit.tax_id_norm}`;
  } finally {
    await engine.close();
  }
}

interface Row {
  engine: string;
  program: string;
  round: number;
  cache: boolean;
  rps: number;
  ratio: number;
  serverCpuMs: number;
  databaseCpuMs: number | null;
}

async function measure(
  engine: string,
  program: string,
  bin: string,
  url: string,
  path: string,
  round: number,
  cache: boolean,
  ceilingRps: number,
): Promise<Row> {
  const key = (JSON.parse(cli(bin, ['key', 'issue', 'GM-00001', '--daily-limit', '10000000', '--json', '--db', url])) as { key: string }).key;
  const server = await start(process.execPath, [
    bin,
    'serve',
    '--port',
    '0',
    '--log-level',
    'warn',
    '--db',
    url,
    '--anon-daily-limit',
    '10000000',
    ...(cache ? [] : ['--search-cache-entries', '0']),
  ]);
  try {
    const headers = { 'x-api-key': key };
    autocannon(server.url + path, headers, Number(args['warm-up']));
    const pids = await backendPids(url);
    const cpu0 = cpuSecondsOf([server.child.pid!]);
    const db0 = pids.length ? cpuSecondsOf(pids) : null;
    const r = autocannon(server.url + path, headers, Number(args.duration));
    const cpu1 = cpuSecondsOf([server.child.pid!]);
    const db1 = pids.length ? cpuSecondsOf(pids) : null;
    if (r.bad > 0) throw new Error(`${program} ${engine}: ${r.bad} answers were not 200`);
    return {
      engine,
      program,
      round,
      cache,
      rps: r.rps,
      ratio: r.rps / ceilingRps,
      serverCpuMs: ((cpu1! - cpu0!) * 1000) / r.total,
      databaseCpuMs: db0 === null || db1 === null ? null : ((db1 - db0) * 1000) / r.total,
    };
  } finally {
    server.child.kill('SIGTERM');
  }
}

const rows: Row[] = [];
for (const [engine, original] of [
  ['sqlite', args.sqlite ? `sqlite:${args.sqlite.replace(/^sqlite:/, '')}` : undefined],
  ['postgres', args.postgres],
] as const) {
  if (!original) continue;
  if (original.startsWith('sqlite') && !existsSync(original.replace(/^sqlite:/, ''))) throw new Error(`no database at ${original}`);
  const afterUrl = await copyOf(original);
  cli(args.after, ['migrate', '--db', afterUrl]);
  const path = await taxIdHit(original);
  // The ceiling answers with the bytes of a real tax-ID hit of the program after.
  const sample = await (async () => {
    const key = (JSON.parse(cli(args.after!, ['key', 'issue', 'GM-00001', '--daily-limit', '10000000', '--json', '--db', afterUrl])) as { key: string }).key;
    const server = await start(process.execPath, [args.after!, 'serve', '--port', '0', '--log-level', 'warn', '--db', afterUrl]);
    try {
      const real = await fetch(server.url + path, { headers: { 'x-api-key': key } });
      return {
        status: real.status,
        headers: { 'content-type': real.headers.get('content-type') },
        body: Buffer.from(await real.arrayBuffer()).toString('base64'),
      };
    } finally {
      server.child.kill('SIGTERM');
    }
  })();
  const sampleFile = `${ROOT}.bench/quota-cost-ceiling.json`;
  writeFileSync(sampleFile, JSON.stringify(sample));
  for (let round = 1; round <= Number(args.rounds); round++) {
    const ceiling = await start(process.execPath, [`${ROOT}scripts/bench/ceiling-server.mjs`, sampleFile]);
    autocannon(ceiling.url, {}, Number(args['warm-up']));
    const ceilingRps = autocannon(ceiling.url, {}, Number(args.duration)).rps;
    ceiling.child.kill('SIGTERM');
    // Alternate which program goes first, so that neither always meets the machine warmer.
    const order = round % 2 === 1 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const cache of [true, false]) {
      for (const program of order) {
        const row = await measure(
          engine,
          program,
          program === 'before' ? args.before : args.after,
          program === 'before' ? original : afterUrl,
          path,
          round,
          cache,
          ceilingRps,
        );
        rows.push(row);
        console.error(JSON.stringify(row));
      }
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log('| engine | search cache | program | req/s (median) | × ceiling (median) | server CPU ms/req (median) | PostgreSQL backends CPU ms/req (median) |');
console.log('|---|---|---|---:|---:|---:|---:|');
for (const engine of ['sqlite', 'postgres']) {
  for (const cache of [true, false]) {
    for (const program of ['before', 'after']) {
      const these = rows.filter((r) => r.engine === engine && r.cache === cache && r.program === program);
      if (these.length === 0) continue;
      const db = these.map((r) => r.databaseCpuMs).filter((x): x is number => x !== null);
      console.log(
        `| ${engine} | ${cache ? 'on' : 'off'} | ${program} | ${median(these.map((r) => r.rps)).toFixed(0)} | ${median(these.map((r) => r.ratio)).toFixed(3)} | ${median(these.map((r) => r.serverCpuMs)).toFixed(3)} | ${db.length ? median(db).toFixed(3) : '—'} |`,
      );
    }
  }
}
