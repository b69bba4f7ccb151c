/**
 * The OpenAPI document as an integrator's tools see it: valid for a third-party validator,
 * every response model a named schema with a description and an example that fits it, and
 * the operations referring to them by name.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import { ERROR_REASONS } from '../src/lib/errors.ts';
import { REPORT_TYPES } from '../src/reports/report-types.ts';
import type { OpenApiDoc, ResponseNode, SchemaNode } from './helpers/bodies.ts';
import { readJson } from './helpers/bodies.ts';
import { renderOpenApi } from './helpers/openapi.ts';

let doc: OpenApiDoc;
before(async () => {
  doc = readJson<OpenApiDoc>(await renderOpenApi());
});

const NAMED = ['SearchResponse', 'CompanyResult', 'Report', 'NearMatch', 'Meta', 'ErrorBody', 'Country', 'CountriesResponse'];

test('@apidevtools/swagger-parser validates the document (schema and spec rules)', async () => {
  const api = await SwaggerParser.validate(structuredClone(doc) as unknown as Parameters<typeof SwaggerParser.validate>[0]);
  assert.equal(api.info.title, 'Company Risk Lookup Service');
});

test('the models are named under components.schemas, each with a description and an example that fits it', () => {
  const schemas = doc.components.schemas;
  for (const name of [...NAMED, ...REPORT_TYPES.map((t) => `${t.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Report`)]) {
    assert.ok(schemas[name], `${name} missing`);
  }
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: 'doc' });
  for (const [name, schema] of Object.entries(schemas) as Array<[string, SchemaNode]>) {
    assert.ok(schema.description && schema.description.length > 10, `${name} has no description`);
    assert.notEqual(schema.example, undefined, `${name} has no example`);
    const validate = ajv.getSchema(`doc#/components/schemas/${name}`)!;
    assert.ok(validate(schema.example), `${name}'s example: ${JSON.stringify(validate.errors)}`);
  }
  // No leftover anonymous definitions (def-0, def-1...).
  assert.deepEqual(
    Object.keys(schemas).filter((n) => n.startsWith('def-')),
    [],
  );
});

test('Report is discriminated by type, each type with its own fields and case', () => {
  const report = doc.components.schemas.Report;
  assert.equal(report.discriminator!.propertyName, 'type');
  assert.deepEqual(Object.keys(report.discriminator!.mapping), [...REPORT_TYPES]);
  const fields = (name: string) => Object.keys(doc.components.schemas[name]!.properties);
  assert.ok(fields('BouncedChequeReport').includes('case'));
  assert.equal(doc.components.schemas.BouncedChequeReport.properties.case!.$ref, '#/components/schemas/BouncedChequeCase');
  assert.deepEqual(Object.keys(doc.components.schemas.BouncedChequeCase.properties), ['prosecutor_office', 'investigation_number']);
  assert.equal(doc.components.schemas.EnforcementBillReport.properties.case!.$ref, '#/components/schemas/EnforcementCase');
  assert.ok(fields('EnforcementJudgmentReport').includes('court_decision_date'));
  assert.ok(!fields('EnforcementBillReport').includes('court_decision_date'));
  assert.ok(fields('ConcordatReport').includes('concordat_end'));
  assert.ok(!fields('UnpaidDebtReport').includes('case'));
  assert.deepEqual(doc.components.schemas.UnpaidDebtReport.properties.official!.enum, [false]);
});

test('SearchResponse has the optional near_matches of NearMatch (D25) and the reason enum is the one table', () => {
  const search = doc.components.schemas.SearchResponse;
  assert.deepEqual(search.properties.near_matches!.items, { $ref: '#/components/schemas/NearMatch' });
  assert.ok(!search.required!.includes('near_matches'));
  assert.match(search.properties.near_matches!.description!, /absent on tax-ID searches/);
  assert.deepEqual(Object.keys(doc.components.schemas.NearMatch.properties), [
    'company_name',
    'tax_id',
    'country',
    'city',
    'threat_level',
    'report_count',
    'similarity',
  ]);
  const reason = doc.components.schemas.ErrorBody.properties.reason;
  assert.deepEqual(reason, { ...reason, type: 'string', enum: Object.keys(ERROR_REASONS) });
  // Closed lists are one enum each, never a union of one-value alternatives.
  assert.deepEqual(doc.components.schemas.CompanyResult.properties.threat_level!.enum, ['normal', 'high']);
  assert.deepEqual(doc.components.schemas.SearchResponse.properties.type!.enum, ['name', 'tax_id']);
  assert.doesNotMatch(JSON.stringify(doc.components.schemas), /"anyOf":\[\{"type":"string","enum":\["[^"]+"\]\}/);
});

test('every operation refers to the named models and documents the rate-limit headers', () => {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const operation of Object.values(item as Record<string, { responses: Record<string, ResponseNode> }>)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '204') {
          for (const h of ['X-RateLimit-Limit', 'X-Request-Id']) assert.ok(response.headers[h], `${path} ${status} ${h}`);
          continue;
        }
        const ref = response.content['application/json'].schema.$ref!;
        assert.match(
          ref,
          status === '200' ? /^#\/components\/schemas\/(SearchResponse|CountriesResponse|WatchResponse|WatchlistResponse|EventsResponse)$/ : /ErrorBody$/,
          `${path} ${status}`,
        );
        for (const h of ['X-RateLimit-Limit', 'RateLimit-Policy', 'RateLimit', 'X-Request-Id']) assert.ok(response.headers[h], `${path} ${status} ${h}`);
        if (status === '429') assert.ok(response.headers['Retry-After']);
      }
    }
  }
  assert.equal(doc.paths['/api/v1/search.php'].get.operationId, 'search');
  assert.equal(doc.paths['/api/v1/search'].get.operationId, undefined);
});
