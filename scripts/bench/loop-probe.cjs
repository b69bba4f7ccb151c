// Preloaded into a bench's server (`NODE_OPTIONS=--require …/loop-probe.cjs`, any build) when
// LOOP_PROBE_FILE is set: every 250 ms one JSON line with the event loop's delay in that interval
// (perf_hooks.monitorEventLoopDelay at 1 ms: p50, p99, max, ms), its utilisation and the process's
// CPU ms. watchers.ts sums the lines of each window (before the approval, while delivering).
'use strict';
const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const { monitorEventLoopDelay, performance } = require('node:perf_hooks');
  const fs = require('node:fs');
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let elu = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  const fd = fs.openSync(file, 'a');
  setInterval(() => {
    const e = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const c = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const line = {
      t: Date.now(),
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      elu: Math.round(e.utilization * 1000) / 1000,
      cpuMs: Math.round((c.user + c.system) / 1000),
    };
    fs.writeSync(fd, JSON.stringify(line) + '\n');
    histogram.reset();
  }, 250).unref();
}
