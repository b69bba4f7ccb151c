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
 * The server's log stream: stderr written asynchronously. A synchronous write per line cost more
 * than answering the request under a burst (a 429 logs three lines); lines that pile up while a
 * write is in flight go out together in the next one. `flush()` writes what is left (at exit).
 */
export function createServerLogStream(): DestinationStream & { flushSync(): void } {
  return pino.destination({ dest: 2, sync: false });
}
