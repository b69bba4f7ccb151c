// `npm run bench`: builds a database of N companies per engine (reused when present), starts
// the real server, and drives it from a separate process (autocannon) with six scenarios, next
// to a bare node:http server that answers with the byte-identical response of a real hit (the
// ceiling). Prints req/s, p50, p99 and the ratio to the ceiling; writes docs/benchmarks.md.
//
//   npm run bench -- [--companies 1000000] [--engines sqlite,postgres] [--duration 10] [--warm-up 10] [--connections 10] [--no-write] [--bin other/bin/risklookup.js]
//                    [--pg-prefix risklookup_bench] [--tag before] [--fresh-pool 40000]
//   npm run bench -- --watchers 10000 [--receiver-delay-ms 100] [--receiver-nice 19] [--client-nice=-10] [--search-rate 500] [--split [--pin]] [--control-load MS] [--engines …] [--bin …] [--tag …]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openEngine } from '../../src/db/connect.ts';
import { vknCheckDigit } from '../../src/generate/check-digits.ts';
import { generateKeyEntry } from '../../src/secrets/key-ring.ts';
import { runFreshScenarios } from './fresh-scenarios.ts';
import { runFreshTaxIds } from './fresh-tax-ids.ts';
import { cpuSecondsOf, postgresPids, waitUntilIdle } from './process-cpu.ts';

const { values: args } = parseArgs({
  options: {
    companies: { type: 'string', default: '1000000' },
    engines: { type: 'string', default: process.env.TEST_DATABASE_URL || process.env.BENCH_PG_URL ? 'sqlite,postgres' : 'sqlite' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    // Seconds each scenario runs unmeasured first (0: none); see `measured` below.
    'warm-up': { type: 'string', default: '10' },
    'no-write': { type: 'boolean', default: false },
    // PostgreSQL databases are shared by every checkout on the server: a name of one's own.
    'pg-prefix': { type: 'string', default: 'risklookup_bench' },
    // Another checkout's program, for a before/after comparison under the same conditions.
    bin: { type: 'string' },
    // Databases of their own (SQLite file and PostgreSQL name), e.g. for that other program's schema.
    tag: { type: 'string', default: '' },
    // Fresh queries built per kind (fresh-scenarios.ts); a row says when its kind ran out.
    'fresh-pool': { type: 'string', default: '40000' },
    // Issue 30's load instead of the search scenarios: N watchers of one company, a consensus reached (watchers.ts).
    watchers: { type: 'string' },
    // With --watchers: the receiver answers each delivery this many ms after it arrived (a remote receiver's answer time).
    'receiver-delay-ms': { type: 'string', default: '0' },
    // With --watchers: the receiver's nice value while delivering (19: it stands for a remote machine, and takes no turn from the server).
    'receiver-nice': { type: 'string', default: '0' },
    'client-nice': { type: 'string', default: '0' },
    // With --watchers: the searches' pace in requests a second (0: as fast as the server answers, a closed loop).
    'search-rate': { type: 'string', default: '0' },
    // With --watchers: the control run: no approval, no delivery; another process busy this many ms in every 10 ms instead (cpu-load.mjs).
    'control-load': { type: 'string', default: '0' },
    // With --watchers: the API in one process (serve --background no), the deliveries in another (--background only).
    split: { type: 'boolean', default: false },
    // With --split: the background process and the receiver on the last core, the API and the searches on the others (taskset).
    pin: { type: 'boolean', default: false },
    // Tax IDs per kind (hits, misses) for the fresh tax-ID row (fresh-tax-ids.ts).
    'tax-pool': { type: 'string', default: '150000' },
    // Only the fresh scenarios (the headline rows), for quick before/after pairs.
    'fresh-only': { type: 'boolean', default: false },
    // Seconds to wait after the server starts, before any scenario (a background load, e.g. the index of names, ends first).
    settle: { type: 'string', default: '0' },
  },
});
const N = Number(args.companies);
const warmUp = Number(args['warm-up']);
if (!Number.isInteger(warmUp) || warmUp < 0) throw new Error(`--warm-up must be a whole number of seconds (0 for none), got '${args['warm-up']}'`);
const ROOT = new URL('../../', import.meta.url).pathname;
const WORK = `${ROOT}.bench`;
const BIN = args.bin ?? `${ROOT}bin/risklookup.js`;
const TAG = args.tag ? `-${args.tag}` : '';
const PG_ADMIN = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
mkdirSync(WORK, { recursive: true });

function cli(args: string[]): string {
  return execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
}

async function databaseUrl(engine: string, fresh = false): Promise<string> {
  if (engine === 'sqlite') {
    if (fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(`${WORK}/bench-${N}${TAG}.db${suffix}`, { force: true });
    return `sqlite:${WORK}/bench-${N}${TAG}.db`;
  }
  const name = `${args['pg-prefix']}_${N}${TAG.replace('-', '_')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database of the watchers scenario's own (never the search scenarios' data). */
async function watchersDatabaseUrl(engine: string): Promise<string> {
  if (engine === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${WORK}/watchers${TAG}.db${suffix}`, { force: true });
    return `sqlite:${WORK}/watchers${TAG}.db`;
  }
  const name = `${args['pg-prefix']}_watchers${TAG.replace('-', '_')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
}

async function countCompanies(url: string): Promise<number> {
  // Migrated by the program under test (--bin): this checkout's migrations may be newer.
  cli(['migrate', '--db', url]);
  const engine = openEngine(url);
  try {
    return Number(
      (
        await engine.db
          .selectFrom('companies')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  } finally {
    await engine.close();
  }
}

/** The engine's database holding exactly N companies: reused when it does, rebuilt otherwise. */
async function ensureData(engineName: string): Promise<{ url: string; importSeconds: number | null }> {
  let url = await databaseUrl(engineName);
  const count = await countCompanies(url);
  if (count === N) return { url, importSeconds: null };
  if (count !== 0) {
    console.error(`${engineName}: found ${count} companies, not ${N} (an interrupted run?); rebuilding`);
    url = await databaseUrl(engineName, true);
    await countCompanies(url);
  }
  const file = `${WORK}/companies-${N}.jsonl`;
  if (!existsSync(file)) cli(['generate', '--companies', String(N), '--out', file, '--db', url]);
  else cli(['generate', '--companies', '1', '--out', `${WORK}/members-only.jsonl`, '--db', url]); // adds the members
  const started = Date.now();
  cli(['import', file, '--db', url]);
  return { url, importSeconds: (Date.now() - started) / 1000 };
}

async function pickQueries(url: string) {
  const engine = openEngine(url);
  const hit = await engine.db
    .selectFrom('companies')
    .select(['tax_id_norm', 'name_core'])
    .where('visible_report_count', '>=', 3)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  let miss = '';
  for (let stem = 999_999_999; ; stem -= 7) {
    miss = String(stem) + vknCheckDigit(String(stem));
    if (!(await engine.db.selectFrom('companies').select('id').where('tax_id_norm', '=', miss).executeTakeFirst())) break;
  }
  await engine.close();
  return [
    { name: 'tax-ID hit', path: `/api/v1/search.php?type=tax_id&country=TR&q=${hit.tax_id_norm}` },
    { name: 'tax-ID miss', path: `/api/v1/search.php?type=tax_id&country=TR&q=${miss}` },
    { name: 'name, distinctive', path: `/api/v1/search.php?q=${encodeURIComponent(hit.name_core)}` },
    { name: 'name, common word', path: '/api/v1/search.php?q=lojistik' },
    { name: 'name, misspelt (near matches)', path: `/api/v1/search.php?q=${encodeURIComponent(misspelt(hit.name_core))}` },
    { name: 'countries', path: '/api/v1/countries.php' },
  ];
}

/** The name with a letter dropped from the middle of its longest word: no result, near matches (D25). */
function misspelt(core: string): string {
  const words = core.split(' ');
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
  const cut = Math.floor(longest.length / 2);
  return words.map((w) => (w === longest ? w.slice(0, cut) + w.slice(cut + 1) : w)).join(' ');
}

const BENCH_KEY_RING = generateKeyEntry('bench');

function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  ready = /listening on (http:\/\/\S+)/,
): Promise<{ child: ChildProcess; url: string }> {
  // D35: a server needs a key ring; the bench makes one per run (it stores no secret worth keeping).
  const ring = { RISKLOOKUP_SECRET_KEYS: process.env.RISKLOOKUP_SECRET_KEYS || BENCH_KEY_RING };
  const child = spawn(command, args, { env: { ...process.env, ...ring, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      // SERVE_STDOUT_FILE=path keeps what the servers print (e.g. V8's --trace-deopt from a preloaded module).
      if (process.env.SERVE_STDOUT_FILE) appendFileSync(process.env.SERVE_STDOUT_FILE, d as Buffer);
      out += d;
      const m = ready.exec(out);
      if (m) resolve({ child, url: m[1] ?? '' });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time per answered request, ms: the server process's, and PostgreSQL's (all its processes on this machine); null where unknown. */
  serverCpuMs: number | null;
  databaseCpuMs: number | null;
}

function autocannon(url: string, headers: Record<string, string>, seconds: number, serverPid?: number, measurePostgres = false): Result {
  // Listed now: each server opens its own connections, each a PostgreSQL process.
  const databasePids = measurePostgres ? postgresPids() : [];
  const server0 = serverPid === undefined ? null : cpuSecondsOf([serverPid]);
  const database0 = databasePids.length > 0 ? cpuSecondsOf(databasePids) : null;
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
  const server1 = serverPid === undefined ? null : cpuSecondsOf([serverPid]);
  const database1 = databasePids.length > 0 ? cpuSecondsOf(databasePids) : null;
  const r = JSON.parse(json) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  const perRequest = (a: number | null, b: number | null) => (a === null || b === null || r.requests.total === 0 ? null : ((b - a) * 1000) / r.requests.total);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    serverCpuMs: perRequest(server0, server1),
    databaseCpuMs: perRequest(database0, database1),
  };
}

/** A field of /proc/PID/status in MB (VmRSS: resident now; VmHWM: the most resident since the process started or its peak was reset). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024);
}
const rssMb = (pid: number) => statusMb(pid, 'VmRSS');

/**
 * The server's peak RSS over the fresh rows (issue 28: ≤ 250 MB at 10^6): the kernel's own
 * high-water mark (VmHWM), reset when they begin (Linux: `5` into /proc/PID/clear_refs), so it
 * holds neither the start-up's peak nor the index of names' load, and misses no spike between two
 * samples (the bench's own loop is blocked while a client runs, so it cannot sample).
 */
function resetPeak(pid: number): { startUpPeak: number } {
  const startUpPeak = statusMb(pid, 'VmHWM');
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return { startUpPeak };
}

async function benchEngine(engine: string) {
  const { url, importSeconds } = await ensureData(engine);
  // D34: the generated reports go back to 2019; the server's daily retention job would expire those
  // past their end during the measurement. Run it first (a no-op once done): a served database is
  // in retention's steady state. Another checkout's program (--bin) may have no such command.
  if (!args.bin) cli(['retention', 'run', '--db', url]);
  const key = (JSON.parse(cli(['key', 'issue', 'GM-00001', '--daily-limit', '10000000', '--json', '--db', url])) as { key: string }).key;
  const queries = await pickQueries(url);
  const serveArgs = [BIN, 'serve', '--port', '0', '--log-level', 'warn', '--db', url, '--anon-daily-limit', '10000000'];
  // Every server measured here has finished its start-up first (the index of names is built after it listens).
  const startSettled = async (argv: string[], label: string) => {
    const started = await start(process.execPath, argv);
    const waited = await waitUntilIdle(started.child.pid!, { label: `${engine}: ${label}` });
    console.error(`${engine}: ${label}: start-up done after ${waited.toFixed(0)} s`);
    return started;
  };
  const server = await startSettled(serveArgs, 'the server');
  if (Number(args.settle) > 0) await new Promise((resolve) => setTimeout(resolve, Number(args.settle) * 1000));
  const headers = { 'x-api-key': key };
  const seconds = Number(args.duration);
  try {
    // The ceiling answers with the bytes of a real tax-ID hit.
    const real = await fetch(server.url + queries[0]!.path, { headers });
    const sample = {
      status: real.status,
      headers: { 'content-type': real.headers.get('content-type') },
      body: Buffer.from(await real.arrayBuffer()).toString('base64'),
    };
    writeFileSync(`${WORK}/ceiling-response.json`, JSON.stringify(sample));
    const near = queries.find((q) => q.name.startsWith('name, misspelt'))!;
    const nearBody = (await (await fetch(server.url + near.path, { headers })).json()) as { result_count: number; near_matches?: unknown[] };
    console.error(`${engine}: ${decodeURIComponent(near.path)} → ${nearBody.result_count} results, ${nearBody.near_matches?.length ?? 'no'} near matches`);

    const ceilingServer = await start(process.execPath, [`${ROOT}scripts/bench/ceiling-server.mjs`, `${WORK}/ceiling-response.json`]);
    if (warmUp > 0) autocannon(ceilingServer.url, {}, warmUp); // warm-up
    const ceiling = autocannon(ceilingServer.url, {}, seconds, ceilingServer.child.pid);
    ceilingServer.child.kill('SIGTERM');
    // The framework alone: a bare Fastify app answering the same bytes at the hit's own path and query.
    const hitPath = queries[0]!.path;
    const fastifyServer = await start(process.execPath, [
      `${ROOT}scripts/bench/ceiling-server.mjs`,
      `${WORK}/ceiling-response.json`,
      '--fastify',
      hitPath.split('?')[0]!,
    ]);
    if (warmUp > 0) autocannon(fastifyServer.url + hitPath, {}, warmUp);
    const fastifyCeiling = autocannon(fastifyServer.url + hitPath, {}, seconds, fastifyServer.child.pid);
    fastifyServer.child.kill('SIGTERM');
    const measurePostgres = engine === 'postgres';
    // Each scenario first runs unmeasured: a server new to a path spends its first seconds on it
    // compiling the code (V8's optimising compiler, a common word on PostgreSQL: 14 % of the
    // server's CPU in the first 3 s, 8 % in the next 5, under 4 % after 8 s, ~2 % after 30 s).
    // A server in service has long taken every path; the rows show its steady state.
    const measured = (base: string, path: string, pid: number | undefined) => {
      if (warmUp > 0) autocannon(base + path, headers, warmUp);
      return autocannon(base + path, headers, seconds, pid, measurePostgres);
    };
    // The headline rows: queries nobody asked before, on the same server, cache on.
    const freshRun = { baseUrl: server.url, pid: server.child.pid, key, seconds, warmUp, connections: Number(args.connections), measurePostgres, work: WORK };
    const { startUpPeak } = resetPeak(server.child.pid!);
    const fresh = await runFreshScenarios(url, { ...freshRun, perKind: Math.min(Number(args['fresh-pool']), Math.floor(N / 8)) });
    const memory = { startUpPeak, freshPeak: statusMb(server.child.pid!, 'VmHWM'), afterFresh: rssMb(server.child.pid!) };
    for (const row of fresh) console.error(`${engine}: ${row.name}: ${row.inputs}`);
    if (args['fresh-only']) return { engine, importSeconds, ceiling, fastifyCeiling, rows: fresh, rss: memory.afterFresh, memory };
    const rows: Array<Result & { name: string; inputs?: string }> = [
      ...fresh,
      ...queries.map((q) => ({ name: q.name, ...measured(server.url, q.path, server.child.pid) })),
    ];
    const rss = rssMb(server.child.pid!);
    // Tax IDs nobody asked before, on a server of their own (its cache holds none of them).
    const taxServer = await startSettled(serveArgs, "the fresh tax IDs' server");
    try {
      const taxRun = { ...freshRun, baseUrl: taxServer.url, pid: taxServer.child.pid, perKind: Math.min(Number(args['tax-pool']), Math.floor(N / 2)) };
      const taxRow = await runFreshTaxIds(url, taxRun);
      console.error(`${engine}: ${taxRow.name}: ${taxRow.inputs}`);
      rows.splice(fresh.length, 0, taxRow);
    } finally {
      taxServer.child.kill('SIGTERM');
    }
    // The same searches with the search cache off: what a query no one asked recently costs.
    const uncached = await startSettled([...serveArgs, '--search-cache-entries', '0'], 'the server without a search cache');
    try {
      for (const q of queries.filter((q) => q.name !== 'countries')) {
        rows.push({ name: `${q.name}, no cache`, ...measured(uncached.url, q.path, uncached.child.pid) });
      }
    } finally {
      uncached.child.kill('SIGTERM');
    }
    return { engine, importSeconds, ceiling, fastifyCeiling, rows, rss, memory };
  } finally {
    server.child.kill('SIGTERM');
  }
}

const fmt = (n: number, d = 0) => n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });

if (args.pin && !args.split) throw new Error('--pin gives the background process a core of its own: it goes with --split');
if (args.watchers !== undefined) {
  const { runWatchersScenario } = await import('./watchers.ts');
  const watchers = Number(args.watchers);
  const rows = [];
  for (const engine of args.engines.split(',')) {
    const r = await runWatchersScenario(engine, watchers, {
      databaseUrl: watchersDatabaseUrl,
      start,
      bin: BIN,
      keyRing: process.env.RISKLOOKUP_SECRET_KEYS || BENCH_KEY_RING,
      seconds: Number(args.duration),
      receiverDelayMs: Number(args['receiver-delay-ms']),
      receiverNice: Number(args['receiver-nice']),
      clientNice: Number(args['client-nice']),
      searchRate: Number(args['search-rate']),
      split: args.split,
      pin: args.pin,
      controlLoadMs: Number(args['control-load']),
    });
    const loop = (w: typeof r.loop.before) =>
      w
        ? `${fmt(w.p99Median, 1)} / ${fmt(w.p99Max, 1)} / ${fmt(w.max)} ms (at ${fmt(w.maxAt, 1)} s), ${fmt(w.over10 * 100)} %, ELU ${fmt(w.elu, 2)}, CPU ${fmt(w.cpuMsPerSecond)} ms/s`
        : 'n/a';
    rows.push(
      `| ${args.tag || 'this'} | ${r.engine} | ${loadavg()[0]!.toFixed(1)} | ${fmt(r.approvalMs)} | ${r.deliveredSeconds === null ? 'not all in 120 s' : fmt(r.deliveredSeconds, 1)} | ` +
        `${fmt(r.before.rps)} / ${r.before.p99} | ${fmt(r.during.rps)} / ${r.during.p99} (${fmt(r.during.seconds, 1)} s) | ${fmt(r.during.p99 / r.before.p99, 2)} | ` +
        `${loop(r.loop.before)} | ${loop(r.loop.during)} | ${fmt(r.besideCpuMsPerSecond)} | ${r.walMb ? `${fmt(r.walMb.afterApproval, 1)} → ${fmt(r.walMb.atEnd, 1)}` : 'n/a'} |`,
    );
    console.error(rows.at(-1));
  }
  console.log(
    [
      `\`npm run bench -- --watchers ${watchers}${Number(args['search-rate']) > 0 ? ` --search-rate ${args['search-rate']}` : ''}${Number(args['receiver-nice']) > 0 ? ` --receiver-nice ${args['receiver-nice']}` : ''}${Number(args['client-nice']) !== 0 ? ` --client-nice ${args['client-nice']}` : ''}${args.split ? ' --split' : ''}${args.pin ? ' --pin' : ''}${Number(args['control-load']) > 0 ? ` --control-load ${args['control-load']}` : ''}\` on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}:`,
      '',
      '| code | engine | load | approval transaction ms | all delivered after s | searches before: req/s / p99 ms | while delivering (whole delivery): req/s / p99 ms | p99 ratio | event loop before: p99 median / p99 max / max, intervals > 10 ms, ELU, CPU | event loop while delivering | CPU beside the server ms/s (the receiver, or the control load) | WAL MB after approval → end |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
  process.exit(0);
}

const results = [];
for (const engine of args.engines.split(',')) results.push(await benchEngine(engine));

const lines = [
  `Generated by \`npm run bench -- --companies ${N}\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
  `One server process, ${args.connections} connections, ${args.duration} s a scenario ${warmUp > 0 ? `after ${args['warm-up']} s of the same requests unmeasured (a server compiles the code of a path in its first seconds on it)` : '(no warm-up)'}, driven by autocannon from a separate process; every server is measured once its start-up work is done (the index of names is built after it listens; the bench waits until the server uses under 50 ms of CPU in a second). The ceiling is a bare \`node:http\` server answering with the byte-identical response of a real tax-ID hit. Beside it, a bare Fastify 5 app (the server's version, options and API plugin, one route, no database) answers the same bytes at the hit's path: the framework's own cost. Each scenario repeats one request, so the search cache answers it after the first time; the "no cache" rows run the same requests on a server started with \`--search-cache-entries 0\` (a query nobody asked since the data last changed). CPU ms/req: the server process's CPU time (user + system) per answered request, and that of all the local PostgreSQL's processes (SQLite works inside the server process); on a shared machine it moves much less than req/s and p99.`,
  '',
];
for (const r of results) {
  lines.push(`## ${r.engine}, ${fmt(N)} companies${r.importSeconds === null ? '' : ` (imported in ${fmt(r.importSeconds, 1)} s)`}`, '');
  lines.push(
    '| scenario | req/s | p50 ms | p99 ms | × ceiling | server CPU ms/req | PostgreSQL CPU ms/req | errors / non-2xx |',
    '|---|---|---|---|---|---|---|---|',
  );
  const cpu = (ms: number | null) => (ms === null ? '—' : fmt(ms, 2));
  lines.push(
    `| ceiling (node:http, same bytes) | ${fmt(r.ceiling.rps)} | ${r.ceiling.p50} | ${r.ceiling.p99} | 1.00 | ${cpu(r.ceiling.serverCpuMs)} | — | ${r.ceiling.errors} / ${r.ceiling.non2xx} |`,
    `| Fastify 5 alone (same bytes, same path, no database) | ${fmt(r.fastifyCeiling.rps)} | ${r.fastifyCeiling.p50} | ${r.fastifyCeiling.p99} | ${fmt(r.fastifyCeiling.rps / r.ceiling.rps, 2)} | ${cpu(r.fastifyCeiling.serverCpuMs)} | — | ${r.fastifyCeiling.errors} / ${r.fastifyCeiling.non2xx} |`,
  );
  for (const row of r.rows)
    lines.push(
      `| ${row.name} | ${fmt(row.rps)} | ${row.p50} | ${row.p99} | ${fmt(row.rps / r.ceiling.rps, 2)} | ${cpu(row.serverCpuMs)} | ${cpu(row.databaseCpuMs)} | ${row.errors} / ${row.non2xx} |`,
    );
  lines.push(
    '',
    `Server RSS: peak ${r.memory.freshPeak} MB during the fresh rows (VmHWM, reset when they began), ${r.memory.afterFresh} MB after them, ` +
      `${r.rss} MB after the run; peak before the fresh rows (start-up, index of names, ceilings) ${r.memory.startUpPeak} MB.`,
    '',
  );
  lines.push('Inputs of the fresh rows:', '', ...r.rows.filter((row) => row.inputs).map((row) => `- ${row.name}: ${row.inputs}`), '');
}
const text = lines.join('\n');
console.log(text);
// The figures replace what stands between the markers; the analysis around them stays.
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
if (!args['no-write']) {
  const path = `${ROOT}docs/benchmarks.md`;
  const doc = existsSync(path) ? readFileSync(path, 'utf8') : `${START}\n${END}\n`;
  const [before, rest] = doc.includes(START) ? doc.split(START) : ['', `${END}\n${doc}`];
  const after = rest!.slice(rest!.indexOf(END) + END.length);
  writeFileSync(path, `${before}${START}\n${text}\n${END}${after}`);
}
// A benchmark of failing requests measures nothing: fail loudly (this is what CI's smoke checks).
const broken = results.flatMap((r) => r.rows.filter((row) => row.errors > 0 || row.non2xx > 0 || row.rps === 0).map((row) => `${r.engine} ${row.name}`));
if (broken.length > 0) {
  console.error(`bench: errors or non-2xx answers in: ${broken.join(', ')}`);
  process.exitCode = 1;
}
