/**
 * The keys this process has found in the database lately, for admission (D26): a key gets a
 * lane of its own only once a request has shown that it exists. A key that is merely well formed
 * proves nothing (its checksum is public, D16), and a lane per made-up key let one address hold
 * every turn (issue 27, finding 5); such requests now wait in their address's lane.
 *
 * Kept by the key's SHA-256 digest (the form the database keeps, never the key itself), bounded
 * in size and age; the oldest entry goes first. Pure bookkeeping: no I/O.
 */

export interface KnownKeysLimits {
  /** Entries kept; the least recently seen key is forgotten beyond it. */
  maxEntries: number;
  /** A key not seen for this long is forgotten (its next request waits in its address's lane once). */
  ttlMs: number;
}

export const DEFAULT_KNOWN_KEYS: KnownKeysLimits = { maxEntries: 10_000, ttlMs: 10 * 60 * 1000 };

export class KnownKeys {
  /** digest → [lane, last seen]; Map order is the order keys were last seen. */
  private readonly entries = new Map<string, { lane: string; seenAt: number }>();

  constructor(
    private readonly limits: KnownKeysLimits = DEFAULT_KNOWN_KEYS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The lane of a key found in the database (`key:<id>`), or null when it is not known here. */
  laneOf(digest: string): string | null {
    const entry = this.entries.get(digest);
    if (!entry) return null;
    if (this.now() - entry.seenAt > this.limits.ttlMs) {
      this.entries.delete(digest);
      return null;
    }
    return entry.lane;
  }

  /** Records a key that authentication found (revoked or not: a lane is no permission). */
  remember(digest: string, keyId: number): void {
    this.entries.delete(digest);
    this.entries.set(digest, { lane: `key:${keyId}`, seenAt: this.now() });
    if (this.entries.size > this.limits.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
