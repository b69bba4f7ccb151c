/** Helpers for the background-work tests: a second "process" on a test database, a log to read, a gate. */
import { openEngine, type Engine } from '../../src/db/connect.ts';
import type { JobLog } from '../../src/jobs/job-types.ts';
import type { TestDatabase } from './engines.ts';

/** Another connection (pool) to the same database: what a second server process has. */
export function secondProcess(database: TestDatabase): Engine {
  return openEngine(database.url);
}

export interface CapturedLog extends JobLog {
  readonly lines: Array<{ level: string; message: string; details: object }>;
}

export function captureLog(): CapturedLog {
  const lines: CapturedLog['lines'] = [];
  const at = (level: string) => (details: object, message: string) => void lines.push({ level, message, details });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn') };
}

/** A promise the test resolves when it chooses: a job that runs until let go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Whether `promise` has settled after the event loop has turned a few times. */
export async function settledSoon(promise: Promise<unknown>, ms = 50): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, ms));
  return settled;
}
