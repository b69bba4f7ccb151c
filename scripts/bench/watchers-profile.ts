// `node --import tsx scripts/bench/watchers-profile.ts --engine postgres|sqlite --watchers 10000`:
// where the time of issue 30's approval goes. The watchers scenario's data (watchers.ts,
// setUpWatchers) in a fresh database of its own, then the third claim's approval (consensus: N
// events and their deliveries in one transaction), timed per statement through Kysely's log.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { spawn, type ChildProcess } from 'node:child_process';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { makeCertificate } from '../../test/helpers/tls.ts';
import { cpuSecondsOf } from './process-cpu.ts';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { openEngine } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/schema.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createReportModeration } from '../../src/reports/moderation.service.ts';
import { generateKeyEntry, KeyRing } from '../../src/secrets/key-ring.ts';
import { setUpWatchers } from './watchers.ts';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    watchers: { type: 'string', default: '10000' },
    'pg-prefix': { type: 'string', default: 'watch30_profile' },
    // Then a real `serve` delivers them to a local receiver: its CPU time per delivery (and PostgreSQL's).
    deliver: { type: 'boolean', default: false },
    // With --deliver: the serve process's V8 CPU profile into this directory (node --cpu-prof).
    'cpu-prof': { type: 'string' },
    // SQLite, without --deliver: after the approval, how big its write-ahead log is and how long a
    // checkpoint of it takes (what the next commit of a serving process would do on its event loop).
    checkpoint: { type: 'boolean', default: false },
    // Another checkout's program for the serve process (a before/after pair).
    bin: { type: 'string' },
    // With --deliver: this many tax-ID searches a second meanwhile (from before the approval to the
    // last delivery), so that the server counts as serving and delivers at its pace, as in the bench.
    // Their own CPU is in the figures (the same for both programs of a pair).
    searching: { type: 'string', default: '0' },
    // With --deliver: seconds between the server's start (and the searches') and the approval, so a
    // profile holds as long a stretch of searches alone as of searches beside the deliveries.
    'before-s': { type: 'string', default: '2' },
  },
});
const ROOT = new URL('../../', import.meta.url).pathname;
const PG_ADMIN = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const watchers = Number(args.watchers);

async function freshUrl(): Promise<string> {
  if (args.engine === 'sqlite') {
    const file = `${ROOT}.bench/watchers-profile.db`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    return `sqlite:${file}`;
  }
  const name = `${args['pg-prefix']}_watchers`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
}

const url = await freshUrl();
const engine = openEngine(url);
await migrateToLatest(engine);
const ringText = process.env.RISKLOOKUP_SECRET_KEYS || generateKeyEntry('bench');
const ring = KeyRing.parse(ringText, 'bench');
const certificate = makeCertificate(undefined, 'watchers-receiver', ['localhost']);
const received = new Set<string>();
let allIn: (() => void) | null = null;
const receiver = https.createServer({ cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) }, (req, res) => {
  req.resume();
  req.on('end', () => {
    received.add(String(req.headers['webhook-id']));
    res.writeHead(204).end();
    if (received.size >= watchers) allIn?.();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;
const { claims, opId, searched, memberIds } = await setUpWatchers(engine, watchers, ring, `https://localhost:${port}/hook`, randomBytes(3).toString('hex'));
let server: ChildProcess | undefined;
let searching: NodeJS.Timeout | undefined;
if (args.deliver) {
  server = spawn(
    process.execPath,
    [
      ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : []),
      args.bin ?? `${ROOT}bin/risklookup.js`,
      'serve',
      '--port',
      '0',
      '--log-level',
      'warn',
      '--db',
      url,
    ],
    {
      env: { ...process.env, RISKLOOKUP_SECRET_KEYS: ringText, RISKLOOKUP_WEBHOOK_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: certificate.certFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const serverUrl = await new Promise<string>((resolve) => {
    let out = '';
    server!.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  const perSecond = Number(args.searching);
  if (perSecond > 0) {
    const { issueKey } = await import('../../src/keys/keys.service.ts');
    const ref = (await engine.db.selectFrom('members').select('ref').where('id', '=', memberIds.at(-1)!).executeTakeFirstOrThrow()).ref;
    const key = (await issueKey(engine.db, systemClock, ref, 10_000_000)).key;
    const path = `${serverUrl}/api/v1/search.php?type=tax_id&country=TR&q=${searched}`;
    searching = setInterval(() => {
      void fetch(path, { headers: { 'x-api-key': key } }).then(
        (r) => r.arrayBuffer(),
        () => {},
      );
    }, 1000 / perSecond);
  }
  await new Promise((r) => setTimeout(r, Number(args['before-s']) * 1000));
}

const timings = new Map<string, { n: number; ms: number; rows: number }>();
const log = (event: LogEvent) => {
  const key = event.query.sql
    .replace(/\s+/g, ' ')
    .replace(/(\$\d+|\?)(, (\$\d+|\?))+/g, '…')
    .slice(0, 160);
  const t = timings.get(key) ?? { n: 0, ms: 0, rows: 0 };
  t.n++;
  t.ms += event.queryDurationMillis;
  timings.set(key, t);
};
let db: Kysely<Database>;
let close: () => Promise<void>;
let pool: pg.Pool | undefined;
if (args.engine === 'postgres') {
  await engine.close();
  pool = new pg.Pool({ connectionString: url, max: 2 });
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  await db.selectFrom('members').select('id').limit(1).execute();
  await pool.query('ANALYZE');
  close = () => db.destroy();
} else {
  db = engine.db;
  // SQLite: time around the whole approval only (the engine's own Kysely has no log hook).
  close = () => engine.close();
}
// The database server's CPU time for the approval: its backends' utime + stime (/proc, same machine).
const backendPids: number[] = [];
if (args.engine === 'postgres') {
  const clients = await Promise.all([0, 1].map(() => pool!.connect()));
  for (const c of clients) backendPids.push(Number((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid));
  for (const c of clients) c.release();
}
const ticks = () =>
  backendPids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + Number(fields[11]) + Number(fields[12]);
  }, 0);
const ticks0 = ticks();
const cpu0 = process.cpuUsage();
const started = performance.now();
await createReportModeration({ db, clock: systemClock }).moderate({ kind: 'operator', userId: opId }, { reportId: claims[2]!.reportId, step: 'approve' });
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
const serverCpuMs = ((ticks() - ticks0) * 1000) / 100;
const rows = [...timings].sort((a, b) => b[1].ms - a[1].ms);
for (const [sql, t] of rows.slice(0, 25)) console.log(`${t.ms.toFixed(1).padStart(8)} ms ${String(t.n).padStart(5)}×  ${sql}`);
const inStatements = rows.reduce((s, [, t]) => s + t.ms, 0);
console.log(
  `approval: ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU in this process, ${serverCpuMs.toFixed(0)} ms CPU in PostgreSQL's backends; ` +
    `${inStatements.toFixed(0)} ms in statements (PostgreSQL only); load ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
if (args.checkpoint && args.engine === 'sqlite') {
  const { default: SQLite } = await import('better-sqlite3');
  const file = url.replace(/^sqlite:/, '');
  const wal = (await import('node:fs')).statSync(`${file}-wal`).size;
  const raw = new SQLite(file);
  const t0 = performance.now();
  const [result] = raw.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
  const passiveMs = performance.now() - t0;
  const t1 = performance.now();
  raw.pragma('wal_checkpoint(TRUNCATE)');
  const truncateMs = performance.now() - t1;
  raw.close();
  console.log(
    `WAL after the approval: ${(wal / 1e6).toFixed(1)} MB, ${result!.log} frames; a PASSIVE checkpoint of it: ${passiveMs.toFixed(0)} ms (${result!.checkpointed} frames), TRUNCATE after it: ${truncateMs.toFixed(0)} ms`,
  );
}
/** The serve process's main thread (its event loop): utime + stime of its task, seconds. */
const mainThreadSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
if (server) {
  const serverCpu0 = cpuSecondsOf([server.pid!]);
  const main0 = mainThreadSeconds(server.pid!);
  // The backends of this database only (other work on the machine has its own).
  const databasePids: number[] = [];
  if (args.engine === 'postgres') {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const rows = (await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows as Array<{
      pid: number;
    }>;
    databasePids.push(...rows.map((r) => Number(r.pid)).filter((pid) => !backendPids.includes(pid)));
    await admin.end();
  }
  const database0 = cpuSecondsOf(databasePids);
  const wallStart = performance.now();
  await new Promise<void>((resolve) => {
    allIn = resolve;
    if (received.size >= watchers) resolve();
  });
  const seconds = (performance.now() - wallStart) / 1000;
  const serverCpu = (cpuSecondsOf([server.pid!]) ?? 0) - (serverCpu0 ?? 0);
  const mainCpu = mainThreadSeconds(server.pid!) - main0;
  const databaseCpu = (cpuSecondsOf(databasePids) ?? 0) - (database0 ?? 0);
  console.log(
    `delivered ${received.size} in ${seconds.toFixed(1)} s after the approval's commit; serve: ${((serverCpu * 1e6) / watchers).toFixed(0)} µs CPU a delivery, ${((mainCpu * 1e6) / watchers).toFixed(0)} µs of it in the main thread` +
      (databasePids.length > 0 ? `, PostgreSQL: ${((databaseCpu * 1e6) / watchers).toFixed(0)} µs` : '') +
      `; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  clearInterval(searching);
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
}
receiver.close();
await close();
