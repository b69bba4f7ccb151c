/**
 * Issue 28: how far V8 lets its old space grow past what a full collection left alive before it
 * collects again. V8's own factor (up to 4 × the live size for a heap limit of 2 GB or more) let a
 * serving process's old space fill with requests' promoted garbage to 3–4 × its live 50 MB
 * between collections: the process's RSS after fresh traffic at 10^6 companies was 383 MB where
 * a full collection brought it back near 240 (docs/benchmarks.md, "Serving memory").
 *
 * V8 reads the factor at every full collection's end (`--heap-growing-percent`), so it can be
 * set once the process runs, unlike the heap's size flags, which must come before the heap exists.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * @param percent the old space may grow this much past its live size before the next full
 *   collection (V8 still adds its minimum step and the new space's size); 0 leaves V8 its own
 *   factor, or what `node --heap-growing-percent` gave it.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Issue 28: V8's new space (its young generation: two semi-spaces, where every object starts)
 * begins at 1 MB a semi-space and doubles, up to 16 MB, whenever more than its size has survived
 * scavenges since it last grew; a serving process's start-up (migrations, the index of names)
 * takes it to the maximum, and it stays there: 32 MB resident, and 16 MB more old space allowed
 * before a full collection (V8 adds the new space's capacity to the old space's limit). At 10^6
 * companies that was ~40 MB of the serving peak (docs/benchmarks.md, "branch rsspeak28"); kept at
 * its start size (1 MB a semi-space) it cost ~1.9 × the CPU of a fresh request on SQLite
 * (scavenged several times a request); grown to 8 MB and no further (the default), the peak at
 * 10^6 fell 25–30 MB on both engines at the same CPU (docs/benchmarks.md, "branch rss250").
 *
 * `--max-semi-space-size` is read only when the heap is made, before any of our code runs;
 * `--semi-space-growth-factor` is read at every growth (new size = factor × size, at most 16 MB),
 * so `serve` holds the new space with a factor of 1 while it starts (loading the server's code
 * alone doubles it three times) and, once it listens, lets it grow to a chosen size and no further:
 * after every collection (a 'gc' performance entry) it sets the factor that takes the semi-space
 * straight to that size from where it is, and 1 once it is there. Two catches:
 * - V8 sets the factor back to 2 (its least) whenever a heap is made, which a worker thread's
 *   start does (SQLite's checkpoints, the webhooks' sending thread): so the factor is set again
 *   after every collection and when a thread comes online, not only when it changes;
 * - the entries arrive after the collection, so a growth could come between: one growth takes the
 *   semi-space to the chosen size in one step, and the next needs as much again to have survived
 *   (more than the new size: a serving process's scavenges keep a small part of it).
 */

/** V8's own largest new space on 64 bits (2 × `--max-semi-space-size`, 16 MB): no limit to keep. */
export const V8_NEW_SPACE_MB = 32;

const MB = 2 ** 20;

/** One semi-space's capacity now, MB: V8's usable capacity (a little under it: pages' headers) rounded up to its power of two. */
export function semiSpaceMb(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (!space) return 0;
  return 2 ** Math.ceil(Math.log2(Math.max(0.5, (space.space_used_size + space.space_available_size) / MB)));
}

/** The semi-space's largest size now allowed, MB (0: V8's own growth, nothing held). */
let semiLimitMb = 0;
/** What the process may reach once it serves. */
let semiTargetMb = 0;
let observer: PerformanceObserver | null = null;

function hold(): void {
  const semi = semiSpaceMb();
  // A factor of 1 is set again every time (a worker thread's start makes it 2); a larger one
  // takes the semi-space to the limit in one growth.
  const factor = semi <= 0 || semi >= semiLimitMb ? 1 : Math.max(1, Math.floor(semiLimitMb / semi));
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/**
 * Before the server's code loads: holds V8's new space at its size now, until `serveNewSpace`
 * lets it grow to `maxMb` (both semi-spaces); V8_NEW_SPACE_MB or more leaves V8 its own growth.
 */
export function holdNewSpace(maxMb: number): void {
  if (maxMb >= V8_NEW_SPACE_MB) return;
  semiTargetMb = maxMb / 2;
  semiLimitMb = Math.min(semiTargetMb, semiSpaceMb());
  hold();
  if (observer) return;
  observer = new PerformanceObserver(hold);
  observer.observe({ entryTypes: ['gc'] });
  process.on('worker', onWorker);
}

/** A worker thread's heap is made once it runs: the factor again then. */
function onWorker(worker: Worker): void {
  hold();
  worker.once('online', hold);
}

/** Once the server listens (its threads started, its code loaded): the new space may grow to what `holdNewSpace` was given. */
export function serveNewSpace(): void {
  if (!observer) return;
  semiLimitMb = semiTargetMb;
  hold();
}

/** Tests: V8's own growth again. */
export function releaseNewSpace(): void {
  observer?.disconnect();
  observer = null;
  process.off('worker', onWorker);
  semiLimitMb = semiTargetMb = 0;
  setFlagsFromString('--semi-space-growth-factor=2');
}
