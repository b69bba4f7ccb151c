/**
 * TypeBox schemas shared by the routes: Fastify validates requests and serialises responses
 * with them, and @fastify/swagger turns the same objects into the OpenAPI document.
 */
import { Type, type TSchema } from 'typebox';
import { ERROR_REASONS } from '../lib/errors.ts';
import { REPORT_TYPES } from '../reports/report-types.ts';

const SearchType = Type.Union([Type.Literal('name'), Type.Literal('tax_id')]);
const DATE = { pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' };
const DATETIME = {
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: 'YYYY-MM-DD HH:MM:SS, Turkey time (UTC+3, D4)',
};

export const ErrorBodySchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'What went wrong and how to fix it' }),
    code: Type.Integer({ description: 'Same as the HTTP status' }),
    reason: Type.Union(
      Object.keys(ERROR_REASONS).map((r) => Type.Literal(r)),
      { description: 'Stable identifier for programs (D2)' },
    ),
  },
  { additionalProperties: false },
);

export const CaseSchema = Type.Object(
  {
    enforcement_office: Type.Optional(Type.String()),
    file_number: Type.Optional(Type.String()),
    date: Type.Optional(Type.String(DATE)),
    prosecutor_office: Type.Optional(Type.String()),
    investigation_number: Type.Optional(Type.String()),
    collection_company: Type.Optional(Type.String()),
    contract_number: Type.Optional(Type.String()),
    assignment_date: Type.Optional(Type.String(DATE)),
  },
  { description: 'Case details; fields by report type as D14', additionalProperties: false },
);

export const ReportSchema = Type.Object(
  {
    report_id: Type.Integer(),
    type: Type.String({ enum: [...REPORT_TYPES] }),
    filed_at: Type.String(DATETIME),
    description: Type.String(),
    official: Type.Boolean({ description: 'true for official-file types; false for claims and legacy types' }),
    concordat_start: Type.Optional(Type.String(DATE)),
    concordat_end: Type.Optional(Type.String(DATE)),
    amount: Type.Optional(Type.Number({ description: 'Decimal, 2 places at most' })),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 code' })),
    court_decision_date: Type.Optional(Type.String(DATE)),
    case: Type.Optional(CaseSchema),
  },
  { additionalProperties: false },
);

export const CompanyResultSchema = Type.Object(
  {
    company_name: Type.String(),
    tax_id: Type.String(),
    country: Type.String({ description: '2-letter country code' }),
    city: Type.String(),
    threat_level: Type.Union([Type.Literal('normal'), Type.Literal('high')]),
    report_count: Type.Integer({ description: 'Number of visible active reports = length of reports' }),
    last_updated: Type.String(DATETIME),
    reports: Type.Array(ReportSchema),
  },
  { additionalProperties: false },
);

export const SearchQuerySchema = (countryCodes: readonly string[]) =>
  Type.Object({
    q: Type.String({
      minLength: 3,
      maxLength: 100,
      description: 'Company name or tax ID; trimmed, inner spaces collapsed; 3 to 100 characters',
    }),
    type: Type.Optional(SearchType),
    country: Type.Optional(
      Type.String({ enum: [...countryCodes], description: '2-letter code of a supported country (any case)' }),
    ),
  });

export const SearchResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    query: Type.String(),
    type: SearchType,
    country: Type.Union([Type.String(), Type.Null()]),
    result_count: Type.Integer(),
    results: Type.Array(CompanyResultSchema),
    meta: Type.Object(
      {
        queries_used_today: Type.Integer(),
        daily_limit: Type.Integer(),
        remaining_today: Type.Integer(),
        response_ms: Type.Integer(),
        truncated: Type.Boolean({ description: 'true when more companies matched than are returned (D10)' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const CountriesResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    country_count: Type.Integer(),
    countries: Type.Array(
      Type.Object({
        code: Type.String(),
        name: Type.String(),
        id_types: Type.Array(
          Type.Object({
            type: Type.String(),
            name: Type.String(),
            pattern: Type.String({ description: 'Regular expression for the compact form (no spaces or punctuation)' }),
            example: Type.String(),
            checksum: Type.Boolean(),
          }),
        ),
      }),
    ),
  },
  { additionalProperties: false },
);

/** Error responses as documented in OpenAPI; the body is always ErrorBody. */
export function errorResponses(statuses: readonly number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBodySchema]));
}
