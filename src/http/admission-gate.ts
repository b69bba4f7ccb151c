/**
 * Admission (D26): how many requests this process works on at once, and who waits for a turn.
 *
 * Each request belongs to a lane: its API key, or its client address when it has none. A
 * request gets a turn at once while the process has fewer than `maxActive` requests in work and
 * its lane fewer than `maxActivePerKey`; otherwise it waits in its lane's own queue, holding no
 * database connection, for at most `maxWaitMs`. Freed turns go to the waiting lanes in turn
 * (round robin), so one key's burst waits behind itself, never in front of another key; and a
 * waiting lane's turns are refilled only up to its share of `maxActivePerKey` among the lanes
 * in work (at least one), so that while another key is served a burst holds fewer turns, and
 * the event loop, which works on every request's next step in the order they become ready,
 * has less of the burst in front of each step of the other key's request. A
 * request that finds its lane's queue (or all queues together) full is shed at once: the caller
 * answers 503 `overloaded` before any authentication, quota or database work.
 *
 * Pure bookkeeping: no I/O, no Fastify; http/admission.hooks.ts puts it in front of every route.
 */

export interface AdmissionLimits {
  /** Requests in work at once in this process. */
  maxActive: number;
  /** Of those, at most this many from one key (or one address without a key). */
  maxActivePerKey: number;
  /** Requests waiting for a turn, all lanes together. */
  maxQueued: number;
  /** Requests waiting for a turn in one lane. */
  maxQueuedPerKey: number;
  /** Longest wait for a turn; a request still waiting then is shed. */
  maxWaitMs: number;
}

/** One request's place at the gate. */
export interface Ticket {
  /** true once the request may be worked on; false when it was shed (at once, or after waiting). */
  readonly admitted: boolean | Promise<boolean>;
  /** Gives the turn back, or leaves the queue (the client went away); safe to call more than once. */
  leave: () => void;
}

interface Waiter {
  resolve(admitted: boolean): void;
  timer: NodeJS.Timeout;
}

interface Lane {
  active: number;
  waiting: Waiter[];
}

const SHED: Ticket = { admitted: false, leave: () => {} };

export class AdmissionGate {
  private active = 0;
  private queued = 0;
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with waiting requests, in the order they are next served. */
  private readonly turnOrder = new Set<string>();

  constructor(readonly limits: AdmissionLimits) {}

  /** Figures for logs and tests. */
  stats() {
    return { active: this.active, queued: this.queued, lanes: this.lanes.size };
  }

  private admittedSoFar = 0;

  /** Requests given a turn since the process started (the delivery pace's sign of traffic). */
  get admitted(): number {
    return this.admittedSoFar;
  }

  enter(laneKey: string): Ticket {
    const lane = this.lanes.get(laneKey) ?? { active: 0, waiting: [] };
    const mayStart = lane.waiting.length === 0 && lane.active < this.limits.maxActivePerKey && this.active < this.limits.maxActive;
    if (mayStart) {
      this.lanes.set(laneKey, lane);
      return this.start(laneKey, lane);
    }
    if (lane.waiting.length >= this.limits.maxQueuedPerKey || this.queued >= this.limits.maxQueued) return SHED;
    this.lanes.set(laneKey, lane);
    return this.wait(laneKey, lane);
  }

  private start(laneKey: string, lane: Lane): Ticket {
    lane.active++;
    this.active++;
    this.admittedSoFar++;
    let done = false;
    return {
      admitted: true,
      leave: () => {
        if (done) return;
        done = true;
        lane.active--;
        this.active--;
        this.forgetIfIdle(laneKey, lane);
        this.dispatch();
      },
    };
  }

  private wait(laneKey: string, lane: Lane): Ticket {
    let turn: Ticket | null = null;
    let waiter!: Waiter;
    const admitted = new Promise<boolean>((resolve) => {
      waiter = {
        resolve: (ok) => {
          clearTimeout(waiter.timer);
          if (ok) turn = this.start(laneKey, lane);
          resolve(ok);
        },
        timer: setTimeout(() => this.dropWaiter(laneKey, lane, waiter), this.limits.maxWaitMs),
      };
    });
    lane.waiting.push(waiter);
    this.queued++;
    this.turnOrder.add(laneKey);
    return {
      admitted,
      leave: () => {
        if (turn) turn.leave();
        else this.dropWaiter(laneKey, lane, waiter);
      },
    };
  }

  /** Takes a waiter out of its queue (timed out, or its client left) and sheds it. */
  private dropWaiter(laneKey: string, lane: Lane, waiter: Waiter) {
    const at = lane.waiting.indexOf(waiter);
    if (at < 0) return;
    lane.waiting.splice(at, 1);
    this.queued--;
    if (lane.waiting.length === 0) this.turnOrder.delete(laneKey);
    this.forgetIfIdle(laneKey, lane);
    waiter.resolve(false);
  }

  /** Hands free turns to waiting lanes, one lane after another. */
  private dispatch() {
    while (this.active < this.limits.maxActive && this.queued > 0) {
      const next = this.nextLane();
      if (!next) return;
      const [laneKey, lane] = next;
      const waiter = lane.waiting.shift()!;
      this.queued--;
      // To the back of the line: the other waiting lanes are served first.
      this.turnOrder.delete(laneKey);
      if (lane.waiting.length > 0) this.turnOrder.add(laneKey);
      waiter.resolve(true);
    }
  }

  private nextLane(): [string, Lane] | null {
    const share = this.shareOfWaitingLane();
    for (const laneKey of this.turnOrder) {
      const lane = this.lanes.get(laneKey)!;
      if (lane.active < Math.max(1, Math.floor(share(lane)))) return [laneKey, lane];
    }
    return null;
  }

  /** A waiting lane's share of `maxActivePerKey`: split between the lanes in work, itself counted. */
  private shareOfWaitingLane(): (lane: Lane) => number {
    let inWork = 0;
    for (const lane of this.lanes.values()) if (lane.active > 0) inWork++;
    return (lane) => this.limits.maxActivePerKey / (inWork + (lane.active > 0 ? 0 : 1));
  }

  private forgetIfIdle(laneKey: string, lane: Lane) {
    if (lane.active === 0 && lane.waiting.length === 0) this.lanes.delete(laneKey);
  }
}
