/**
 * TypeBox schemas shared by the routes: Fastify validates requests and serialises responses
 * with them, and @fastify/swagger turns the same objects into the OpenAPI document. The
 * response models are named (`$id`), registered once with `registerSharedSchemas`, and
 * referenced by name, so the document lists them under `components.schemas`.
 */
import { Type, type TSchema } from 'typebox';
import type { App } from './app-type.ts';
import { ErrorBodySchema } from './error-schema.ts';
import { CASE_SCHEMAS, DATETIME, REPORT_BRANCH_SCHEMAS, reportExample, ReportSchema } from './report-schemas.ts';
import { RESPONSE_HEADERS } from './response-headers.ts';
import { stringEnum } from '../lib/string-enum.ts';
import { Q_MAX_CHARS, Q_MIN_CHARS } from '../search/search-params.ts';

export { errorResponses } from './error-schema.ts';

const SearchType = stringEnum(['name', 'tax_id'], { description: '`name` (the default) or `tax_id`' });
const ThreatLevel = stringEnum(['normal', 'high'], { description: '`normal` for 1–5 visible reports, `high` for 6 or more (spec 3.2, D13)' });

const COMPANY_EXAMPLE = {
  company_name: 'Anadolu Demir Çelik Sanayi ve Ticaret A.Ş.',
  tax_id: '0680123456',
  country: 'TR',
  city: 'İstanbul',
  threat_level: 'normal',
  report_count: 1,
  last_updated: '2026-11-21 04:54:28',
};
const META_EXAMPLE = { queries_used_today: 43, daily_limit: 100, remaining_today: 57, response_ms: 11, truncated: false };
const RESULT_EXAMPLE = { ...COMPANY_EXAMPLE, reports: [reportExample('bounced_cheque')] };
const ID_TYPE_EXAMPLE = {
  type: 'VKN',
  name: 'Turkish Tax Identification Number',
  pattern: '^[0-9]{10}$',
  example: '4540536920',
  checksum: true,
};
const COUNTRY_EXAMPLE = { code: 'TR', name: 'Türkiye', id_types: [ID_TYPE_EXAMPLE] };

export const MetaSchema = Type.Object(
  {
    queries_used_today: Type.Integer({ description: 'Answered searches counted against the key today, this one included (D18)' }),
    daily_limit: Type.Integer({ description: "The daily quota of the key's member, all its keys together (D18)" }),
    remaining_today: Type.Integer({ description: 'Searches left today; the quota resets at midnight Turkey time (D19)' }),
    response_ms: Type.Integer({ description: 'Time the server took, in milliseconds' }),
    truncated: Type.Boolean({ description: 'true when more companies matched than are returned (D10): refine the query' }),
  },
  {
    $id: 'Meta',
    description: 'Figures about this answer and the quota, the same as the X-RateLimit-* headers',
    example: META_EXAMPLE,
    additionalProperties: false,
  },
);

export const CompanyResultSchema = Type.Object(
  {
    company_name: Type.String(),
    tax_id: Type.String({ description: 'Canonical tax ID (compact form, no country prefix)' }),
    country: Type.String({ description: '2-letter country code' }),
    city: Type.String(),
    threat_level: ThreatLevel,
    report_count: Type.Integer({ description: 'Number of visible active reports = length of `reports`' }),
    last_updated: Type.String({ ...DATETIME, description: `Latest change to the company or its visible reports; ${DATETIME.description}` }),
    reports: Type.Array(Type.Ref('Report'), { description: 'Newest first (`filed_at`, then `report_id`, descending)' }),
  },
  {
    $id: 'CompanyResult',
    description: 'A company that matched, with its visible active risk reports (spec 2.2). Only companies with at least one are returned.',
    example: RESULT_EXAMPLE,
    additionalProperties: false,
  },
);

export const NearMatchSchema = Type.Object(
  {
    company_name: Type.String(),
    tax_id: Type.String({ description: 'Canonical tax ID: confirm the company with a `type=tax_id` search' }),
    country: Type.String({ description: '2-letter country code' }),
    city: Type.String(),
    threat_level: ThreatLevel,
    report_count: Type.Integer({ description: 'Number of visible active reports' }),
    similarity: Type.Number({ minimum: 0, maximum: 1, description: 'How close the name is to the query, 0–1, two decimals' }),
  },
  {
    $id: 'NearMatch',
    description:
      'A company with a visible report whose name is close to the query without matching it (D25): a word with one or ' +
      'two letters wrong, missing, extra or swapped, two words run together, or one split. Not the company asked for ' +
      'until a tax-ID search confirms it; no reports are shown.',
    example: {
      company_name: 'Anadolu Demir Çelik Sanayi ve Ticaret A.Ş.',
      tax_id: '0680123456',
      country: 'TR',
      city: 'İstanbul',
      threat_level: 'normal',
      report_count: 2,
      similarity: 0.91,
    },
    additionalProperties: false,
  },
);

export const SearchQuerySchema = (countryCodes: readonly string[]) =>
  Type.Object({
    q: Type.String({
      minLength: Q_MIN_CHARS,
      maxLength: Q_MAX_CHARS,
      description: 'Company name or tax ID; trimmed, inner spaces collapsed; 3 to 100 characters',
    }),
    type: Type.Optional(SearchType),
    country: Type.Optional(Type.String({ enum: [...countryCodes], description: '2-letter code of a supported country (any case)' })),
  });

export const SearchResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    query: Type.String({ description: 'The query as searched: trimmed, inner spaces collapsed' }),
    type: SearchType,
    country: Type.Union([Type.String(), Type.Null()], { description: 'The country filter in upper case, or null' }),
    result_count: Type.Integer({ description: 'Length of `results` (never counts near matches)' }),
    results: Type.Array(Type.Ref('CompanyResult'), { description: 'The matching companies, at most 10 by default (D10)' }),
    near_matches: Type.Optional(
      Type.Array(Type.Ref('NearMatch'), {
        maxItems: 5,
        description:
          'Name searches only (D25): on every 200 answer of a name search, absent on tax-ID searches. Up to 5 ' +
          'companies whose names are close to the query, best first, when `results` is empty; `[]` otherwise.',
      }),
    ),
    meta: Type.Ref('Meta'),
  },
  {
    $id: 'SearchResponse',
    description: 'The answer to a search (spec 2.1). No company found is `results: []` with 200, never an error.',
    example: {
      success: true,
      query: 'Anadolu Demir',
      type: 'name',
      country: 'TR',
      result_count: 1,
      results: [RESULT_EXAMPLE],
      near_matches: [],
      meta: META_EXAMPLE,
    },
    additionalProperties: false,
  },
);

const IdTypeSchema = Type.Object(
  {
    type: Type.String({ description: 'Short name of the identifier, e.g. VKN' }),
    name: Type.String(),
    pattern: Type.String({ description: 'Regular expression for the compact form (no spaces or punctuation); a guide, the validator is the rule' }),
    example: Type.String({ description: 'A valid example' }),
    checksum: Type.Boolean({ description: 'true when the identifier has check digits that are verified' }),
  },
  {
    $id: 'IdType',
    description: 'A tax-ID format of a country',
    example: ID_TYPE_EXAMPLE,
  },
);

export const CountrySchema = Type.Object(
  {
    code: Type.String({ description: '2-letter code, the value of `country` in a search' }),
    name: Type.String(),
    id_types: Type.Array(Type.Ref('IdType')),
  },
  {
    $id: 'Country',
    description: 'A supported country and the tax-ID formats a `type=tax_id` search accepts for it (D22)',
    example: COUNTRY_EXAMPLE,
  },
);

export const CountriesResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    country_count: Type.Integer(),
    countries: Type.Array(Type.Ref('Country'), { description: 'Sorted by code' }),
  },
  {
    $id: 'CountriesResponse',
    description: 'The supported countries (spec 4.2)',
    example: { success: true, country_count: 1, countries: [COUNTRY_EXAMPLE] },
    additionalProperties: false,
  },
);

const SHARED_SCHEMAS: TSchema[] = [
  ErrorBodySchema,
  ...CASE_SCHEMAS,
  ...REPORT_BRANCH_SCHEMAS,
  ReportSchema,
  MetaSchema,
  CompanyResultSchema,
  NearMatchSchema,
  SearchResponseSchema,
  IdTypeSchema,
  CountrySchema,
  CountriesResponseSchema,
];

/** Registers the named schemas; routes refer to them with `okResponse('Name')` or `Type.Ref('Name')`. */
export function registerSharedSchemas(app: App): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}

/** A 200 response of the named schema, with the headers every response carries. */
export function okResponse(name: string, description: string): TSchema {
  return {
    description,
    headers: RESPONSE_HEADERS,
    content: { 'application/json': { schema: Type.Ref(name) } },
  };
}
