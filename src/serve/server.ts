/** Listens, and drains in-flight requests on SIGTERM/SIGINT (D23). */
import net from 'node:net';
import { DRAIN_GRACE_MS } from '../config.ts';
import type { Engine } from '../db/connect.ts';
import type { App } from '../http/app-type.ts';
import type { Lifecycle } from '../health/health.routes.ts';

export interface RunningServer {
  url: string;
  /** Stops accepting, answers what was already sent, drains the background work, closes the database. */
  stop(): Promise<void>;
}

/** Work beside the requests (src/jobs/job-runner.ts): drained with them, before the database closes. */
export interface Drainable {
  drain(): Promise<void>;
}

export async function startServer(
  app: App,
  engine: Engine,
  host: string,
  port: number,
  scheme: 'http' | 'https' = 'http',
  drainGraceMs = DRAIN_GRACE_MS,
  /**
   * D36: on stop, `lifecycle.draining` turns true (the health checks answer 503) and the server
   * keeps serving for `delayMs`, so that a load balancer polling /healthz takes it out before it
   * stops accepting (`--drain-delay`; 0: stop accepting at once, as before).
   */
  drain: { lifecycle?: Lifecycle; delayMs?: number } = {},
  background: Drainable | null = null,
): Promise<RunningServer> {
  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let closing = false;
  // Once stopping, every answer tells the client to open a new connection (to another server).
  app.server.on('request', (_req, res) => {
    if (closing && !res.headersSent) res.setHeader('connection', 'close');
  });
  let stopping: Promise<void> | null = null;
  return {
    url: `${scheme}://${shownHost}:${actualPort}`,
    stop: () => {
      stopping ??= (async () => {
        if (drain.lifecycle) drain.lifecycle.draining = true;
        if (drain.delayMs) await new Promise((resolve) => setTimeout(resolve, drain.delayMs));
        closing = true;
        // Nothing new starts from now on; a job in progress finishes (or is given back) meanwhile.
        const backgroundDrained = background?.drain() ?? Promise.resolve();
        // Stop accepting but keep open connections: http.Server#close would also destroy the
        // connections it thinks idle, which includes one whose request has arrived but is not
        // parsed yet — the client would see its request reset.
        net.Server.prototype.close.call(app.server);
        await new Promise((resolve) => setTimeout(resolve, drainGraceMs));
        // Now closes the idle keep-alive connections and waits for requests in flight.
        await app.close();
        await backgroundDrained;
        await engine.close();
      })();
      return stopping;
    },
  };
}

/** Resolves when the process is asked to stop; the caller then calls `stop()` and exits 0. */
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
