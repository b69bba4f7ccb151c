/**
 * Writes audit records (D21) in small batches: one multi-row INSERT every 50 ms (or every 200
 * records) instead of one transaction per request. `close()` writes what is left, so a record
 * is never lost on SIGTERM: the server closes the writer after the last request is answered.
 */
import { addLookups, type Lookup } from '../disclosure/lookup-counts.repository.ts';
import type { AuditEntry } from './audit.repository.ts';
import type { Db } from '../db/types.ts';

export interface AuditWriter {
  /** `foundCompanyIds`: the companies the search's answer held, counted as lookups (D34) with the record. */
  write(entry: AuditEntry, foundCompanyIds?: readonly number[]): void;
  /** Writes everything buffered; resolves when it is stored. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BATCH = 200;
const MAX_DELAY_MS = 50;

export function createAuditWriter(db: Db, onError: (error: unknown, lost: number) => void): AuditWriter {
  let buffer: AuditEntry[] = [];
  let lookups: Lookup[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (buffer.length === 0) return writing;
    // Every row names every column: one multi-row INSERT cannot mix rows with and without a
    // column (SQLite has no DEFAULT in VALUES), and the API's records leave the portal's out.
    const batch = buffer.map((entry) => ({ channel: 'api', user_id: null, actor: null, ...entry }));
    const found = lookups;
    buffer = [];
    lookups = [];
    const insert = (trx: typeof db) => trx.insertInto('audit_log').values(batch).execute();
    // One write at a time, in order; the lookups commit with their records (one transaction).
    writing = writing.then(() =>
      (found.length === 0
        ? insert(db)
        : db.transaction().execute(async (trx) => {
            await insert(trx);
            await addLookups(trx, found);
          })
      ).then(
        () => undefined,
        (error: unknown) => onError(error, batch.length),
      ),
    );
    return writing;
  };

  return {
    write(entry, foundCompanyIds) {
      buffer.push(entry);
      if (foundCompanyIds && foundCompanyIds.length > 0) lookups.push({ at: Number(entry.at), companyIds: foundCompanyIds });
      if (buffer.length >= MAX_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), MAX_DELAY_MS);
    },
    flush,
    close: flush,
  };
}
