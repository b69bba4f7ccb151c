/**
 * The key look-ups of one turn of the event loop in one statement (issue 28, branch taxhit28).
 * On PostgreSQL every API request's key, member and day's use were one round trip each (the
 * node CPU of a cached hit there was 3 × SQLite's); the requests that arrive in one turn (a
 * member's connections answered by one group commit come back together) now share one.
 *
 * Nothing outlives its turn: on PostgreSQL each request's look-up runs after the request
 * arrived, so a key revoked or regenerated, a member suspended or a limit changed by any process
 * is seen by the very next request of every process, as before (D17, D18 amended), and the day's
 * use and the data version are as fresh as they were.
 *
 * On SQLite, in process, a look-up is no round trip, but it was a cached hit's costliest
 * statement (~16 µs of ~160 in the server, three joins and a sub-select: docs/benchmarks.md). The
 * first request of a turn that asks for a key reads it at once; the others of that turn asking
 * for the same key and day share that read (a member's connections come back together after
 * their group commit, and arrive together again). The turn ends at the next `setImmediate`,
 * before the group commit of its answers (scheduled later, charge-batch.ts). So a change
 * committed in the middle of a turn (a revocation by the console, a unit taken) is seen from
 * the next turn on — milliseconds, within D17's 5 seconds; the units themselves are still
 * taken by the exact increments of the group commit (D18), whatever a look-up read. A failed
 * read fails the requests of its turn that shared it, and the next turn reads again.
 */
import { PostgresAdapter } from 'kysely';
import type { Db } from '../db/types.ts';
import { findKeyHolderByDigest, findKeyHoldersByDigests, type KeyHolderRow } from './keys.repository.ts';

export type FindKeyHolder = (digest: string, day: string) => Promise<KeyHolderRow | undefined>;

interface Waiter {
  resolve: (holder: KeyHolderRow | undefined) => void;
  reject: (error: unknown) => void;
}

/** A request's own copy (a request may change its holder), field by field (a spread costs more). */
function copyOf(holder: KeyHolderRow | undefined): KeyHolderRow | undefined {
  if (holder === undefined) return undefined;
  return {
    keyId: holder.keyId,
    memberId: holder.memberId,
    dailyLimit: holder.dailyLimit,
    revokedAt: holder.revokedAt,
    memberRef: holder.memberRef,
    memberStatus: holder.memberStatus,
    memberTier: holder.memberTier,
    agreementSignedOn: holder.agreementSignedOn,
    dataVersion: holder.dataVersion,
    usage: { day: holder.usage.day, used: holder.usage.used },
  };
}

/** SQLite: the turn's first look-up of a key read at once, the turn's others sharing it. */
function sharedWithinTurn(db: Db): FindKeyHolder {
  let turn = new Map<string, Promise<KeyHolderRow | undefined>>();
  const endTurn = () => {
    turn = new Map();
  };
  return (digest, day) => {
    const key = `${day}\u0000${digest}`;
    let read = turn.get(key);
    if (read === undefined) {
      if (turn.size === 0) setImmediate(endTurn);
      read = findKeyHolderByDigest(db, digest, day);
      turn.set(key, read);
    }
    return read.then(copyOf);
  };
}

export function createKeyHolderReads(db: Db): FindKeyHolder {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return sharedWithinTurn(db);
  // By day (a turn across midnight asks for two), then by digest.
  let pending = new Map<string, Map<string, Waiter[]>>();
  const flush = () => {
    const turn = pending;
    pending = new Map();
    for (const [day, byDigest] of turn) {
      findKeyHoldersByDigests(db, [...byDigest.keys()], day).then(
        (holders) => {
          for (const [digest, waiters] of byDigest) {
            const holder = holders.get(digest);
            // Each request its own object (a request's holder is its own, as when read alone).
            for (const w of waiters) w.resolve(copyOf(holder));
          }
        },
        (error: unknown) => {
          for (const waiters of byDigest.values()) for (const w of waiters) w.reject(error);
        },
      );
    }
  };
  return (digest, day) =>
    new Promise((resolve, reject) => {
      if (pending.size === 0) setImmediate(flush);
      let byDigest = pending.get(day);
      if (!byDigest) pending.set(day, (byDigest = new Map<string, Waiter[]>()));
      const waiters = byDigest.get(digest);
      if (waiters) waiters.push({ resolve, reject });
      else byDigest.set(digest, [{ resolve, reject }]);
    });
}
