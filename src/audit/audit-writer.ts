/**
 * Writes audit records (D21) in small batches: one multi-row INSERT every 50 ms (or every 200
 * records) instead of one transaction per request. `close()` writes what is left, so a record
 * is never lost on SIGTERM: the server closes the writer after the last request is answered.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AuditEntry } from './audit.repository.ts';

export interface AuditWriter {
  write(entry: AuditEntry): void;
  /** Writes everything buffered; resolves when it is stored. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BATCH = 200;
const MAX_DELAY_MS = 50;

export function createAuditWriter(db: Kysely<Database>, onError: (error: unknown, lost: number) => void): AuditWriter {
  let buffer: AuditEntry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (buffer.length === 0) return writing;
    const batch = buffer;
    buffer = [];
    // One write at a time, in order.
    writing = writing.then(() =>
      db
        .insertInto('audit_log')
        .values(batch)
        .execute()
        .then(
          () => undefined,
          (error: unknown) => onError(error, batch.length),
        ),
    );
    return writing;
  };

  return {
    write(entry) {
      buffer.push(entry);
      if (buffer.length >= MAX_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), MAX_DELAY_MS);
    },
    flush,
    close: flush,
  };
}
