/**
 * The JSON the tests read, typed once: the API's bodies (spec 2.1-2.7, D22, D25), what the CLI
 * prints with --json, and the parts of the OpenAPI document the tests walk. A test names the
 * type where it reads the JSON (`res.json<SearchBody>()`, `readJson<CliKey>(stdout)`), so that
 * a field it asserts on is checked by the compiler instead of being `any`.
 */

export interface ReportBody {
  report_id: number;
  type: string;
  filed_at: string;
  description: string;
  official: boolean;
  amount?: number;
  currency?: string;
  court_decision_date?: string;
  concordat_start?: string;
  concordat_end?: string;
  case?: Record<string, string>;
  disputed: boolean;
  statement?: string;
}

export interface CompanyBody {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  threat_level: 'normal' | 'high';
  report_count: number;
  last_updated: string;
  reports: ReportBody[];
}

export interface NearMatchBody {
  company_name: string;
  tax_id: string;
  country: string;
  city: string;
  threat_level: 'normal' | 'high';
  report_count: number;
  similarity: number;
}

export interface MetaBody {
  queries_used_today: number;
  daily_limit: number;
  remaining_today: number;
  response_ms: number;
  truncated: boolean;
}

/** A 200 answer of a search (spec 2.1). */
export interface SearchBody {
  success: true;
  query: string;
  type: 'name' | 'tax_id';
  country: string | null;
  result_count: number;
  results: CompanyBody[];
  near_matches?: NearMatchBody[];
  meta: MetaBody;
}

/** A name search's answer always carries near_matches (D25). */
export type NameSearchBody = SearchBody & { near_matches: NearMatchBody[] };

/** Every non-2xx answer (spec 2.7, D2). */
export interface ErrorBody {
  success: false;
  error: string;
  code: number;
  reason: string;
  docs: string;
}

export interface IdTypeBody {
  type: string;
  name: string;
  pattern: string;
  example: string;
  checksum: boolean;
}

/** The countries answer (D22). */
export interface CountriesBody {
  success: true;
  country_count: number;
  countries: Array<{ code: string; name: string; id_types: IdTypeBody[] }>;
}

/** A schema in the OpenAPI document, as far as the tests read one. */
export interface SchemaNode {
  $ref?: string;
  type?: string;
  description?: string;
  example?: unknown;
  enum?: unknown[];
  required?: string[];
  minLength?: number;
  maxLength?: number;
  items?: SchemaNode;
  properties: Record<string, SchemaNode>;
  discriminator?: { propertyName: string; mapping: Record<string, string> };
}

export interface ResponseNode {
  content: { 'application/json': { schema: SchemaNode } };
  headers: Record<string, unknown>;
}

export interface OperationNode {
  operationId?: string;
  parameters: Array<{ name: string; required?: boolean; schema: SchemaNode }>;
  /** Every operation answers 200 and 429; other statuses by name. */
  responses: Record<'200' | '429', ResponseNode> & Record<string, ResponseNode | undefined>;
}

/** The models the tests read by name; any other name may be missing. */
type NamedSchemas = Record<
  | 'SearchResponse'
  | 'CompanyResult'
  | 'Report'
  | 'NearMatch'
  | 'ErrorBody'
  | 'BouncedChequeReport'
  | 'BouncedChequeCase'
  | 'EnforcementBillReport'
  | 'UnpaidDebtReport',
  SchemaNode
> &
  Record<string, SchemaNode | undefined>;

/** The OpenAPI document (GET /api/v1/openapi.json). */
export interface OpenApiDoc {
  openapi: string;
  info: { title: string };
  paths: Record<'/api/v1/search.php' | '/api/v1/search', { get: OperationNode }> & Record<string, { get: OperationNode } | undefined>;
  components: { schemas: NamedSchemas; securitySchemes: Record<string, unknown> };
}

/** JSON text (a CLI's stdout, a raw HTTP body) read as the type the test expects. */
export function readJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
