/**
 * Writes audit records (D21) by group commit (issue 28): every record handed in during one turn
 * of the event loop goes into one multi-row INSERT, in one transaction with the lookups it counts
 * (D34), and `write()` resolves only once that transaction has committed. The search routes wait
 * for it before the answer leaves (search.routes.ts, `onSend`), so an answered request's record
 * is in the database even when the process is killed (-9) the moment after: committed is as
 * durable as the engine makes a commit (SQLite WAL with `synchronous = NORMAL`: a process crash
 * loses nothing committed, a power loss or OS crash may lose the last commits; PostgreSQL: every
 * commit is flushed to its WAL). Until issue 28 the records waited up to 50 ms in memory and a
 * crash lost them.
 *
 * While one batch is being stored, the records that arrive meanwhile wait and go together in the
 * next: the busier the server, the bigger the batches (at most MAX_BATCH), one commit each.
 */
import { addLookups, type Lookup } from '../disclosure/lookup-counts.repository.ts';
import { insertAuditEntries, type AuditEntry } from './audit.repository.ts';
import type { Db } from '../db/types.ts';

export interface AuditWriter {
  /**
   * Queues the record; resolves once it is committed, rejects when its batch could not be stored
   * (after `onError` was told). `foundCompanyIds`: the companies the search's answer held, counted
   * as lookups (D34) with the record.
   */
  write(entry: AuditEntry, foundCompanyIds?: readonly number[]): Promise<void>;
  /** Writes everything queued; resolves when it is stored (a failed batch was reported to `onError`). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BATCH = 500;

interface Queued {
  entry: AuditEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createAuditWriter(db: Db, onError: (error: unknown, lost: number) => void): AuditWriter {
  let queue: Queued[] = [];
  let lookups: Lookup[] = [];
  let scheduled = false;
  let inFlight: Promise<void> | null = null;

  const store = async (batch: Queued[], found: Lookup[]): Promise<void> => {
    const rows = batch.map(({ entry }) => entry);
    const insert = (trx: typeof db) => insertAuditEntries(trx, rows);
    if (found.length === 0) await insert(db);
    else
      await db.transaction().execute(async (trx) => {
        await insert(trx);
        await addLookups(trx, found);
      });
  };

  /** Stores the queue's head; the records queued meanwhile follow in the next batch. */
  const run = (): void => {
    scheduled = false;
    if (inFlight || queue.length === 0) return;
    const batch = queue.length <= MAX_BATCH ? queue : queue.slice(0, MAX_BATCH);
    queue = queue.length <= MAX_BATCH ? [] : queue.slice(MAX_BATCH);
    // Lookups go with the first batch that leaves after them: still the same commit as, or an
    // earlier one than, their records' (only a batch cut at MAX_BATCH leaves records behind).
    const found = lookups;
    lookups = [];
    inFlight = store(batch, found).then(
      () => {
        for (const q of batch) q.resolve();
      },
      (error: unknown) => {
        onError(error, batch.length);
        for (const q of batch) q.reject(error);
      },
    );
    void inFlight.finally(() => {
      inFlight = null;
      schedule();
    });
  };

  // setImmediate: after the I/O callbacks of this turn, so every answer made ready in it shares the commit.
  const schedule = (): void => {
    if (scheduled || inFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(run);
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0 || inFlight) {
      if (inFlight) await inFlight;
      else run();
    }
  };

  return {
    write(entry, foundCompanyIds) {
      if (foundCompanyIds && foundCompanyIds.length > 0) lookups.push({ at: Number(entry.at), companyIds: foundCompanyIds });
      const done = new Promise<void>((resolve, reject) => queue.push({ entry, resolve, reject }));
      schedule();
      return done;
    },
    flush,
    close: flush,
  };
}
