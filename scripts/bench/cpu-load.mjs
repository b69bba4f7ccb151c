// A plain CPU load for the watchers scenario's control run (`--control-load MS`): busy MS ms in
// every 10 ms for SECONDS seconds, no I/O, nothing shared with the server but the machine's cores.
// Prints its own CPU time at exit as JSON: {"cpuMs": …, "seconds": …}.
//   node scripts/bench/cpu-load.mjs MS SECONDS
const [busyMs, seconds] = process.argv.slice(2).map(Number);
if (!(busyMs > 0 && busyMs < 10 && seconds > 0)) throw new Error('usage: cpu-load.mjs MS(0 < MS < 10) SECONDS');
const started = performance.now();
const end = started + seconds * 1000;
function tick() {
  const t = performance.now();
  while (performance.now() - t < busyMs);
  if (performance.now() < end) setTimeout(tick, 10 - busyMs);
  else {
    const { user, system } = process.cpuUsage();
    process.stdout.write(JSON.stringify({ cpuMs: (user + system) / 1000, seconds: (performance.now() - started) / 1000 }) + '\n');
  }
}
tick();
