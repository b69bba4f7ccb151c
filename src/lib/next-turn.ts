/**
 * Lets the event loop take a turn: a macrotask (setImmediate), so timers, I/O callbacks and signal
 * handlers run before the caller goes on. A long loop of writes must await it between batches:
 * better-sqlite3 is synchronous, so Kysely's awaits on it resolve as microtasks and a loop that
 * only awaits queries never lets a request, a timer or SIGTERM in (issue: the first retention run
 * at 10^6 held HTTP answers for minutes).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Between two batches of a long job: lets the event loop take its turn, then stops if the job is to stop (a drain). */
export async function betweenBatches(signal?: AbortSignal): Promise<void> {
  await nextTurn();
  signal?.throwIfAborted();
}
