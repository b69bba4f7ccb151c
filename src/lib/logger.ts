/** pino, with everything that could carry a key redacted (D21). */
import { writeSync } from 'node:fs';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactSecrets } from './redact.ts';

interface LoggedRequest {
  id?: string;
  method?: string;
  url?: string;
  ip?: string;
  socket?: { remoteAddress?: string };
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      // Headers are never logged by the serializer below; this is the second belt.
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]'], censor: '[REDACTED]' },
      serializers: {
        req: (req: LoggedRequest) => ({
          id: req.id,
          method: req.method,
          url: req.url === undefined ? undefined : redactSecrets(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    options.destination,
  );
}

/** How long a line may wait before it is written (a process killed outright loses at most these). */
export const LOG_WRITE_DELAY_MS = 50;
/** Lines waiting beyond this many characters are written at once. */
const LOG_PENDING_MAX = 64 * 1024;

/**
 * The server's log stream: stderr written asynchronously, the lines of up to 50 ms at once. A
 * synchronous write per line cost more than answering the request under a burst (a 429 logs
 * three lines); an asynchronous write per line, or even per turn of the event loop, cost a
 * thread-pool round trip and a wake-up of the loop each time: 0.035–0.04 ms of CPU a cached
 * search at info against warn (issue 28), 0.01–0.02 ms with one write per 50 ms. Lines wait at
 * most `LOG_WRITE_DELAY_MS` (or until 64 KiB wait), in order; lines that pile up while a write
 * is in flight go out together in the next one. `flushSync()` writes what is left (serve.ts calls
 * it at exit, whatever the exit); a process killed outright (SIGKILL, out of memory) loses the
 * lines of its last 50 ms besides the write in flight.
 */
export function createServerLogStream(dest = 2): DestinationStream & { flushSync(): void } {
  const stream = pino.destination({ dest, sync: false });
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  const hand = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const lines = pending;
    pending = '';
    stream.write(lines);
  };
  return {
    write(line: string) {
      pending += line;
      if (pending.length >= LOG_PENDING_MAX) hand();
      else if (timer === null) timer = setTimeout(hand, LOG_WRITE_DELAY_MS).unref();
    },
    flushSync() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      // What the stream still holds, then the waiting lines, both written before this returns.
      // (Handed to the stream, the lines would start an asynchronous write that the stream's own
      // flushSync leaves in flight: at exit they could be lost, and a reader could miss them.)
      stream.flushSync();
      const lines = pending;
      pending = '';
      writeAllSync(dest, lines);
    },
  };
}

/** Writes all of `text` to `fd` now, a full pipe (EAGAIN) waited for 1 ms at a time, up to a second. */
function writeAllSync(fd: number, text: string): void {
  let left = Buffer.from(text, 'utf8');
  for (let waits = 0; left.length > 0;) {
    try {
      left = left.subarray(writeSync(fd, left));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 1000) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}
