#!/usr/bin/env node
// D36 for real: Caddy (Debian's `caddy` package) in front of two `risklookup serve` processes
// with the sample configuration of docs/operations.md, on this machine's loopback only. Shows
// that the proxy routes to both, takes a draining process out (its /healthz answers 503 on
// SIGTERM) without a failed request, and does not expose /metrics. Prints one JSON summary;
// exit status 0 when all of that held, 1 otherwise, 2 when caddy is not installed.
//
//   npm run build && node scripts/proxy-trial.mjs
//
// Bounded: a few hundred requests over about 15 seconds, to 127.0.0.1 only.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/risklookup.js', import.meta.url));
/** How long a stopping server keeps serving with /healthz at 503 (`--drain-delay`). */
const DRAIN_DELAY_MS = 3000;
const HEALTH_INTERVAL = '300ms';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The Caddyfile of docs/operations.md, with this trial's ports and a local certificate. */
export function caddyfile({ port, upstreams, dataDir }) {
  return `{
	admin off
	skip_install_trust
	storage file_system ${dataDir}
	auto_https disable_redirects
}

https://localhost:${port} {
	tls internal
	# Never forward the metrics port's path (it is not on these ports anyway).
	respond /metrics 404
	reverse_proxy ${upstreams.join(' ')} {
		lb_policy round_robin
		lb_try_duration 5s
		lb_try_interval 100ms
		health_uri /healthz
		health_interval ${HEALTH_INTERVAL}
		health_timeout 1s
		health_status 200
		fail_duration 10s
		header_up X-Forwarded-Proto https
	}
}
`;
}

/** D35: both processes of one installation share one key ring. */
const KEY_RING = `trial:rlsk1_${randomBytes(32).toString('base64url')}`;

async function startServe(dbUrl, metricsPort) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--db',
      dbUrl,
      '--port',
      '0',
      '--trust-proxy',
      '127.0.0.1',
      '--drain-delay',
      String(DRAIN_DELAY_MS),
      '--metrics-port',
      String(metricsPort),
      '--log-level',
      'warn',
      '--anon-daily-limit',
      '1000000',
    ],
    { env: { ...process.env, RISKLOOKUP_SECRET_KEYS: KEY_RING, RISKLOOKUP_DRAIN_GRACE_MS: '300' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  const started = Date.now();
  while (!/listening on http:\/\/127\.0\.0\.1:(\d+)/.test(out)) {
    if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`serve did not start: ${out}`);
    await sleep(50);
  }
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)[1]);
  return { child, port, metrics: `http://127.0.0.1:${metricsPort}/metrics`, exited, output: () => out };
}

/** One GET through the proxy (its certificate is Caddy's own local CA: not checked here). */
function viaProxy(port, path) {
  return new Promise((resolve) => {
    const request = https.get(
      { host: '127.0.0.1', servername: 'localhost', port, path, headers: { host: `localhost:${port}` }, rejectUnauthorized: false },
      (response) => {
        let body = '';
        response.on('data', (d) => (body += d));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.setTimeout(10_000, () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve({ status: 0, body: String(error.message) }));
  });
}

async function countriesServedBy(metricsUrl) {
  try {
    const text = await (await fetch(metricsUrl)).text();
    const line = /risklookup_http_requests_total\{route="\/api\/v1\/countries",method="GET",status="200"\} (\d+)/.exec(text);
    return line ? Number(line[1]) : 0;
  } catch {
    return null;
  }
}

async function main() {
  if (spawnSync('caddy', ['version']).status !== 0) {
    console.log(JSON.stringify({ ok: false, problem: 'caddy is not installed (apt-get install -y caddy)' }));
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-proxy-'));
  const dbUrl = `sqlite:${join(dir, 'trial.db')}`;
  const processes = [];
  const summary = { ok: false };
  try {
    const [a, b] = [await startServe(dbUrl, await freePort()), await startServe(dbUrl, await freePort())];
    processes.push(a.child, b.child);
    const port = await freePort();
    const config = join(dir, 'Caddyfile');
    writeFileSync(config, caddyfile({ port, upstreams: [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`], dataDir: join(dir, 'caddy') }));
    const caddy = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let caddyLog = '';
    caddy.stderr.on('data', (d) => (caddyLog += d));
    processes.push(caddy);
    const started = Date.now();
    while ((await viaProxy(port, '/api/v1/countries')).status !== 200) {
      if (caddy.exitCode !== null || Date.now() - started > 20_000) throw new Error(`caddy did not serve: ${caddyLog.slice(-2000)}`);
      await sleep(100);
    }

    // 1. Round robin: both processes answer.
    for (let i = 0; i < 20; i++) await viaProxy(port, '/api/v1/countries');
    summary.servedBy = { a: await countriesServedBy(a.metrics), b: await countriesServedBy(b.metrics) };

    // 2. Under steady load, A is stopped: its /healthz says 503, Caddy takes it out, A stops.
    const statuses = {};
    let running = true;
    const loops = Array.from({ length: 4 }, async () => {
      while (running) {
        const { status } = await viaProxy(port, '/api/v1/countries');
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    });
    await sleep(500);
    a.child.kill('SIGTERM');
    await sleep(400);
    summary.drainingHealthz =
      (await fetch(`http://127.0.0.1:${a.port}/healthz`)
        .then((r) => r.status)
        .catch(() => 0)) || null;
    summary.aExit = await a.exited;
    await sleep(1500);
    running = false;
    await Promise.all(loops);
    summary.duringDrain = statuses;
    summary.bServedAfter = await countriesServedBy(b.metrics);

    // 3. /metrics is not reachable through the proxy.
    summary.metricsViaProxy = (await viaProxy(port, '/metrics')).status;

    const failed = Object.entries(statuses).filter(([s]) => s !== '200');
    summary.ok =
      summary.servedBy.a > 0 &&
      summary.servedBy.b > 0 &&
      summary.drainingHealthz === 503 &&
      summary.aExit === 0 &&
      failed.length === 0 &&
      (statuses[200] ?? 0) > 20 &&
      summary.metricsViaProxy === 404;
    if (!summary.ok) summary.caddyLog = caddyLog.slice(-3000);
  } catch (error) {
    summary.problem = String(error?.stack ?? error);
  } finally {
    for (const child of processes) if (child.exitCode === null) child.kill('SIGTERM');
    await sleep(500);
    for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(summary));
  return summary.ok ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
