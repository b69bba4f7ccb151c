/** pino, with everything that could carry a key redacted (D21). */
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

/**
 * The server's log stream: stderr written asynchronously, one write per turn of the event loop.
 * A synchronous write per line cost more than answering the request under a burst (a 429 logs
 * three lines); an asynchronous write per line still cost a thread-pool round trip each (issue
 * 28: 10–15 % of a cached search's CPU at info). The lines of one turn (a request's line and
 * those of every other request answered in it) are joined and handed to the stream at the next
 * turn (`setImmediate`); lines that pile up while a write is in flight go out together in the next
 * one. `flushSync()` writes what is left (at exit). A process killed outright loses at most the
 * lines of its last turn besides the write in flight, as before.
 */
export function createServerLogStream(dest = 2): DestinationStream & { flushSync(): void } {
  const stream = pino.destination({ dest, sync: false });
  let pending = '';
  let scheduled = false;
  const hand = () => {
    scheduled = false;
    if (pending === '') return;
    const lines = pending;
    pending = '';
    stream.write(lines);
  };
  return {
    write(line: string) {
      pending += line;
      if (scheduled) return;
      scheduled = true;
      setImmediate(hand);
    },
    flushSync() {
      hand();
      stream.flushSync();
    },
  };
}
