/**
 * How fast the delivery worker starts deliveries while this process serves requests (issue 30:
 * searches' p99 unchanged while 10,000 deliveries go out). The one place for the rule.
 *
 * A delivery costs the serving process CPU (its claim, signing, TLS, its record: ~0.6 ms), and on
 * SQLite its statements take the one connection's turns between the searches' statements.
 * Unpaced, the worker delivers as fast as the process allows (~1,000 a second to a local
 * receiver) and the searches' steps wait behind the deliveries' in the event loop.
 *
 * The rule: while the admission gate (D26) has any request in work or waiting for a turn, or
 * gave one a turn within the last second (SERVING_QUIET_MS), the worker starts at most `ratePerSecond` deliveries a second, at most `burst` at once (a token
 * bucket), and only whole bursts (or all the room it has, when that is less): one claim of 16
 * every 64 ms rather than one of 4 every 16 ms, so that the database's writer is taken a few
 * times a second rather than a hundred (issue 30, second pass); with no request for a second it starts as many as it has slots for.
 * The bucket holds two bursts: the worker asks again when the next burst is due, and on a busy
 * machine its timer fires late; with room for one burst only, the tokens of that delay were lost,
 * and 250 a second became ~200 (issue 30, third pass). Deliveries
 * in flight are not counted: a receiver that answers slowly holds a slot and a socket, not the CPU,
 * so it does not take the searches' share. A rate of 0 turns the rule off.
 *
 * Pure: the caller gives the time and the load.
 */

/** Requests of this process at the admission gate (AdmissionGate.stats()). */
export interface RequestLoad {
  readonly active: number;
  readonly queued: number;
  /** Requests given a turn since the process started. */
  readonly admitted: number;
}

export interface PaceSettings {
  /** Deliveries started a second while requests are in work or waiting; 0: no limit. */
  readonly ratePerSecond: number;
  /** This many started at once (one claim) while requests are in work or waiting: never more, and fewer only when the room is less. */
  readonly burst: number;
}

export const DEFAULT_PACE: PaceSettings = { ratePerSecond: 250, burst: 16 };

/**
 * The load a process with no API reports (`serve --background only`): it cannot see the API
 * processes' requests, so it paces as if they were always serving. Where it has cores of its own,
 * RISKLOOKUP_WEBHOOK_RATE_WHILE_SERVING may raise its rate (0: no limit; docs/operations.md).
 */
export const ALWAYS_SERVING = (): RequestLoad => ({ active: 1, queued: 0, admitted: 0 });

/**
 * The process counts as serving for this long after it last saw a request: between two searches
 * the gate is often empty for a moment, and a worker that took that moment for full speed would
 * not yield at all.
 */
export const SERVING_QUIET_MS = 1000;

/** How many deliveries may start now; when none, try again in `retryInMs`. */
export interface PaceAnswer {
  readonly limit: number;
  readonly retryInMs: number;
}

export type DeliveryPacer = ((wanted: number) => PaceAnswer) & {
  /** Whether the process counted as serving at the last answer (the worker then gathers its records, delivery-worker.ts). */
  serving(): boolean;
};

export function createDeliveryPacer(settings: PaceSettings, load: () => RequestLoad, now: () => number): DeliveryPacer {
  const burst = Math.max(1, settings.burst);
  /** A late look (a timer fired late) loses nothing up to one burst's time. */
  const capacity = 2 * burst;
  let tokens = burst;
  let at = now();
  let lastAdmitted = load().admitted;
  let servingUntil = -Infinity;
  let serving = false;
  const pace = (wanted: number): PaceAnswer => {
    if (settings.ratePerSecond <= 0) return { limit: wanted, retryInMs: 0 };
    const t = now();
    tokens = Math.min(capacity, tokens + ((t - at) * settings.ratePerSecond) / 1000);
    at = t;
    const { active, queued, admitted } = load();
    if (active > 0 || queued > 0 || admitted !== lastAdmitted) servingUntil = t + SERVING_QUIET_MS;
    lastAdmitted = admitted;
    serving = t < servingUntil;
    if (!serving) {
      tokens = burst;
      return { limit: wanted, retryInMs: 0 };
    }
    // A whole burst, or all the room there is: never a claim of one or two between searches.
    const whole = Math.min(wanted, burst);
    if (tokens >= whole) {
      tokens -= whole;
      return { limit: whole, retryInMs: 0 };
    }
    return { limit: 0, retryInMs: Math.max(1, Math.ceil(((whole - tokens) * 1000) / settings.ratePerSecond)) };
  };
  return Object.assign(pace, { serving: () => serving });
}
