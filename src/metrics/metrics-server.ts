/**
 * D36: `GET /metrics` on its own port (`--metrics-port`), never on the main one, so that it
 * needs no key and no proxy ever exposes it. Plain node:http: one path, no sessions, no body.
 */
import http from 'node:http';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `read()` (the Prometheus text) at /metrics; any other path is 404. */
export async function startMetricsServer(host: string, port: number, read: () => Promise<{ contentType: string; body: string }>): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    read().then(
      ({ contentType, body }) =>
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : body),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n'),
    );
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${actual}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
