/** Countries (spec 4.2, D5, D22), the OpenAPI document, and the audit record (D21). */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { makeCompanies, makeKeyHolder } from './helpers/factories.ts';
import { eventually } from './helpers/assertions.ts';
import type { CountriesBody, ErrorBody, OpenApiDoc, OperationNode } from './helpers/bodies.ts';
import { readFileSync } from 'node:fs';
import { renderOpenApi } from './helpers/openapi.ts';

for (const engine of ENGINES) {
  describe(`countries, OpenAPI and audit [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { countries: 'TR,DE,IT' });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('D22: the body lists the switched-on countries sorted by code, with their ID formats', async () => {
      const res = await t.app.inject({ url: '/api/v1/countries.php' });
      assert.equal(res.statusCode, 200);
      const body = res.json<CountriesBody>();
      assert.equal(body.success, true);
      assert.equal(body.country_count, 3);
      assert.deepEqual(
        body.countries.map((c) => c.code),
        ['DE', 'IT', 'TR'],
      );
      const tr = body.countries[2]!;
      assert.equal(tr.name, 'Türkiye');
      assert.deepEqual(tr.id_types[0], {
        type: 'VKN',
        name: 'Turkish Tax Identification Number',
        pattern: '^[0-9]{10}$',
        example: '4540536920',
        checksum: true,
      });
      assert.equal(tr.id_types[1]!.type, 'TCKN');
    });

    test('D5: cacheable for an hour, ETag honoured with 304, CORS for everyone, HEAD works', async () => {
      const res = await t.app.inject({ url: '/api/v1/countries' });
      assert.equal(res.headers['cache-control'], 'public, max-age=3600');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const etag = String(res.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      const again = await t.app.inject({ url: '/api/v1/countries.php', headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      const other = await t.app.inject({ url: '/api/v1/countries.php', headers: { 'if-none-match': '"stale"' } });
      assert.equal(other.statusCode, 200);
      const head = await t.app.inject({ method: 'HEAD', url: '/api/v1/countries.php' });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
    });

    test('D7: a country switched off is refused by search', async () => {
      const key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-C' });
      assert.equal((await search(t.app, key, 'q=abc&country=FR')).json<ErrorBody>().reason, 'unsupported_country');
      assert.equal((await search(t.app, key, 'q=abc&country=de')).statusCode, 200);
    });

    test('OpenAPI 3 is generated from the route schemas', async () => {
      const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json<OpenApiDoc>();
      assert.equal(doc.openapi, '3.0.3');
      assert.deepEqual(Object.keys(doc.paths).sort(), [
        '/api/v1/countries',
        '/api/v1/countries.php',
        '/api/v1/events',
        '/api/v1/search',
        '/api/v1/search.php',
        '/api/v1/watchlist',
        '/api/v1/watchlist/{country}/{tax_id}',
      ]);
      const op = doc.paths['/api/v1/search.php'].get;
      const params = Object.fromEntries(op.parameters.map((p) => [p.name, p])) as Record<'q' | 'type' | 'country', OperationNode['parameters'][number]>;
      assert.deepEqual(params.q.schema.minLength, 3);
      assert.deepEqual(params.q.schema.maxLength, 100);
      assert.equal(params.q.required, true);
      assert.deepEqual(params.country.schema.enum, ['DE', 'IT', 'TR']);
      assert.deepEqual(op.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/SearchResponse' });
      assert.deepEqual(op.responses['429'].content['application/json'].schema, { $ref: '#/components/schemas/ErrorBody' });
      const err = doc.components.schemas.ErrorBody;
      assert.deepEqual(Object.keys(err.properties), ['success', 'error', 'code', 'reason', 'docs']);
      assert.ok(doc.components.securitySchemes.apiKey);
    });

    test('D21: every search request is audited without the key', async () => {
      const db = database.engine.db;
      const key = await makeKeyHolder(db, t.clock, { ref: 'M-AUDIT' });
      await makeCompanies(database.engine, t.clock, [{ company_name: 'Audittest Lojistik A.Ş.' }]);
      await search(t.app, key, 'q=Audittest&country=tr');
      await search(t.app, key, 'q=ab');
      await search(t.app, null, 'q=Audittest');
      const rows = await eventually(async () => {
        const found = await db.selectFrom('audit_log').selectAll().where('q', 'in', ['Audittest', 'ab']).orderBy('id', 'desc').execute();
        assert.equal(found.length, 3);
        return found;
      });
      const byStatus = (status: number) => rows.find((r) => r.status === status);
      const [anonymous, tooShort, hit] = [byStatus(401), byStatus(400), byStatus(200)];
      assert.equal(hit!.status, 200);
      assert.equal(hit!.q, 'Audittest');
      assert.equal(hit!.type, null);
      assert.equal(hit!.country, 'TR');
      assert.equal(hit!.result_count, 1);
      assert.ok(hit!.key_id !== null && hit!.member_id !== null);
      assert.equal(hit!.client_address, '127.0.0.1');
      assert.equal(typeof hit!.response_ms, 'number');
      assert.equal(tooShort!.status, 400);
      assert.equal(tooShort!.result_count, null);
      assert.equal(anonymous!.status, 401);
      assert.equal(anonymous!.key_id, null);
      assert.equal(JSON.stringify(rows).includes(key), false);
    });
  });
}

test('docs/openapi.json is the document the service serves (run `npm run docs` after changing a schema)', async () => {
  const committed = readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8');
  assert.equal(committed, await renderOpenApi());
});
