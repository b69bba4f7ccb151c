// Searches at a steady pace (an open loop): the requests due are sent at every tick of a 1 ms timer
// (this machine's timers fire every ~4 ms: a few at once), each on a free connection of its own,
// so a request never waits for another's answer and a server that stalls is charged for every
// request sent meanwhile (no coordinated omission). Each is timed from when it went out, not from
// when it was due: the timer's own lateness is the client's, not the server's. autocannon's
// `overallRate` sends each second's quota at once at the start of the second, a burst that is its
// own queue. Used by watchers.ts
// (`--search-rate`). argv: url, key, rate (requests a second), seconds (0: until stdin closes).
// Prints `ready`, starts at the first line on stdin (or at once with a duration), then prints
// autocannon-like JSON: requests { average, total }, latency { p50, p99, max }, non2xx, errors,
// ranSeconds, `retried` (reused sockets reset, sent again), and what failed: `failures` counts each non-2xx status and each socket error's code
// (a bench that stops on "1 errors" should say which). With PACED_TIMELINE=file it also writes every request's send time (ms from the start)
// and latency, one "t latency" line each: when in the run the slow ones fell.
import { writeFileSync } from 'node:fs';
import http from 'node:http';

const [url, key, rateArg, secondsArg] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg ?? 0);
if (!(rate > 0)) throw new Error(`paced-client: a rate in requests a second is needed, got '${rateArg}'`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const latencies = [];
const timeline = process.env.PACED_TIMELINE ? [] : null;
let non2xx = 0;
let errors = 0;
/** Searches sent again after a reused keep-alive socket reset (see one()). */
let retried = 0;
/** Non-2xx statuses and socket errors' codes, counted. */
const failures = {};
const count = (what) => (failures[what] = (failures[what] ?? 0) + 1);
let inFlight = 0;
let stopped = false;
let started = 0;
let sent = 0;

/**
 * One search, timed from `sentAt` (a retry keeps the first send's time, so it hides no latency).
 * A keep-alive socket the server closed just as it was reused resets before any answer: that GET
 * is sent again once on a new socket (`reusedSocket`, Node's documented way), not counted as the
 * server's error.
 */
function one(sentAt = performance.now(), again = false) {
  if (!again) inFlight++;
  const req = http.get(url, { agent, headers: { 'x-api-key': key } }, (res) => {
    res.resume();
    res.on('end', () => {
      inFlight--;
      if (res.statusCode < 200 || res.statusCode > 299) {
        non2xx++;
        count(`HTTP ${res.statusCode}`);
      }
      latencies.push(performance.now() - sentAt);
      timeline?.push(`${(sentAt - started).toFixed(1)} ${(performance.now() - sentAt).toFixed(2)}`);
      finishIfDone();
    });
  });
  req.on('error', (error) => {
    if (!again && req.reusedSocket && error.code === 'ECONNRESET') {
      retried++;
      one(sentAt, true);
      return;
    }
    inFlight--;
    errors++;
    count(error.code ?? error.message);
    finishIfDone();
  });
}

function tick() {
  if (stopped) return;
  const now = performance.now();
  const due = Math.floor(((now - started) / 1000) * rate);
  for (; sent < due; sent++) one();
  if (seconds > 0 && now - started >= seconds * 1000) stop();
  else setTimeout(tick, 1);
}

let endedAt = 0;
function stop() {
  if (stopped) return;
  stopped = true;
  endedAt = performance.now();
  finishIfDone();
}

function finishIfDone() {
  if (!stopped || inFlight > 0) return;
  const ran = (endedAt - started) / 1000;
  if (timeline) writeFileSync(process.env.PACED_TIMELINE, timeline.join('\n') + '\n');
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q) => (sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10);
  process.stdout.write(
    JSON.stringify({
      requests: { average: sorted.length / ran, total: sorted.length },
      latency: { p50: at(0.5), p99: at(0.99), max: at(1) },
      non2xx,
      errors,
      failures,
      retried,
      ranSeconds: ran,
    }),
  );
  agent.destroy();
}

const go = () => {
  if (started) return;
  started = performance.now();
  tick();
};
if (seconds > 0) go();
else {
  process.stdin.on('data', go);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdout.write('ready\n');
}
