/**
 * The API reference at /api/v1/docs (Swagger UI from our own dependency, over the served
 * OpenAPI document) and the error-reason page, in a real browser under their CSP, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { launchChromium } from './helpers/browser.ts';
import { assertErrorBody } from './helpers/assertions.ts';
import { ERROR_REASONS } from '../src/lib/errors.ts';
import type { OpenApiDoc } from './helpers/bodies.ts';

const STRICT = "default-src 'none'; frame-ancestors 'none'";

for (const engine of ENGINES) {
  describe(`API docs page [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let base: string;
    let browser: Browser;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
    });

    test('Chromium renders the reference: the search operation is listed, with no CSP violation or script error', async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      const requested: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (r) => requested.push(r.url()));
      await page.goto(`${base}/api/v1/docs`);
      const search = page.locator('.opblock-summary', { hasText: '/api/v1/search.php' }).first();
      await search.waitFor({ timeout: 20_000 });
      assert.match(await search.innerText(), /Look up one company by name or tax ID/);
      // Open it: the parameters and the named response model render too.
      await search.click();
      const body = page.locator('.opblock-body').first();
      await body.locator('text=X-RateLimit-Remaining').first().waitFor({ timeout: 10_000 });
      assert.match(await body.innerText(), /SearchResponse|near_matches/);
      // No key is typed into this page (D5): neither "Try it out" nor "Authorize".
      assert.equal(await page.locator('.try-out__btn').count(), 0);
      assert.equal(await page.locator('.btn.authorize').isVisible(), false);
      await page.close();
      assert.deepEqual(problems, []);
      // Everything came from this server: no CDN, no validator badge.
      assert.deepEqual(
        requested.filter((u) => !u.startsWith(base)),
        [],
      );
      assert.ok(requested.includes(`${base}/api/v1/openapi.json`));
    });

    test('the error page has an entry for every reason, and an error body links straight to it', async () => {
      const res = await search(t.app, null, 'q=abc');
      const docs = assertErrorBody(res, 401, 'api_key_missing').docs;
      const page = await browser.newPage();
      await page.goto(new URL(docs, base).toString());
      const entry = page.locator(':target');
      assert.match(await entry.innerText(), /api_key_missing\s+401[\s\S]*X-API-Key/);
      for (const reason of Object.keys(ERROR_REASONS)) assert.equal(await page.locator(`#reason-${reason}`).count(), 1, reason);
      await page.close();
    });

    test('the docs routes alone get the wider CSP; the API keeps default-src none', async () => {
      for (const url of ['/api/v1/docs', '/api/v1/docs/errors', '/api/v1/docs/assets/docs.js']) {
        const res = await t.app.inject({ url });
        assert.equal(res.statusCode, 200, url);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /^default-src 'none'; script-src 'self'; style-src 'self'; /, url);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/, url);
        assert.match(csp, /frame-ancestors 'none'/);
      }
      const html = (await t.app.inject({ url: '/api/v1/docs' })).body;
      assert.doesNotMatch(html, /<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|style=|https?:\/\//, 'no inline script or style, no external URL');
      for (const url of ['/api/v1/openapi.json', '/api/v1/countries', '/api/v1/docs/assets/nope.js', '/api/v1/search.php?q=abc']) {
        assert.equal((await t.app.inject({ url })).headers['content-security-policy'], STRICT, url);
      }
    });

    test('assets: Swagger UI from our swagger-ui-dist, gzip when asked, ETag and 304; unknown files are 404', async () => {
      const dist = createRequire(import.meta.url)
        .resolve('swagger-ui-dist/package.json')
        .replace(/package\.json$/, '');
      const bundle = await t.app.inject({ url: '/api/v1/docs/assets/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip, br' } });
      assert.equal(bundle.statusCode, 200);
      assert.equal(bundle.headers['content-encoding'], 'gzip');
      assert.equal(bundle.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.ok(gunzipSync(bundle.rawPayload).equals(readFileSync(`${dist}swagger-ui-bundle.js`)));
      assert.ok(bundle.rawPayload.length < readFileSync(`${dist}swagger-ui-bundle.js`).length / 2);
      const again = await t.app.inject({ url: '/api/v1/docs/assets/swagger-ui-bundle.js', headers: { 'if-none-match': String(bundle.headers.etag) } });
      assert.equal(again.statusCode, 304);
      assertErrorBody(await t.app.inject({ url: '/api/v1/docs/assets/..%2Fpackage.json' }), 404, 'not_found');
      assertErrorBody(await t.app.inject({ url: '/api/v1/docs/assets/constructor' }), 404, 'not_found');
      assertErrorBody(await t.app.inject({ method: 'POST', url: '/api/v1/docs' }), 405, 'method_not_allowed');
    });

    test('the docs are not operations of the API: the document lists search, countries, the watchlist and the feed only', async () => {
      const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json<OpenApiDoc>();
      const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
        Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
      );
      assert.deepEqual(operations.sort(), [
        'DELETE /api/v1/watchlist/{country}/{tax_id}',
        'GET /api/v1/countries',
        'GET /api/v1/countries.php',
        'GET /api/v1/events',
        'GET /api/v1/search',
        'GET /api/v1/search.php',
        'GET /api/v1/watchlist',
        'PUT /api/v1/watchlist/{country}/{tax_id}',
      ]);
    });
  });
}
