/** Listens, and drains in-flight requests on SIGTERM/SIGINT (D23). */
import type { Engine } from '../db/connect.ts';
import type { App } from '../http/app-type.ts';

export interface RunningServer {
  url: string;
  /** Stops accepting, waits for in-flight requests, closes the database. */
  stop(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startServer(app: App, engine: Engine, host: string, port: number, scheme: 'http' | 'https' = 'http'): Promise<RunningServer> {
  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let stopping: Promise<void> | null = null;
  return {
    url: `${scheme}://${shownHost}:${actualPort}`,
    stop: () => {
      stopping ??= (async () => {
        await app.close();
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
