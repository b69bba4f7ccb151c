// `node --import tsx scripts/bench/fresh-cpu.ts --db URL --bin A/bin/risklookup.js[,B/bin/risklookup.js] [--pairs 3]`
// Server CPU per fresh name request (issue 28), programs side by side: each round starts one
// `serve` of a program on the database (in the order A B B A A B …), waits for its index of
// names, sends the same unmeasured warm-up and then the same fresh queries of each kind (every
// one distinct, each new to that process's search cache), and reads the server's CPU
// (user + system, /proc) per answered request, PostgreSQL's beside it. `--found` keeps only the
// name queries that find a result (classified once, over HTTP, on a server of their own).
// `--cpu-prof DIR` runs every server under `node --cpu-prof` (one .cpuprofile per round).
// `--serve-args='A args;B args'`, `--node-args=…` and `--env='K=V K2=V2;…'` (one group per program,
// `;` between them) start the same program with different settings. After each round the
// server's memory: VmRSS and VmHWM, smaps_rollup's anonymous and file-backed resident bytes, and
// V8's heap and ArrayBuffers from /metrics (issue 28's serving RSS); the peak after the traffic is
// the traffic's own (VmHWM reset once the index has loaded).
// `--db A,B`: one database per program (e.g. B's migrated by a migration A does not know; the
// same data otherwise), a key issued in each.
// The database is written to (a key, quota, audit): use a copy.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openEngine } from '../../src/db/connect.ts';
import { generateKeyEntry } from '../../src/secrets/key-ring.ts';
import { buildFreshPools, FRESH_KINDS, type FreshKind } from './fresh-queries.ts';
import { runClient } from './fresh-scenarios.ts';
import { execFileSync } from 'node:child_process';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    bin: { type: 'string' },
    pairs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    // Measured queries per kind (and as many again for the warm-up).
    requests: { type: 'string', default: '300' },
    kinds: { type: 'string', default: 'distinctive word,whole name,other legal form,two words' },
    found: { type: 'boolean', default: false },
    // Only the name queries that find nothing (near matches, D25): the complement of --found.
    'not-found': { type: 'boolean', default: false },
    'one-at-a-time': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    work: { type: 'string', default: '/tmp' },
    // The lists of queries, kept from an earlier run (--found classifies once): read if it exists, else written.
    lists: { type: 'string' },
    'serve-args': { type: 'string', default: '' },
    'node-args': { type: 'string', default: '' },
    env: { type: 'string', default: '' },
    // Seconds to wait after the index of names answers: the names' words load after it (near
    // matches from memory on PostgreSQL; 20–40 s at 10^6), and until then take the database path.
    settle: { type: 'string', default: '0' },
    // A directory: the server's memory sampled every 100 ms over the traffic (memory-sampler.mjs), one file per round, and the sample at its highest RSS printed.
    sample: { type: 'string' },
  },
});
const bins = args.bin!.split(',');
/** One group per program: `;` between programs, blanks between words. */
const perProgram = (raw: string) => bins.map((_, i) => (raw.split(';')[i] ?? '').split(/\s+/).filter(Boolean));
const serveArgs = perProgram(args['serve-args']);
const nodeArgs = perProgram(args['node-args']);
const envs = perProgram(args.env).map((pairs) => Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)])));
const kinds = args.kinds.split(',') as FreshKind[];
for (const k of kinds) if (!FRESH_KINDS.includes(k)) throw new Error(`unknown kind ${k}`);
const perKind = Number(args.requests);
const ring = process.env.RISKLOOKUP_SECRET_KEYS || generateKeyEntry('fresh-cpu');
const measurePostgres = args.db!.startsWith('postgres');
/** Each program's database (one for all unless `--db` lists one per program). */
const dbs = bins.map((_, i) => args.db!.split(',')[i] ?? args.db!.split(',')[0]!);

// One key per database: issuing another for the member revokes the one before (every round of
// the first program then answered 403 in a few tenths of a millisecond).
const keyOfDb = new Map<string, string>();
const keys = bins.map((bin, i) => {
  const db = dbs[i]!;
  if (!keyOfDb.has(db))
    keyOfDb.set(
      db,
      (
        JSON.parse(
          execFileSync(process.execPath, [bin, 'key', 'issue', 'GM-00001', '--daily-limit', '10000000', '--json', '--db', db], { encoding: 'utf8' }),
        ) as { key: string }
      ).key,
    );
  return keyOfDb.get(db)!;
});
const key = keys[0]!;

/** CPU ticks of each of the process's threads by name (the main thread as `main`): where GC helpers' and the thread pool's time goes. */
function threadTicks(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = Number(tid) === pid ? 'main' : text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
    }
  } catch {
    // Not Linux, or gone.
  }
  return out;
}

let nextPort = 19_300 + Math.floor(Math.random() * 500);
async function startServer(b: number, profileDir?: string): Promise<{ child: ChildProcess; url: string; spawnedAt: number; metricsPort: number }> {
  const spawnedAt = performance.now();
  const metricsPort = nextPort++;
  const node = [...nodeArgs[b]!, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])];
  const child = spawn(
    process.execPath,
    [
      ...node,
      bins[b]!,
      'serve',
      '--port',
      '0',
      '--log-level',
      'warn',
      '--db',
      dbs[b]!,
      '--anon-daily-limit',
      '10000000',
      '--metrics-port',
      String(metricsPort),
      ...serveArgs[b]!,
    ],
    {
      env: { ...process.env, RISKLOOKUP_SECRET_KEYS: ring, ...envs[b] },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  // The index of names loads in the background: measure once it answers.
  for (;;) {
    // Not answering yet (or a reset while it starts): ask again.
    const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
      (r) => r.text(),
      () => '',
    );
    if (/risklookup_name_index_companies [1-9]/.test(text)) break;
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, Number(args.settle) * 1000));
  return { child, url, spawnedAt, metricsPort };
}

async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

let lists: Record<FreshKind, string[]>;
if (args.lists && existsSync(args.lists)) lists = JSON.parse(readFileSync(args.lists, 'utf8')) as Record<FreshKind, string[]>;
else lists = await makeLists();
if (args.lists && !existsSync(args.lists)) writeFileSync(args.lists, JSON.stringify(lists));

async function makeLists(): Promise<Record<FreshKind, string[]>> {
  const engine = openEngine(dbs[0]!);
  const pools = await buildFreshPools(engine.db, perKind * 4, new Set()).finally(() => engine.close());
  const lists = Object.fromEntries(kinds.map((k) => [k, pools.paths[k]])) as Record<FreshKind, string[]>;
  if (args.found || args['not-found']) {
    // Which queries find a result: asked once, on a server of their own.
    const server = await startServer(0);
    try {
      for (const k of kinds) {
        const kept: string[] = [];
        for (const path of lists[k]) {
          const body = (await (await fetch(server.url + path, { headers: { 'x-api-key': key } })).json()) as { result_count: number };
          if (body.result_count > 0 === args.found) kept.push(path);
          if (kept.length >= perKind * 2) break;
        }
        lists[k] = kept;
      }
    } finally {
      await stop(server.child);
    }
  }
  return Object.fromEntries(kinds.map((k) => [k, lists[k].slice(0, perKind * 2)])) as Record<FreshKind, string[]>;
}
mkdirSync(args.work, { recursive: true });
const connections = args['one-at-a-time'] ? 1 : Number(args.connections);
const order = Array.from({ length: Number(args.pairs) * 2 }, (_, i) => (bins.length === 1 ? 0 : [0, 1, 1, 0][i % 4]!));
const results: Array<{
  bin: number;
  load: number;
  memory: string;
  byKind: Record<string, { cpu: number | null; db: number | null; p50: number; p99: number; n: number }>;
}> = [];

/** The server's memory now, MB: resident (anonymous / file-backed), peak, and V8's heap and ArrayBuffers. */
async function memoryOf(pid: number, metricsPort: number): Promise<string> {
  const mb = (kb: string | undefined) => Math.round(Number(kb) / 1024);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (text: string, name: string) => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1];
  const rss = mb(field(status, 'VmRSS'));
  const anon = mb(field(rollup, 'Anonymous'));
  // A kept-alive connection the server has closed meanwhile fails once: ask again.
  const scrape = () => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text());
  const metrics = await scrape().catch(scrape);
  const metric = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)`, 'm').exec(metrics)?.[1]) / 2 ** 20);
  const old = Math.round(Number(/^risklookup_nodejs_heap_space_size_total_bytes\{space="old"\} (\S+)/m.exec(metrics)?.[1]) / 2 ** 20);
  return (
    `RSS ${rss} (anon ${anon}, file ${rss - anon}), peak ${mb(field(status, 'VmHWM'))}, ` +
    `heap used ${metric('risklookup_nodejs_heap_size_used_bytes')} of ${metric('risklookup_nodejs_heap_size_total_bytes')} (old space ${old}), ` +
    `array buffers ${metric('risklookup_nodejs_array_buffers_bytes')}`
  );
}
const SAMPLER = new URL('./memory-sampler.mjs', import.meta.url).pathname;
/** Stops the sampler and returns its sample of highest RSS, and how many it took. */
async function highestSample(sampler: ChildProcess, file: string): Promise<string> {
  const exited = new Promise((resolve) => sampler.once('exit', resolve));
  sampler.kill('SIGTERM');
  await exited;
  const rows = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, number | null>);
  const top = rows.reduce((a, r) => (r.rss! > a.rss! ? r : a));
  return `${Object.entries(top)
    .filter(([k]) => k !== 't')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')} (${rows.length} samples)`;
}
for (const [round, b] of order.entries()) {
  const profileDir = args['cpu-prof'] ? `${args['cpu-prof']}/${round}-${String.fromCharCode(65 + b)}` : undefined;
  const server = await startServer(b, profileDir);
  const run = {
    baseUrl: server.url,
    pid: server.child.pid,
    key: keys[b]!,
    seconds: 120,
    warmUp: 0,
    connections,
    measurePostgres,
    ...(measurePostgres ? { database: new URL(dbs[b]!).pathname.slice(1) } : {}),
    work: args.work,
    perKind,
  };
  const byKind: (typeof results)[number]['byKind'] = {};
  let memory = '';
  let sampler: ChildProcess | undefined;
  try {
    memory = `idle after load: ${await memoryOf(server.child.pid!, server.metricsPort)}`;
    // The peak (VmHWM) from here on is the traffic's, not the start-up's (Linux: 5 resets it).
    writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
    if (args.sample) {
      mkdirSync(args.sample, { recursive: true });
      sampler = spawn(
        process.execPath,
        [SAMPLER, String(server.child.pid), String(server.metricsPort), `${args.sample}/round-${round + 1}-${String.fromCharCode(65 + b)}.jsonl`],
        {
          stdio: 'ignore',
        },
      );
    }
    for (const k of kinds) {
      const half = Math.floor(lists[k].length / 2);
      runClient(run, 120, connections, { shared: lists[k].slice(half) }, false);
      const from = (performance.now() - server.spawnedAt) / 1000;
      const threadsBefore = threadTicks(server.child.pid!);
      const { r, serverCpuMs, databaseCpuMs } = runClient(run, 120, connections, { shared: lists[k].slice(0, half) }, true);
      const threadsAfter = threadTicks(server.child.pid!);
      // Ticks of 10 ms (USER_HZ 100) per request, by thread: the main thread against GC helpers and the pool.
      const split = [...threadsAfter]
        .map(([name, t]) => [name, ((t - (threadsBefore.get(name) ?? 0)) * 10) / Math.max(1, r.requests.total)] as const)
        .filter(([, ms]) => ms > 0)
        .map(([name, ms]) => `${name} ${ms.toFixed(2)}`);
      console.error(`round ${round + 1} ${k}: ms/request by thread: ${split.join(', ')}`);
      // For a profile: the seconds since the server was started that this kind was measured in.
      if (profileDir) console.error(`${profileDir} ${k}: ${from.toFixed(2)}–${((performance.now() - server.spawnedAt) / 1000).toFixed(2)} s`);
      if (r.non2xx > 0 || r.errors > 0) console.error(`round ${round + 1} ${k}: **${r.non2xx} answers not 2xx, ${r.errors} errors**`);
      byKind[k] = { cpu: serverCpuMs, db: databaseCpuMs, p50: r.latency.p50, p99: r.latency.p99, n: r.requests.total };
    }
    memory += `; after the traffic: ${await memoryOf(server.child.pid!, server.metricsPort)}`;
    if (sampler)
      memory += `; sampled at the traffic's highest RSS: ${await highestSample(sampler, `${args.sample}/round-${round + 1}-${String.fromCharCode(65 + b)}.jsonl`)}`;
  } finally {
    sampler?.kill('SIGTERM');
    await stop(server.child);
  }
  results.push({ bin: b, load: loadavg()[0]!, memory, byKind });
  const cells = kinds.map((k) => {
    const x = byKind[k]!;
    return `${x.cpu?.toFixed(2)}${x.db == null ? '' : ` + ${x.db.toFixed(2)}`} (${x.p50}/${x.p99}, n ${x.n})`;
  });
  console.log(`| ${round + 1} | ${String.fromCharCode(65 + b)} | ${results[results.length - 1]!.load.toFixed(2)} | ${cells.join(' | ')} |`);
  console.log(`  ${memory}`);
}
// Per kind: the mean of B/A over the pairs (each pair: adjacent A and B rounds).
if (bins.length > 1) {
  for (const k of kinds) {
    const ratios: number[] = [];
    for (let i = 0; i + 1 < results.length; i += 2) {
      const a = results.slice(i, i + 2).find((r) => r.bin === 0)!.byKind[k]!;
      const b = results.slice(i, i + 2).find((r) => r.bin === 1)!.byKind[k]!;
      if (a.cpu && b.cpu) ratios.push(b.cpu / a.cpu);
    }
    console.log(`${k}: B/A server CPU per request ${ratios.map((x) => x.toFixed(2)).join(', ')}`);
  }
}
