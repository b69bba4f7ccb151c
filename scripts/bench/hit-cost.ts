// The cost of one answered request, program against program (issue 28, fourth pass): each
// program (`--bin`, a checkout's bin/risklookup.js; give several) serves its own copy of the
// database, rounds alternate between them, and each round also measures the bare node:http
// ceiling answering the same bytes (and a bare Fastify app, the framework's share). A round sends a fixed number of requests (autocannon
// `--amount`) after a warm-up and reads the server's CPU time from /proc: ms a request and req/s.
//
// With --callgrind each server runs under `valgrind --tool=callgrind`; its counters are zeroed
// after the warm-up and dumped after the measured requests: instructions a request, the same
// on an idle machine and a loaded one.
//
//   node --import tsx scripts/bench/hit-cost.ts --db sqlite:.bench/hc.db --bin .bench/before/bin/risklookup.js --bin bin/risklookup.js \
//        [--path '/api/v1/search.php?type=tax_id&country=TR&q=…'] [--requests 20000] [--warm-up 20000] [--rounds 3] [--callgrind]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { openEngine } from '../../src/db/connect.ts';
import { generateKeyEntry } from '../../src/secrets/key-ring.ts';
import { cpuSecondsOf, postgresPids } from './process-cpu.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    bin: { type: 'string', multiple: true },
    path: { type: 'string' },
    requests: { type: 'string', default: '20000' },
    'warm-up': { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    callgrind: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
  },
});
if (!args.db || !args.bin?.length) throw new Error('give --db and at least one --bin');
const ROOT = new URL('../../', import.meta.url).pathname;
const WORK = `${ROOT}.bench/hit-cost`;
mkdirSync(WORK, { recursive: true });
const RING = process.env.RISKLOOKUP_SECRET_KEYS || generateKeyEntry('bench');
const env = { ...process.env, RISKLOOKUP_SECRET_KEYS: RING };
const requests = Number(args.requests);
const warmUp = Number(args['warm-up']);

function cli(bin: string, cliArgs: string[]): string {
  return execFileSync(process.execPath, [bin, ...cliArgs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env });
}

function start(command: string, cliArgs: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, cliArgs, { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

function autocannon(url: string, headers: Record<string, string>, amount: number) {
  const flags = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const json = execFileSync(
    process.execPath,
    [`${ROOT}node_modules/autocannon/autocannon.js`, '-c', args.connections, '-a', String(amount), '-j', ...flags, url],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 },
  );
  const r = JSON.parse(json) as { requests: { total: number }; duration: number; non2xx: number; errors: number; latency: { p50: number; p99: number } };
  return { total: r.requests.total, seconds: r.duration, bad: r.non2xx + r.errors, p50: r.latency.p50, p99: r.latency.p99 };
}

/** A database of the program's own (it migrates it), copied from --db. */
async function copyFor(label: string): Promise<string> {
  const url = args.db!;
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const target = `${WORK}/${label}.db`;
    for (const s of ['', '-wal', '-shm']) rmSync(target + s, { force: true });
    // A consistent copy even while the source has a WAL: VACUUM INTO.
    const engine = openEngine(`sqlite:${file}`);
    await sql.raw(`VACUUM INTO '${target}'`).execute(engine.db);
    await engine.close();
    return `sqlite:${target}`;
  }
  const source = new URL(url).pathname.slice(1);
  const name = `${source}_${label}`;
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`);
  await admin.end();
  return url.replace(/\/[^/]*$/, `/${name}`);
}

async function dropCopy(url: string) {
  if (url.startsWith('sqlite:')) return;
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

async function hitPath(url: string): Promise<string> {
  if (args.path) return args.path;
  const engine = openEngine(url);
  const hit = await engine.db
    .selectFrom('companies')
    .select('tax_id_norm')
    .where('visible_report_count', '>=', 3)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  await engine.close();
  return `/api/v1/search.php?type=tax_id&country=TR&q=${hit.tax_id_norm}`;
}

/** Instructions counted by callgrind since its last zeroing, dumped now. */
function callgrindTotal(pid: number, outPrefix: string): number {
  execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore' });
  const dir = WORK;
  const files = readdirSync(dir).filter((f) => f.startsWith(`${outPrefix}.`) && !f.endsWith('.0'));
  let total = 0;
  for (const f of files) {
    const m = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(`${dir}/${f}`, 'utf8'));
    if (m) total = Math.max(total, Number(m[1]));
  }
  return total;
}

interface Measure {
  reqPerS: number;
  cpuMsPerReq: number | null;
  databaseCpuMsPerReq: number | null;
  instrPerReq: number | null;
  p50: number;
  p99: number;
  bad: number;
}

async function measureServer(command: string, cliArgs: string[], headers: Record<string, string>, path: string, label: string): Promise<Measure> {
  const outPrefix = `callgrind-${label}-${Date.now()}`;
  const [cmd, argv] = args.callgrind
    ? ['valgrind', ['--tool=callgrind', `--callgrind-out-file=${WORK}/${outPrefix}.%p`, '--dump-instr=no', command, ...cliArgs]]
    : [command, cliArgs];
  const server = await start(cmd, argv);
  try {
    autocannon(server.url + path, headers, warmUp);
    const pid = server.child.pid!;
    if (args.callgrind) execFileSync('callgrind_control', ['-z', String(pid)], { stdio: 'ignore' });
    const databasePids = args.db!.startsWith('postgres') ? postgresPids() : [];
    const cpu0 = cpuSecondsOf([pid]);
    const db0 = databasePids.length ? cpuSecondsOf(databasePids) : null;
    const r = autocannon(server.url + path, headers, requests);
    const cpu1 = cpuSecondsOf([pid]);
    const db1 = databasePids.length ? cpuSecondsOf(databasePids) : null;
    const instr = args.callgrind ? callgrindTotal(pid, outPrefix) / r.total : null;
    return {
      reqPerS: r.total / r.seconds,
      cpuMsPerReq: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1000) / r.total,
      databaseCpuMsPerReq: db0 === null || db1 === null ? null : ((db1 - db0) * 1000) / r.total,
      instrPerReq: instr,
      p50: r.p50,
      p99: r.p99,
      bad: r.bad,
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => (server.child.exitCode === null ? server.child.once('exit', resolve) : resolve(null)));
    for (const f of readdirSync(WORK).filter((f) => f.startsWith(outPrefix))) rmSync(`${WORK}/${f}`, { force: true });
  }
}

const programs: Array<{ label: string; bin: string; url: string; key: string }> = [];
for (const [i, bin] of args.bin.entries()) {
  const label = `p${i}`;
  const url = await copyFor(label);
  cli(bin, ['migrate', '--db', url]);
  if (!existsSync(`${WORK}`)) mkdirSync(WORK);
  const key = (JSON.parse(cli(bin, ['key', 'issue', 'GM-00001', '--daily-limit', '10000000', '--json', '--db', url])) as { key: string }).key;
  programs.push({ label, bin, url, key });
}
const path = await hitPath(programs[0]!.url);

// The ceiling's bytes: one real answer of the first program.
{
  const p = programs[0]!;
  const server = await start(process.execPath, [p.bin, 'serve', '--port', '0', '--log-level', 'warn', '--db', p.url]);
  const real = await fetch(server.url + path, { headers: { 'x-api-key': p.key } });
  const sample = {
    status: real.status,
    headers: { 'content-type': real.headers.get('content-type') },
    body: Buffer.from(await real.arrayBuffer()).toString('base64'),
  };
  writeFileSync(`${WORK}/ceiling-response.json`, JSON.stringify(sample));
  server.child.kill('SIGTERM');
}

const fmt = (n: number | null, d: number) => (n === null ? '—' : n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d }));
const rows: string[] = [];
for (let round = 1; round <= Number(args.rounds); round++) {
  const ceiling = await measureServer(process.execPath, [`${ROOT}scripts/bench/ceiling-server.mjs`, `${WORK}/ceiling-response.json`], {}, '/', 'ceiling');
  const line = (name: string, m: Measure) =>
    `| ${round} | ${name} | ${fmt(m.reqPerS, 0)} | ${fmt(m.reqPerS / ceiling.reqPerS, 3)} | ${m.p50} / ${m.p99} | ${fmt(m.cpuMsPerReq, 3)} | ${fmt(m.databaseCpuMsPerReq, 3)} | ${fmt(m.instrPerReq, 0)} | ${m.bad} |`;
  rows.push(line('ceiling', ceiling));
  console.error(rows.at(-1));
  // The framework alone (ceiling-server.mjs --fastify): the same bytes at the same path and query.
  const fastify = await measureServer(
    process.execPath,
    [`${ROOT}scripts/bench/ceiling-server.mjs`, `${WORK}/ceiling-response.json`, '--fastify', path.split('?')[0]!],
    {},
    path,
    'fastify',
  );
  rows.push(line('Fastify 5 alone, same bytes', fastify));
  console.error(rows.at(-1));
  // Alternate the order of the programs from round to round.
  const order = round % 2 === 1 ? programs : [...programs].reverse();
  for (const p of order) {
    const serveArgs = [p.bin, 'serve', '--port', '0', '--log-level', args['log-level'], '--db', p.url, '--anon-daily-limit', '10000000'];
    const m = await measureServer(process.execPath, serveArgs, { 'x-api-key': p.key }, path, p.label);
    rows.push(line(`${p.label} ${p.bin}`, m));
    console.error(rows.at(-1));
  }
}
console.log(
  [
    `path ${path}; ${requests} requests a measure after ${warmUp} unmeasured; ${args.connections} connections${args.callgrind ? '; under callgrind' : ''}`,
    '',
    '| round | server | req/s | × ceiling | p50 / p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | instructions/req | bad |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
for (const p of programs) await dropCopy(p.url);
