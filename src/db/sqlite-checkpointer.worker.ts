/**
 * The thread of sqlite-checkpointer.ts: a PASSIVE checkpoint of the serving process's database
 * every `everyMs`, on a connection of its own; a last one when told to stop.
 */
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointerData } from './sqlite-checkpointer.ts';

const data = workerData as CheckpointerData;
const port = parentPort!;
// Never waits for a lock: a checkpoint that finds one busy copies what it can, or tries next time.
const database = new SQLite(data.path, { timeout: 0 });
database.pragma('synchronous = NORMAL');
/** Log pages past which the thread also asks for the log to start over (~4 MB: SQLite's own threshold). */
const RESTART_AT_PAGES = 1000;
/** Checkpoints that copied pages (tests, the report). */
let copied = 0;

type CheckpointRow = { busy: number; log: number; checkpointed: number };

function checkpoint(): void {
  try {
    const [row] = database.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
    if (row && row.log > 0 && row.checkpointed > 0) copied++;
    // The log is reused from its start only when a write begins with all of it copied, which a
    // steady stream of commits never leaves time for: once it is long, a RESTART right after the
    // copy (the few pages committed since) makes the next write start it over. Without a busy
    // handler it never waits: a write in progress makes it a PASSIVE one, and it tries next time.
    if (row && row.log >= RESTART_AT_PAGES) database.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    // Busy (another process's checkpoint or a write session holding the file): next time.
    if (!String((error as { code?: string }).code).startsWith('SQLITE_BUSY')) throw error;
  }
}

const timer = setInterval(checkpoint, data.everyMs);
port.on('message', (message: 'report' | 'stop') => {
  if (message === 'stop') {
    clearInterval(timer);
    checkpoint();
    database.close();
    port.close();
    return;
  }
  port.postMessage({ copied });
});
