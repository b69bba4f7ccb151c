/**
 * A local HTTPS receiver of webhooks for tests: records every request (headers, body, arrival
 * order) and answers as the test says — a status, headers, or never.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeCertificate, type TestCertificate } from './tls.ts';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What to answer: a status (with headers, after a delay), or `'hang'` (never answer). */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  readonly port: number;
  readonly ca: Buffer;
  readonly certificate: TestCertificate;
  readonly received: ReceivedWebhook[];
  /** Requests being answered right now (hanging ones included). */
  readonly open: () => number;
  /** The most requests open at once since the last reset. */
  readonly mostOpen: () => number;
  resetMostOpen(): void;
  url(path?: string, host?: string): string;
  answer: (request: ReceivedWebhook, index: number) => Answer;
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Cuts the connections of the requests left hanging: their senders see the connection reset. */
  dropHanging(): void;
  close(): Promise<void>;
}

export async function startReceiver(options: { dnsNames?: readonly string[] } = {}): Promise<Receiver> {
  const certificate = makeCertificate(undefined, 'receiver', options.dnsNames ?? []);
  const hanging = new Set<ServerResponse>();
  let open = 0;
  let mostOpen = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const receiver = {
    received: [] as ReceivedWebhook[],
    answer: (() => ({ status: 204 })) as Receiver['answer'],
  };
  const server = https.createServer({ cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) }, (req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(request);
      for (const w of waiters.filter((w) => receiver.received.length >= w.count)) w.resolve();
      const answer = receiver.answer(request, receiver.received.length - 1);
      if (answer === 'hang') return void hanging.add(res);
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end('ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    port,
    ca: readFileSync(certificate.certFile),
    certificate,
    open: () => open,
    mostOpen: () => mostOpen,
    resetMostOpen: () => {
      mostOpen = open;
    },
    url: (path = '/hook', host = '127.0.0.1') => `https://${host}:${port}${path}`,
    waitFor(count: number, timeoutMs = 10_000) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${receiver.received.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    dropHanging() {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
