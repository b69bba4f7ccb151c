/**
 * D36's metrics: one prom-client registry per app, served in the Prometheus text format on the
 * separate metrics port only (metrics-server.ts), never on the main port. What the HTTP layer
 * measures is defined here; a feature adds its own with `metrics.counter(...)` /
 * `metrics.gauge(...)` / `metrics.histogram(...)`, each name under `risklookup_` (the background
 * work's: background-metrics.ts). A figure read from elsewhere when scraped sets `aggregator`
 * when the `--workers` primary must not sum it (one of the database's: 'max').
 *
 * A registry per app, not prom-client's global one: tests build many apps in one process, and
 * a process with `--workers` aggregates its workers' registries (serve.ts).
 */
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  /** Answers by route pattern (never a URL: no ids, no query), method and status. */
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly duration: Histogram<'route' | 'method'>;
  /** D26: requests shed with 503 `overloaded`. */
  readonly shed: Counter;
  /** D18, D20, D28: answers 429 because an allowance was used up. */
  readonly quotaRefusals: Counter<'route'>;
  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L>;
  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L>;
  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L>;
}

/** Seconds; a search is a few milliseconds, a queued or slow one up to the 5 s admission wait. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * What prom-client's process figures leave out (issue 28): the bytes of ArrayBuffers (typed
 * arrays' contents, outside V8's heap: the in-memory index of names holds most of its bytes there)
 * and the highest resident set the process has had (its start-up peak, the index's load).
 */
function registerMemoryGauges(registry: Registry) {
  new Gauge({
    name: 'risklookup_nodejs_array_buffers_bytes',
    help: "Bytes of ArrayBuffers and Buffers (outside V8's heap; part of external memory)",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().arrayBuffers);
    },
  });
  new Gauge({
    name: 'risklookup_process_max_resident_memory_bytes',
    help: 'The highest resident memory size of the process so far, in bytes',
    registers: [registry],
    collect() {
      this.set(process.resourceUsage().maxRSS * 1024);
    },
  });
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // The process's own figures (CPU, memory, event-loop lag) only for a serving process: tests skip them.
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry, prefix: 'risklookup_' });
    registerMemoryGauges(registry);
  }
  return {
    registry,
    requests: new Counter({
      name: 'risklookup_http_requests_total',
      help: 'HTTP answers by route, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    duration: new Histogram({
      name: 'risklookup_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by route and method',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    shed: new Counter({ name: 'risklookup_admission_shed_total', help: 'Requests answered 503 overloaded by admission (D26)', registers }),
    quotaRefusals: new Counter({
      name: 'risklookup_quota_refusals_total',
      help: 'Answers 429: a daily allowance used up (D18, D20, D28)',
      labelNames: ['route'],
      registers,
    }),
    counter: (config) => new Counter({ ...config, registers }),
    gauge: (config) => new Gauge({ ...config, registers }),
    histogram: (config) => new Histogram({ ...config, registers }),
  };
}
