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
import { setFlagsFromString } from 'node:v8';

/**
 * @param percent the old space may grow this much past its live size before the next full
 *   collection (V8 still adds its minimum step and the new space's size); 0 leaves V8 its own
 *   factor, or what `node --heap-growing-percent` gave it.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
