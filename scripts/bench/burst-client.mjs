// Fires N requests at once, each on its own connection, spread over one or more servers, and
// prints one JSON line: how many got each status, how many 503s were `overloaded` and carried
// Retry-After, and the latencies. A separate process, so that the burst's own work does not
// slow the process that measures (tests and `npm run bench:burst`).
//
//   node scripts/bench/burst-client.mjs --urls http://127.0.0.1:1,http://127.0.0.1:2 --path '/api/v1/search.php?q=x' --key K --count 600
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    urls: { type: 'string' },
    path: { type: 'string' },
    key: { type: 'string', default: '' },
    count: { type: 'string', default: '100' },
    // Stop waiting for answers after this long (a bounded run, whatever the server does).
    'timeout-ms': { type: 'string', default: '60000' },
  },
});
const urls = args.urls.split(',');
const count = Number(args.count);
const agent = new http.Agent({ keepAlive: false, maxSockets: count });
const headers = args.key ? { 'x-api-key': args.key } : {};

function once(url) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        let reason = null;
        try {
          reason = JSON.parse(body).reason ?? null;
        } catch {
          // not a JSON body: no reason
        }
        resolve({ status: res.statusCode, reason, retryAfter: res.headers['retry-after'] ?? null, ms: performance.now() - started });
      });
    });
    req.setTimeout(Number(args['timeout-ms']), () => req.destroy(new Error('client timeout')));
    req.on('error', (error) => resolve({ status: 0, reason: error.code ?? error.message, retryAfter: null, ms: performance.now() - started }));
  });
}

const started = performance.now();
const answers = await Promise.all(Array.from({ length: count }, (_, i) => once(urls[i % urls.length] + args.path)));
const seconds = (performance.now() - started) / 1000;
const statuses = {};
const reasons = {};
for (const a of answers) {
  statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  if (a.status >= 300 || a.status === 0) reasons[`${a.status} ${a.reason}`] = (reasons[`${a.status} ${a.reason}`] ?? 0) + 1;
}
const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
const at = (p) => Math.round(ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]);
console.log(
  JSON.stringify({
    count,
    seconds,
    statuses,
    reasons,
    unavailableWithoutRetryAfter: answers.filter((a) => a.status === 503 && !a.retryAfter).length,
    p50: at(50),
    p99: at(99),
    max: Math.round(ms.at(-1)),
  }),
);
agent.destroy();
