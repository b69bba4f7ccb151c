// `node scripts/bench/memory-sampler.mjs PID METRICS_PORT OUT.jsonl [EVERY_MS]` (issue 28's serving
// RSS): every EVERY_MS (default 100) appends one line of the process's memory to OUT.jsonl, MB:
// VmRSS, smaps_rollup's anonymous resident bytes, its threads, and from `serve --metrics-port`
// (0: none) V8's committed spaces, heap used, external memory and ArrayBuffers. At each new
// high of RSS it keeps /proc/PID/smaps in OUT.jsonl.smaps (where the peak's pages are). Ends with
// the process, or on SIGTERM. A process of its own: the bench's loop is blocked while a client runs.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const [pid, port, out, every = '100'] = process.argv.slice(2);
const kb = (text, name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1]) / 1024;
const mb = (text, pattern) => {
  const m = pattern.exec(text);
  return m ? Math.round((Number(m[1]) / 2 ** 20) * 10) / 10 : null;
};
const SPACES = ['new', 'old', 'code', 'map', 'large_object', 'new_large_object'];
let highest = 0;
let busy = false;

async function sample() {
  if (busy) return;
  busy = true;
  try {
    let status, rollup;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
      rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    } catch {
      process.exit(0);
    }
    const row = { t: Date.now(), rss: Math.round(kb(status, 'VmRSS')), anon: Math.round(kb(rollup, 'Anonymous')), threads: kb(status, 'Threads') * 1024 };
    if (port !== '0') {
      const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => '',
      );
      for (const s of SPACES) row[s] = mb(text, new RegExp(`^risklookup_nodejs_heap_space_size_total_bytes\\{space="${s}"\\} (\\S+)`, 'm'));
      row.heapTotal = mb(text, /^risklookup_nodejs_heap_size_total_bytes (\S+)/m);
      row.heapUsed = mb(text, /^risklookup_nodejs_heap_size_used_bytes (\S+)/m);
      row.external = mb(text, /^risklookup_nodejs_external_memory_bytes (\S+)/m);
      row.arrayBuffers = mb(text, /^risklookup_nodejs_array_buffers_bytes (\S+)/m);
    }
    appendFileSync(out, `${JSON.stringify(row)}\n`);
    if (row.rss > highest) {
      highest = row.rss;
      try {
        writeFileSync(`${out}.smaps`, readFileSync(`/proc/${pid}/smaps`, 'utf8'));
      } catch {
        // Gone meanwhile.
      }
    }
  } finally {
    busy = false;
  }
}
setInterval(sample, Number(every));
process.on('SIGTERM', () => process.exit(0));
