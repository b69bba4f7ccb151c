/**
 * D6 and the transport limits: TLS terminated here or by a trusted proxy, plain HTTP only on
 * loopback; HSTS over HTTPS; bounded URL length, header size, request time and idle time; no
 * body on GET.
 */
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { App } from './app-type.ts';

export type Transport = { kind: 'loopback' } | { kind: 'tls'; certFile: string; keyFile: string } | { kind: 'proxy'; trusted: true | string[] };

export const LIMITS = {
  /** Longest request target; a search URL is far shorter (q is at most 100 characters). */
  maxUrlLength: 2048,
  /** Request headers, bytes (Node's parser answers 431 beyond it). */
  maxHeaderSize: 8192,
  /** The whole request, headers included, must arrive within this (408 otherwise). */
  requestTimeoutMs: 10_000,
  headersTimeoutMs: 5_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node checks the two timeouts above. */
  connectionsCheckingIntervalMs: 500,
} as const;

const HSTS = 'max-age=31536000; includeSubDomains';

export function readTlsFiles(transport: { certFile: string; keyFile: string }) {
  try {
    return { cert: readFileSync(transport.certFile), key: readFileSync(transport.keyFile) };
  } catch (error) {
    throw new Error(`cannot read the TLS certificate or key: ${(error as Error).message}`);
  }
}

/** Options for Fastify's factory: the server kind, its limits, and whom to trust. */
export function serverOptions(transport: Transport) {
  const limits = {
    maxHeaderSize: LIMITS.maxHeaderSize,
    connectionsCheckingInterval: LIMITS.connectionsCheckingIntervalMs,
    requestTimeout: LIMITS.requestTimeoutMs,
    headersTimeout: LIMITS.headersTimeoutMs,
  };
  return {
    ...(transport.kind === 'tls' ? { https: { ...limits, ...readTlsFiles(transport) } } : { http: limits }),
    ...(transport.kind === 'proxy' ? { trustProxy: transport.trusted } : {}),
    requestTimeout: LIMITS.requestTimeoutMs,
    keepAliveTimeout: LIMITS.keepAliveTimeoutMs,
  };
}

function isHttps(transport: Transport, request: FastifyRequest): boolean {
  return transport.kind === 'tls' || (transport.kind === 'proxy' && request.protocol === 'https');
}

/**
 * @param plainHttpPaths paths a proxy may reach over plain HTTP (D36's health checks: they carry
 *   no key and answer only `ok` or a check's name); every other request behind a proxy must be HTTPS.
 */
export function registerTransportHooks(app: App, transport: Transport, plainHttpPaths: readonly string[] = []) {
  app.server.headersTimeout = LIMITS.headersTimeoutMs;
  // Callback hooks (no promise, no microtask: issue 28); Fastify turns a throw into the error answer.
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    if (request.url.length > LIMITS.maxUrlLength) {
      throw new AppError(
        'uri_too_long',
        `request URL longer than ${LIMITS.maxUrlLength} characters: search for one company at a time`,
        {},
        {
          code: 'request.uri_too_long',
          params: { max: LIMITS.maxUrlLength },
        },
      );
    }
    if (transport.kind === 'proxy' && request.protocol !== 'https' && !plainHttpPaths.includes(request.routeOptions.url ?? '')) {
      throw new AppError(
        'https_required',
        'HTTPS required: call the API at its https:// address; API keys must never travel in clear text',
        {},
        {
          code: 'request.https_required',
        },
      );
    }
    const length = request.headers['content-length'];
    if ((request.method === 'GET' || request.method === 'HEAD') && ((length !== undefined && length !== '0') || request.headers['transfer-encoding'])) {
      throw new AppError(
        'body_not_allowed',
        `${request.method} requests take no body: send the parameters in the query string`,
        {},
        {
          code: 'request.body_not_allowed',
          params: { method: request.method },
        },
      );
    }
    done();
  });
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    if (isHttps(transport, request)) reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}

/** Re-reads the certificate and key (SIGHUP); open connections keep theirs, new ones get the new. */
export function reloadTls(app: App, transport: Transport): void {
  if (transport.kind !== 'tls') return;
  (app.server as unknown as import('node:https').Server).setSecureContext(readTlsFiles(transport));
}
