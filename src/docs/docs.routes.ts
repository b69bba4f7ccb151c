/**
 * GET /api/v1/docs (the API reference, Swagger UI over /api/v1/openapi.json), GET
 * /api/v1/docs/errors (what each error reason means) and their assets. Swagger UI comes from
 * our swagger-ui-dist dependency, never a CDN. These routes alone get a CSP that lets a page
 * run its own scripts and styles (DOCS_CONTENT_SECURITY_POLICY); app.ts keeps
 * `default-src 'none'` for everything else.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-type.ts';
import { AppError, ERROR_DOCS_PATH } from '../lib/errors.ts';
import {
  DOCS_ASSETS_PATH,
  DOCS_CONTENT_SECURITY_POLICY,
  DOCS_PATH,
  DOCS_SCRIPT,
  DOCS_STYLESHEET,
  renderErrorsPage,
  renderReferencePage,
} from './docs-pages.ts';

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

function makeAsset(type: string, body: Buffer): Asset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { type, body, gzipped: gzipSync(body), etag };
}

const swaggerUiDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Asset name → how to make it. Loaded on first use (the bundle is 1.7 MB), then kept. */
const ASSET_SOURCES: Record<string, () => Asset> = {
  'swagger-ui-bundle.js': () => makeAsset('text/javascript; charset=utf-8', readFileSync(join(swaggerUiDir(), 'swagger-ui-bundle.js'))),
  'swagger-ui.css': () => makeAsset('text/css; charset=utf-8', readFileSync(join(swaggerUiDir(), 'swagger-ui.css'))),
  'favicon-32x32.png': () => makeAsset('image/png', readFileSync(join(swaggerUiDir(), 'favicon-32x32.png'))),
  'docs.js': () => makeAsset('text/javascript; charset=utf-8', Buffer.from(DOCS_SCRIPT)),
  'docs.css': () => makeAsset('text/css; charset=utf-8', Buffer.from(DOCS_STYLESHEET)),
};

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string) {
  reply
    .header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
    .header('cache-control', cacheControl)
    .header('etag', asset.etag)
    .header('vary', 'accept-encoding')
    .type(asset.type);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(asset.gzipped);
  }
  return reply.send(asset.body);
}

export function registerDocsRoutes(app: App, openApiPath: string): void {
  const loaded = new Map<string, Asset>();
  const pages = {
    [DOCS_PATH]: makeAsset('text/html; charset=utf-8', Buffer.from(renderReferencePage(openApiPath))),
    [ERROR_DOCS_PATH]: makeAsset('text/html; charset=utf-8', Buffer.from(renderErrorsPage())),
  };
  for (const [url, asset] of Object.entries(pages)) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => send(request, reply, asset, 'public, max-age=300'));
  }
  app.get(`${DOCS_ASSETS_PATH}/:file`, { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const source = Object.hasOwn(ASSET_SOURCES, file) ? ASSET_SOURCES[file] : undefined;
    if (!source) throw new AppError('not_found', `no such file: ${DOCS_ASSETS_PATH}/${file}. The API reference is at ${DOCS_PATH}`);
    let asset = loaded.get(file);
    if (!asset) loaded.set(file, (asset = source()));
    return send(request, reply, asset, 'public, max-age=86400');
  });
}

export const DOCS_ROUTE_PATHS = [DOCS_PATH, ERROR_DOCS_PATH, `${DOCS_ASSETS_PATH}/:file`] as const;
