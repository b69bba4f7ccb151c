// The load of the fresh-query scenarios (fresh-scenarios.ts), in a process of its own: autocannon
// sends each request with the next path of its list, so that no path goes twice. Reads a JSON
// spec (file named by argv[2]): { url, key, connections, seconds, shared: [paths] } or
// { ..., perConnection: [[paths], ...] }. Prints autocannon's result with `built` (paths taken,
// one ahead per connection), `distinct` (of those), `exhausted` (a list ran out: the run ended
// before its time) and `statuses` (answers by HTTP status).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
if (spec.perConnection) spec.connections = (spec.perConnection = spec.perConnection.filter((l) => l.length > 0)).length;
const built = [];
let shared = 0;
let clients = 0;
let exhausted = false;

function take(list, index) {
  const path = list[index];
  if (path !== undefined) {
    built.push(path);
    return path;
  }
  // Out of fresh paths: autocannon stops at the lists' length (maxOverallRequests,
  // maxConnectionRequests), but builds one request ahead per connection; that one is never sent.
  exhausted = true;
  return list[list.length - 1];
}

autocannon(
  {
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    headers: { 'x-api-key': spec.key },
    requests: [{ method: 'GET' }],
    ...(spec.perConnection ? { maxConnectionRequests: Math.min(...spec.perConnection.map((l) => l.length)) } : { maxOverallRequests: spec.shared.length }),
    setupClient(client) {
      const mine = spec.perConnection ? spec.perConnection[clients++] : null;
      let i = 0;
      client.setRequests([{ method: 'GET', setupRequest: (req) => ({ ...req, path: mine ? take(mine, i++) : take(spec.shared, shared++) }) }]);
    },
  },
  (error, result) => {
    if (error) throw error;
    const statuses = {};
    for (const [code, n] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = n.count;
    process.stdout.write(JSON.stringify({ ...result, statuses, built: built.length, distinct: new Set(built).size, exhausted }));
  },
);
