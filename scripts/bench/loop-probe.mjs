// Preloaded into a bench's server (`NODE_OPTIONS=--import …/loop-probe.mjs`, any build) when
// LOOP_PROBE_FILE is set: every 250 ms one JSON line with the event loop's delay in that interval
// (perf_hooks.monitorEventLoopDelay at 1 ms: p50, p99, max, ms), its utilisation, the process's
// CPU ms and its main thread's. watchers.ts sums the lines of each window (before the approval, while delivering).
import fs from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LOOP_PROBE_FILE;
// NODE_OPTIONS' --import runs in every worker thread too (the sending thread, SQLite's
// checkpoints): only the thread that serves requests writes lines.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let elu = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  const fd = fs.openSync(file, 'a');
  // The main thread's own CPU (utime + stime of its task, clock ticks of 10 ms): the event loop's
  // share, without a worker thread's (Linux).
  const mainTicks = () => {
    try {
      const f = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(f[11]) + Number(f[12]);
    } catch {
      return NaN;
    }
  };
  let main = mainTicks();
  setInterval(() => {
    const e = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const c = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const mainNow = mainTicks();
    const mainCpuMs = (mainNow - main) * 10;
    main = mainNow;
    const line = {
      t: Date.now(),
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      elu: Math.round(e.utilization * 1000) / 1000,
      cpuMs: Math.round((c.user + c.system) / 1000),
      mainCpuMs,
    };
    fs.writeSync(fd, JSON.stringify(line) + '\n');
    histogram.reset();
  }, 250).unref();
}
