/** Where the service reads the time. Injected so that the quota day boundary (D19) is testable. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that stays where it is put; for tests and for the demo data generator. */
export function fixedClock(startMs: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let current = startMs;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
