// `npm run bench -- --watchers 10000`: issue 30's load. N members watch one company, each with a
// webhook endpoint on one local HTTPS receiver; a real `serve` process delivers. The third
// claim's approval reaches consensus: how long its transaction takes (all N events and their
// deliveries written in it), how long until the receiver has every delivery, and the p99 of
// tax-ID searches (autocannon) before the approval and while the deliveries go out.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import https from 'node:https';
import { cpus, getPriority, setPriority } from 'node:os';
import type { AddressInfo } from 'node:net';
import { openEngine, type Engine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { vkn } from '../../src/demo/valid-ids.ts';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import { importLines } from '../../src/import/import.service.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createReportModeration } from '../../src/reports/moderation.service.ts';
import { createFiling } from '../../src/reports/filing.service.ts';
import { KeyRing } from '../../src/secrets/key-ring.ts';
import { sealColumn, WEBHOOK_SECRET } from '../../src/secrets/secret-columns.ts';
import { insertEndpointSealed } from '../../src/webhooks/endpoints.repository.ts';
import { makeCertificate } from '../../test/helpers/tls.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

/** PACED_TIMELINE=base: the paced client writes each request's time and latency to base.before / base.during. */
function timelineEnv(phase: string): NodeJS.ProcessEnv {
  const base = process.env.PACED_TIMELINE;
  return base ? { ...process.env, PACED_TIMELINE: `${base}.${phase}` } : process.env;
}

/**
 * `--split --pin`: the cores of the API process and of the searches' client (all but the last),
 * and of the background process and this process's receiver (the last). Null: not pinned.
 */
let pinning: { api: string; background: string } | null = null;
/**
 * `--client-nice N`: the searches' client runs at this nice value (negative needs root). The
 * client stands for the members' machines: at a higher priority than the server's threads it is
 * not itself kept from the cores by the extra work while delivering, so what its timings show is
 * the server's. 0: as it is.
 */
let clientNice = 0;

/** The searches' client: on the API's cores when pinning, at the client's nice value. */
function client(command: string, args: string[]): [string, string[]] {
  const [c, a] = onCores(pinning?.api, command, args);
  return clientNice !== 0 ? ['nice', ['-n', String(clientNice), c, ...a]] : [c, a];
}

/** A command started on the given cores (taskset, util-linux) when pinning, else as it is. */
function onCores(cores: string | undefined, command: string, args: string[]): [string, string[]] {
  return cores ? ['taskset', ['-c', cores, command, ...args]] : [command, args];
}

/**
 * The searches before the approval, in a child process, awaited (the receiver answers in this
 * process meanwhile): autocannon's closed loop, or paced-client.mjs at `rate` a second.
 */
function load(url: string, key: string, seconds: number, rate: number): Promise<{ rps: number; p99: number; total: number }> {
  return new Promise((resolve, reject) => {
    const args =
      rate > 0
        ? [`${ROOT}scripts/bench/paced-client.mjs`, url, key, String(rate), String(seconds)]
        : [`${ROOT}node_modules/autocannon/autocannon.js`, '-c', '10', '-d', String(seconds), '-j', '-H', `x-api-key=${key}`, url];
    const child = spawn(...client(process.execPath, args), { stdio: ['ignore', 'pipe', 'ignore'], env: timelineEnv('before') });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => {
      const r = JSON.parse(out) as {
        requests: { average: number; total: number };
        latency: { p99: number };
        non2xx: number;
        errors: number;
        failures?: Record<string, number>;
      };
      if (r.non2xx > 0 || r.errors > 0) reject(new Error(`searches failed: ${r.non2xx} non-2xx, ${r.errors} errors${failedHow(r)}`));
      else resolve({ rps: r.requests.average, p99: r.latency.p99, total: r.requests.total });
    });
  });
}

/** What failed, when the client says (paced-client.mjs counts statuses and socket errors' codes). */
function failedHow(r: { failures?: Record<string, number> }): string {
  const failures = Object.entries(r.failures ?? {});
  return failures.length === 0 ? '' : ` (${failures.map(([what, n]) => `${what}: ${n}`).join(', ')})`;
}

/**
 * The searches while delivering: from the approval's commit until the receiver has every delivery
 * (or 120 s), in a child process stopped then (search-until-stopped.mjs). They cover the whole
 * delivery: a fixed span would end early and leave the worker the rest at full speed. The child is
 * started and loaded before the approval (`ready`) and told to go at its commit (`go()`): its own
 * start-up, ~0.35 s of CPU, fell in the measured window before, beside the server on the same two
 * cores (issue 30, third pass: one of the loop's stalls at the start of the delivery).
 */
function searchesUntil(url: string, key: string, rate: number) {
  const script = rate > 0 ? ['paced-client.mjs', url, key, String(rate), '0'] : ['search-until-stopped.mjs', url, key, '10'];
  const child = spawn(...client(process.execPath, [`${ROOT}scripts/bench/${script[0]}`, ...script.slice(1)]), {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: timelineEnv('during'),
  });
  let out = '';
  let readyNow: () => void = () => {};
  const ready = new Promise<void>((resolve) => (readyNow = resolve));
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) readyNow();
  });
  const result = new Promise<{ rps: number; p99: number; total: number; seconds: number }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => {
      const r = JSON.parse(out.replace(/^ready\n/, '')) as {
        requests: { average: number; total: number };
        latency: { p99: number };
        non2xx: number;
        errors: number;
        failures?: Record<string, number>;
        ranSeconds: number;
      };
      if (r.non2xx > 0 || r.errors > 0) reject(new Error(`searches failed: ${r.non2xx} non-2xx, ${r.errors} errors${failedHow(r)}`));
      else resolve({ rps: r.requests.average, p99: r.latency.p99, total: r.requests.total, seconds: r.ranSeconds });
    });
  });
  return {
    ready,
    /** Starts the searches; they stop when `done` settles. */
    go(done: Promise<unknown>) {
      child.stdin.write('go\n');
      void done.then(() => child.stdin.end());
      return result;
    },
  };
}

/** The server's event loop in a window (loop-probe.mjs's lines): delay ms, utilisation, CPU ms a second. */
export interface LoopWindow {
  /** Median and highest of the 250 ms intervals' p99 delay; the longest single delay. */
  p99Median: number;
  p99Max: number;
  max: number;
  /** Seconds from the window's start to the end of the 250 ms interval that held the longest delay. */
  maxAt: number;
  /** Intervals with a delay over 10 ms, of all. */
  over10: number;
  elu: number;
  cpuMsPerSecond: number;
  /** The main thread's (the event loop's) CPU, ms in all over the window (Linux; NaN elsewhere). */
  mainCpuMs: number;
}

function loopWindow(file: string, from: number, to: number): LoopWindow | null {
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: number; p99: number; max: number; elu: number; cpuMs: number; mainCpuMs: number })
    .filter((l) => l.t > from + 250 && l.t <= to);
  if (lines.length === 0) return null;
  const p99s = lines.map((l) => l.p99).sort((a, b) => a - b);
  const sum = (f: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + f(l), 0);
  return {
    p99Median: p99s[Math.floor(p99s.length / 2)]!,
    p99Max: p99s.at(-1)!,
    max: Math.max(...lines.map((l) => l.max)),
    maxAt: (lines.reduce((a, b) => (b.max > a.max ? b : a)).t - from) / 1000,
    over10: lines.filter((l) => l.max > 10).length / lines.length,
    elu: sum((l) => l.elu) / lines.length,
    cpuMsPerSecond: sum((l) => l.cpuMs) / (lines.length / 4),
    mainCpuMs: sum((l) => l.mainCpuMs),
  };
}

export interface WatchersResult {
  engine: string;
  watchers: number;
  eventsWritten: number;
  approvalMs: number;
  deliveredSeconds: number | null;
  before: { rps: number; p99: number; total: number };
  /** Searches from the approval's commit until every delivery is in (`seconds`). */
  during: { rps: number; p99: number; total: number; seconds: number };
  /** SQLite: the write-ahead log's size after the approval, and at the end, MB. */
  walMb: { afterApproval: number; atEnd: number } | null;
  /** The server's event loop before and while delivering (loop-probe.mjs). */
  loop: { before: LoopWindow | null; during: LoopWindow | null };
  /**
   * CPU ms a second used beside the server while delivering: the receiver's (this process's), or
   * with `controlLoadMs` the plain load's. The delivery's own work beside the searches is this plus
   * the server's CPU increase (`loop`).
   */
  besideCpuMsPerSecond: number;
}

interface Hooks {
  databaseUrl(engine: string): Promise<string>;
  /** Starts a server and waits for its line `ready` (default: `listening on URL`; the URL, or '' when the line has none). */
  start(command: string, args: string[], env?: NodeJS.ProcessEnv, ready?: RegExp): Promise<{ child: import('node:child_process').ChildProcess; url: string }>;
  bin: string;
  keyRing: string;
  seconds: number;
  /** The receiver answers this long after a delivery arrived (a remote receiver's answer time); 0: at once. */
  receiverDelayMs?: number;
  /**
   * The receiver (this process) runs at this nice value while the deliveries go out; 0: as the
   * server. It stands for the members' machines: on the bench's two cores its TLS and HTTP work
   * otherwise takes the server's turns, which a remote receiver never does.
   */
  receiverNice?: number;
  /** The searches' client's nice value (clientNice above); 0: as it is. */
  clientNice?: number;
  /**
   * The searches' pace, requests a second from all 10 connections; 0: as fast as the server answers
   * (a closed loop that keeps both cores busy, so any other work, delivery included, lengthens its
   * queue and its p99). A pace below the server's capacity is the traffic of a service in use.
   */
  searchRate?: number;
  /**
   * The API in one process (`serve --background no`) and the deliveries in another
   * (`serve --background only`), as docs/operations.md advises where the searches' tail matters.
   */
  split?: boolean;
  /**
   * The control run: no approval and no delivery; instead another process burns this many ms of CPU
   * in every 10 ms (cpu-load.mjs) for `seconds`, while the same searches run. It shows what any
   * work of the delivery's size on the machine's other core does to the searches' tail.
   */
  controlLoadMs?: number;
  /** With `split`: the background process and the receiver on the last core, the API process and the searches on the others (taskset). */
  pin?: boolean;
}

export async function runWatchersScenario(engineName: string, watchers: number, hooks: Hooks): Promise<WatchersResult> {
  const url = await hooks.databaseUrl(engineName);
  const engine = openEngine(url);
  await migrateToLatest(engine);
  const { db } = engine;
  const clock = systemClock;
  const ring = KeyRing.parse(hooks.keyRing, 'bench');
  const certificate = makeCertificate(undefined, 'watchers-receiver', ['localhost']);
  const received = new Set<string>();
  let allIn: (() => void) | null = null;
  const receiver = https.createServer({ cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      received.add(String(req.headers['webhook-id']));
      if (hooks.receiverDelayMs) setTimeout(() => res.writeHead(204).end(), hooks.receiverDelayMs);
      else res.writeHead(204).end();
      if (received.size >= watchers) allIn?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  const run = randomBytes(3).toString('hex');
  try {
    const { taxId, claims, opId, searched, memberIds } = await setUpWatchers(engine, watchers, ring, `https://localhost:${port}/hook`, run);
    const keyMember = memberIds[watchers - 1]!;
    const { issueKey } = await import('../../src/keys/keys.service.ts');
    const ref = (await db.selectFrom('members').select('ref').where('id', '=', keyMember).executeTakeFirstOrThrow()).ref;
    const key = (await issueKey(db, clock, ref, 10_000_000)).key;
    await engine.close();

    const probeFile = `/tmp/watchers-loop-${run}.jsonl`;
    const cores = cpus().length;
    clientNice = hooks.clientNice ?? 0;
    pinning = hooks.split && hooks.pin && cores >= 2 ? { api: cores === 2 ? '0' : `0-${cores - 2}`, background: String(cores - 1) } : null;
    // The receiver stands for the members' machines: with the deliveries, off the API's cores.
    if (pinning) execFileSync('taskset', ['-a', '-p', '-c', pinning.background, String(process.pid)], { stdio: 'ignore' });
    const serveEnv = { RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: certificate.certFile };
    const server = await hooks.start(
      ...onCores(pinning?.api, process.execPath, [
        hooks.bin,
        'serve',
        '--port',
        '0',
        '--log-level',
        'warn',
        '--db',
        url,
        ...(hooks.split ? ['--background', 'no'] : []),
      ]),
      {
        ...serveEnv,
        LOOP_PROBE_FILE: probeFile,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${ROOT}scripts/bench/loop-probe.mjs`.trim(),
      },
    );
    const background = hooks.split
      ? await hooks.start(
          ...onCores(pinning?.background, process.execPath, [hooks.bin, 'serve', '--log-level', 'warn', '--db', url, '--background', 'only']),
          serveEnv,
          /background work only/,
        )
      : null;
    const walFile = url.startsWith('sqlite:') ? `${url.slice('sqlite:'.length)}-wal` : null;
    const walMb = () => (walFile && existsSync(walFile) ? Math.round(statSync(walFile).size / 1e5) / 10 : 0);
    const path = `${server.url}/api/v1/search.php?type=tax_id&country=TR&q=${searched}`;
    try {
      const rate = hooks.searchRate ?? 0;
      await load(path, key, Math.min(5, hooks.seconds), rate); // warm-up
      const beforeFrom = Date.now();
      const before = await load(path, key, hooks.seconds, rate);
      const beforeTo = Date.now();
      const searches = searchesUntil(path, key, rate);
      await searches.ready;
      if (hooks.controlLoadMs) {
        // The control: no approval, no delivery; a plain CPU load of the delivery's size beside the server instead.
        const started = performance.now();
        const loadChild = spawn(process.execPath, [`${ROOT}scripts/bench/cpu-load.mjs`, String(hooks.controlLoadMs), String(hooks.seconds)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        loadChild.stdout.on('data', (d) => (out += d));
        const ended = new Promise<number>((r) => loadChild.on('exit', () => r(performance.now())));
        const duringFrom = Date.now();
        const during = await searches.go(ended);
        const duringTo = Date.now();
        const endedAt = await ended;
        await new Promise((r) => setTimeout(r, 300)); // the probe's last interval
        const { cpuMs, seconds } = JSON.parse(out) as { cpuMs: number; seconds: number };
        return {
          engine: engineName,
          watchers,
          eventsWritten: 0,
          approvalMs: 0,
          deliveredSeconds: (endedAt - started) / 1000,
          before,
          during,
          walMb: null,
          loop: { before: loopWindow(probeFile, beforeFrom, beforeTo), during: loopWindow(probeFile, duringFrom, duringTo) },
          besideCpuMsPerSecond: cpuMs / seconds,
        };
      }
      const approver = openEngine(url);
      await approver.openPool?.();
      const delivered = new Promise<void>((resolve) => (allIn = resolve));
      const started = performance.now();
      await createReportModeration({ db: approver.db, clock }).moderate({ kind: 'operator', userId: opId }, { reportId: claims[2]!.reportId, step: 'approve' });
      const approvalMs = performance.now() - started;
      const eventsWritten = Number(
        (
          await approver.db
            .selectFrom('company_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('tax_id_norm', '=', taxId)
            .executeTakeFirstOrThrow()
        ).n,
      );
      await approver.close();
      const walAfterApproval = walMb();
      const timeout = new Promise<null>((r) => setTimeout(() => r(null), 120_000).unref());
      const ended = Promise.race([delivered.then(() => performance.now()), timeout]);
      const priority = getPriority();
      if (hooks.receiverNice) setPriority(hooks.receiverNice);
      const duringFrom = Date.now();
      const receiverCpu = process.cpuUsage();
      const during = await searches.go(ended);
      const duringTo = Date.now();
      const endedAt = await ended;
      const { user, system } = process.cpuUsage(receiverCpu);
      if (hooks.receiverNice) setPriority(priority);
      const deliveredSeconds = endedAt === null ? null : (endedAt - started) / 1000;
      await new Promise((r) => setTimeout(r, 300)); // the probe's last interval
      const loop = { before: loopWindow(probeFile, beforeFrom, beforeTo), during: loopWindow(probeFile, duringFrom, duringTo) };
      return {
        engine: engineName,
        watchers,
        eventsWritten,
        approvalMs,
        deliveredSeconds,
        before,
        during,
        walMb: walFile ? { afterApproval: walAfterApproval, atEnd: walMb() } : null,
        loop,
        besideCpuMsPerSecond: (user + system) / (duringTo - duringFrom),
      };
    } finally {
      server.child.kill('SIGTERM');
      background?.child.kill('SIGTERM');
      if (process.env.PACED_TIMELINE && existsSync(probeFile)) copyFileSync(probeFile, `${process.env.PACED_TIMELINE}.loop`);
      rmSync(probeFile, { force: true });
    }
  } finally {
    receiver.close();
    if (pinning) execFileSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
    pinning = null;
    clientNice = 0;
  }
}

/**
 * The scenario's data (not measured): N members watching one company, each with one enabled
 * endpoint at `endpointUrl`; three claims filed on it, two approved (not visible yet, D12), the
 * third pending; an operator; another company, with a report, for the searches.
 */
export async function setUpWatchers(engine: Engine, watchers: number, ring: KeyRing, endpointUrl: string, run: string) {
  const { db } = engine;
  const clock = systemClock;
  const countries = buildCountryCatalogue();
  // N members, each watching the company and with one endpoint (set up directly: not measured).
  const now = clock.now();
  const taxId = vkn(String(300_000_000 + Math.floor(Math.random() * 600_000_000)));
  const memberIds: number[] = [];
  for (let i = 0; i < watchers; i += 500) {
    const rows = Array.from({ length: Math.min(500, watchers - i) }, (_, j) => ({
      ref: `W-${run}-${i + j}`,
      name: `Watcher ${i + j}`,
      tier: 'full' as const,
      status: 'active' as const,
      agreement_signed_on: '2026-01-01',
      created_at: now,
      updated_at: now,
    }));
    memberIds.push(...(await db.insertInto('members').values(rows).returning('id').execute()).map((r) => Number(r.id)));
  }
  await db.transaction().execute(async (trx) => {
    for (const memberId of memberIds) {
      const endpoint = {
        member_id: memberId,
        url: endpointUrl,
        description: '',
        status: 'enabled' as const,
        created_by_user_id: null,
        created_at: now,
        updated_at: now,
      };
      await insertEndpointSealed(trx, endpoint, (id) => sealColumn(ring, WEBHOOK_SECRET, id, `whsec_${randomBytes(32).toString('base64')}`));
    }
    for (let i = 0; i < memberIds.length; i += 1000) {
      await trx
        .insertInto('watchlist')
        .values(memberIds.slice(i, i + 1000).map((member_id) => ({ member_id, country: 'TR', tax_id_norm: taxId, created_at: now })))
        .execute();
    }
    await trx
      .insertInto('watched_companies')
      .values({ country: 'TR', tax_id_norm: taxId, threat_level: null, report_count: 0, visible_ids: '', created_at: now, updated_at: now })
      .execute();
  });
  // Three claimants with users, an operator; two claims approved (not visible yet), one pending.
  const filers: Array<{ userId: number; memberId: number }> = [];
  for (let i = 0; i < 3; i++) {
    const memberId = memberIds[i]!;
    const user = await db
      .insertInto('users')
      .values({
        email: `f${i}-${run}@bench.test`,
        email_norm: `f${i}-${run}@bench.test`,
        name: 'Filer',
        role: 'member_user',
        member_id: memberId,
        status: 'active',
        password_hash: null,
        totp_secret: null,
        totp_last_step: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    filers.push({ userId: Number(user.id), memberId });
  }
  const op = await db
    .insertInto('users')
    .values({
      email: `op-${run}@bench.test`,
      email_norm: `op-${run}@bench.test`,
      name: 'Operator',
      role: 'operator',
      member_id: null,
      status: 'active',
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const claim = (i: number) =>
    createFiling({ db, clock, countries }).file(
      { kind: 'member_user', ...filers[i]!, role: 'member_user' },
      {
        companyName: 'Gözlenen Lojistik A.Ş.',
        taxId,
        country: 'TR',
        city: 'İzmir',
        type: 'unpaid_debt',
        eventDate: '2026-09-30',
        amount: 1000,
        currency: 'TRY',
        description: 'bench',
      },
    );
  const claims = [await claim(0), await claim(1), await claim(2)];
  await createReportModeration({ db, clock }).moderate({ kind: 'operator', userId: Number(op.id) }, { reportId: claims[0]!.reportId, step: 'approve' });
  await createReportModeration({ db, clock }).moderate({ kind: 'operator', userId: Number(op.id) }, { reportId: claims[1]!.reportId, step: 'approve' });
  // Another company for the searches.
  const searched = vkn(String(200_000_000 + Math.floor(Math.random() * 90_000_000)));
  await importLines(
    engine,
    [
      JSON.stringify({
        company_name: 'Arama Tekstil A.Ş.',
        tax_id: searched,
        country: 'TR',
        city: 'Bursa',
        reports: [
          {
            type: 'bounced_cheque',
            status: 'approved',
            filed_at: '2026-03-01 10:00:00',
            description: 'x',
            case: { prosecutor_office: 'Bursa', investigation_number: '2026/1' },
          },
        ],
      }),
    ],
    'bench',
    { countries, clock },
  );
  return { taxId, claims, opId: Number(op.id), searched, memberIds };
}
