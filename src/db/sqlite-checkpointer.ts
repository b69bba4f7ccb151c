/**
 * A serving process's SQLite checkpoints, off the thread that serves requests.
 *
 * In WAL mode SQLite copies the log back into the database file (a checkpoint) in whichever
 * connection commits past `wal_autocheckpoint` pages (1,000 by default): the serving thread's,
 * between two requests. Measured on the test machine (issue 30, 2026-11-28, strace of a serve at
 * 1,000 searches a second): a checkpoint about every second, each ~20–25 ms of the event loop
 * (two fsyncs of the log, 6–8 ms and ~0.5 ms, one of the database, 1–2 ms, and the pages' copy):
 * the searches' p99 tail. Here a thread of its own, with a connection of its own, makes a PASSIVE
 * checkpoint every CHECKPOINT_EVERY_MS (it waits for no reader or writer: the serving connection
 * goes on reading and writing meanwhile), and the serving connection's own threshold is raised to
 * SERVING_CHECKPOINT_PAGES, a fallback that takes over only if this thread falls behind or stops.
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../lib/worker-thread.ts';

/** The thread's cadence: a checkpoint's pages stay a fraction of what 1,000 pages took. */
export const CHECKPOINT_EVERY_MS = 250;

/** The serving connection's own threshold while the thread checkpoints (~40 MB of log at 4 KB pages). */
export const SERVING_CHECKPOINT_PAGES = 10_000;

export interface CheckpointerData {
  readonly path: string;
  readonly everyMs: number;
}

export interface Checkpointer {
  /** The thread's checkpoints so far that copied pages into the database (tests). */
  checkpoints(): Promise<number>;
  /** A last checkpoint, then the thread ends. */
  stop(): Promise<void>;
}

function startThread(workerData: CheckpointerData): Worker {
  return startWorkerThread(import.meta.url, 'sqlite-checkpointer.worker', { workerData });
}

/** Starts the thread for the database file at `path` (which must be in WAL mode). */
export function startCheckpointer(path: string, onError: (error: Error) => void): Checkpointer {
  const thread = startThread({ path, everyMs: CHECKPOINT_EVERY_MS });
  const asked: Array<(n: number) => void> = [];
  thread.on('message', (message: { copied: number }) => {
    for (const answer of asked.splice(0)) answer(message.copied);
    thread.unref();
  });
  thread.on('error', onError);
  // Never what keeps the process alive, except while a question to it waits for its answer: after
  // the listeners, since a 'message' listener references the thread's port again.
  thread.unref();
  const ended = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  return {
    checkpoints: () =>
      new Promise<number>((resolve) => {
        asked.push(resolve);
        thread.ref();
        thread.postMessage('report');
      }),
    async stop() {
      thread.postMessage('stop');
      const timer = setTimeout(() => void thread.terminate(), 5000);
      await ended;
      clearTimeout(timer);
    },
  };
}
