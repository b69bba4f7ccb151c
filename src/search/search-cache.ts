/**
 * Answers of recent searches, kept while the searchable data stays the same. Every lookup first
 * reads the data version (one indexed row, bumped by any change to companies or reports, in any
 * process: migration 0003), so an answer is never older than the last committed change — a
 * report withdrawn from the CLI is gone on the next request, as without the cache.
 *
 * Why it is exact: an answer is stored under the version read *before* it was computed. A
 * change committed in between makes the stored answer newer than its version, never older,
 * and every later request reads the new version and misses.
 */
import type { Db } from '../db/types.ts';
import { readDataVersion } from '../db/data-version.repository.ts';

export class SearchCache<T> {
  private version = -1;
  private readonly entries = new Map<string, T>();

  /** @param maxEntries 0 turns the cache off (every search runs). */
  constructor(private readonly maxEntries: number) {}

  /**
   * @param knownVersion the data version when the caller has read it since its request arrived
   *   (with the key, keys.repository.ts): the same guarantee, one statement fewer.
   */
  async get(db: Db, key: string, compute: (version?: number) => Promise<T>, knownVersion?: number): Promise<T> {
    if (this.maxEntries === 0) return compute();
    const version = knownVersion ?? (await readDataVersion(db));
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Least recently used goes first: re-insert at the end.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    // The version read since the request arrived: the computation may rely on it too.
    const value = await compute(version);
    // Another request may have moved the version while this one computed: store only under
    // the version this answer was read at (see above).
    if (this.version === version) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, value);
    }
    return value;
  }
}
