/**
 * Checking import lines on a second core: a worker thread parses and validates chunks of lines
 * while the main thread writes the previous ones to the database. Results come back in line
 * order. Measured at 2×10^5 companies: see docs/benchmarks.md.
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../lib/worker-thread.ts';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import { checkImportLine, type CheckedLine } from './import-line.ts';
import type { FileChunk } from './line-checker.worker.ts';
import { decodeCheckedLines } from './checked-lines-wire.ts';

/** Lines per message, and messages the worker may hold ahead of the writer. */
const CHUNK_LINES = 1000;
const AHEAD = 4;
/** The checker holds a few chunks at a time; a small heap keeps the import's peak memory down. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

/** The same checks in the calling thread: for small inputs, where a thread costs more than it saves. */
export async function* checkLinesInline(lines: AsyncIterable<string> | Iterable<string>, countries: CountryCatalogue): AsyncGenerator<CheckedLine> {
  let lineNo = 0;
  for await (const line of lines) yield checkImportLine(line, ++lineNo, countries);
}

function startWorker(workerData: unknown): Worker {
  return startWorkerThread(import.meta.url, 'line-checker.worker', { workerData, resourceLimits: WORKER_LIMITS });
}

export async function* checkLinesInWorker(lines: AsyncIterable<string> | Iterable<string>, countries: CountryCatalogue): AsyncGenerator<CheckedLine> {
  const worker = startWorker({ countryCodes: countries.list().map((c) => c.code) });
  const waiting = new Map<number, { resolve: (lines: CheckedLine[]) => void; reject: (error: Error) => void }>();
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  worker.on('message', (m: { id: number; lines: CheckedLine[] }) => {
    waiting.get(m.id)?.resolve(m.lines);
    waiting.delete(m.id);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the import's line checker stopped (exit code ${code})`)));

  const pending: Array<Promise<CheckedLine[]>> = [];
  let nextId = 0;
  let lineNo = 0;
  const send = (chunk: string[]) => {
    const id = nextId++;
    pending.push(
      new Promise<CheckedLine[]>((resolve, reject) => {
        if (failure) return reject(failure);
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, firstLineNo: lineNo - chunk.length + 1, lines: chunk });
      }),
    );
  };
  // A failed chunk rejects only when awaited; until then it must not count as unhandled.
  const settle = (p: Promise<CheckedLine[]>) => (p.catch(() => {}), p);
  try {
    let chunk: string[] = [];
    for await (const line of lines) {
      lineNo++;
      chunk.push(line);
      if (chunk.length === CHUNK_LINES) {
        send(chunk);
        chunk = [];
        void settle(pending[pending.length - 1]!);
        if (pending.length > AHEAD) yield* await pending.shift()!;
      }
    }
    if (chunk.length > 0) send(chunk);
    while (pending.length > 0) yield* await settle(pending.shift()!);
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/**
 * A file's lines, read, split and checked on a worker thread, in line order. `onBytes`: the
 * bytes of the file read so far, with each chunk (for the progress bar). The worker stays at
 * most AHEAD chunks ahead of the caller.
 */
export async function* checkFileInWorker(path: string, countries: CountryCatalogue, onBytes?: (bytes: number) => void): AsyncGenerator<CheckedLine> {
  const worker = startWorker({ countryCodes: countries.list().map((c) => c.code), file: { path, chunkLines: CHUNK_LINES, ahead: AHEAD } });
  const arrived: FileChunk[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (m: FileChunk) => {
    arrived.push(m);
    notify();
  });
  worker.on('error', (error) => {
    failure ??= error;
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the import's line checker stopped (exit code ${code})`);
    notify();
  });
  try {
    for (;;) {
      while (arrived.length === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
      const m = arrived.shift();
      if (!m) throw failure!;
      if ('error' in m) throw m.error;
      // Room for one more chunk on the worker's side while this one is written.
      if (!m.done) worker.postMessage('next');
      onBytes?.(m.bytes);
      yield* decodeCheckedLines(m.wire);
      if (m.done) return;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
