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

/**
 * Issue 28: V8's new space (its young generation: two semi-spaces, where every object starts)
 * begins at 1 MB a semi-space and doubles, up to 16 MB, whenever more than its size has survived
 * scavenges since it last grew; a serving process's start-up (migrations, the index of names)
 * takes it to the maximum, and it stays there: 32 MB resident, and 16 MB more old space allowed
 * before a full collection (V8 adds the new space's capacity to the old space's limit). At 10^6
 * companies that was ~40 MB of the serving peak (docs/benchmarks.md, "branch rsspeak28").
 *
 * `--max-semi-space-size` is read only when the heap is made, before any of our code runs;
 * `--semi-space-growth-factor` is read at every growth, so setting it to 1 before the process
 * loads the server's code (loading it alone doubles the new space three times) keeps the new
 * space at its start size. `serve` calls it before it imports the server.
 *
 * @param grow true leaves V8 its own growth (factor 2, or what `node --semi-space-growth-factor` gave it).
 */
export function applyNewSpaceGrowth(grow: boolean): void {
  if (!grow) setFlagsFromString('--semi-space-growth-factor=1');
}
