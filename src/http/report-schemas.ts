/**
 * The `Report` schema (spec 2.3, D14) as a union discriminated by `type`: one named schema per
 * report type, each with only the fields that type carries, built from the tables in
 * reports/report-types.ts so that the document cannot drift from the rule.
 */
import { Type, type TSchema } from 'typebox';
import {
  CASE_DATE_FIELDS,
  CASE_FIELDS,
  CONCORDAT_TYPES,
  COURT_DECISION_DATE_TYPES,
  isOfficialType,
  REPORT_TYPES,
  type ReportType,
} from '../reports/report-types.ts';

export const DATE = { pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' };
export const DATETIME = {
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: 'YYYY-MM-DD HH:MM:SS, Turkey time (UTC+3, D4)',
};

/** Component name of a schema, e.g. `bounced_cheque` → `BouncedChequeReport`. */
function pascal(snake: string): string {
  return snake.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
}

const CASE_DESCRIPTIONS: Record<string, string> = {
  enforcement_office: 'Enforcement office (icra dairesi) that holds the file',
  file_number: 'File number at that office',
  date: 'Date the file was opened',
  prosecutor_office: "Public prosecutor's office the complaint went to",
  investigation_number: 'Investigation number there',
  collection_company: 'Company the debt was assigned (sold) to',
  contract_number: 'Assignment contract number',
  assignment_date: 'Date of the assignment',
};

const CASE_EXAMPLES: Record<string, string> = {
  enforcement_office: 'İstanbul 12. İcra Dairesi',
  file_number: '2026/18342',
  date: '2026-03-02',
  prosecutor_office: 'İstanbul Cumhuriyet Başsavcılığı',
  investigation_number: '2025/48213',
  collection_company: 'Anadolu Varlık Yönetim A.Ş.',
  contract_number: 'TML-2026-114',
  assignment_date: '2026-05-18',
};

/** The case schemas, one per distinct field list: EnforcementCase, BouncedChequeCase, DebtAssignedCase. */
const CASES = new Map<readonly string[], { name: string; types: ReportType[] }>();
for (const type of REPORT_TYPES) {
  const fields = CASE_FIELDS[type];
  if (!fields) continue;
  const entry = CASES.get(fields) ?? { name: '', types: [] };
  entry.types.push(type);
  entry.name = entry.types.length > 1 ? `${pascal(type.split('_')[0]!)}Case` : `${pascal(type)}Case`;
  CASES.set(fields, entry);
}

export const CASE_SCHEMAS: TSchema[] = [...CASES].map(([fields, { name, types }]) =>
  Type.Object(
    Object.fromEntries(
      fields.map((f) => [
        f,
        Type.Optional(Type.String({ description: CASE_DESCRIPTIONS[f] ?? f, ...(CASE_DATE_FIELDS.has(f) ? { pattern: DATE.pattern } : {}) })),
      ]),
    ),
    {
      $id: name,
      description: `Case details of ${types.map((t) => `\`${t}\``).join(', ')} reports (D14). Fields the association does not know are absent.`,
      example: Object.fromEntries(fields.map((f) => [f, CASE_EXAMPLES[f] ?? ''])),
      additionalProperties: false,
    },
  ),
);

function caseSchemaName(type: ReportType): string | undefined {
  const fields = CASE_FIELDS[type];
  return fields ? CASES.get(fields)?.name : undefined;
}

const TYPE_DESCRIPTIONS: Record<ReportType, string> = {
  enforcement_judgment: 'Enforcement proceedings based on a court judgment (ilamlı icra)',
  enforcement_bill: 'Enforcement proceedings based on a bill of exchange or cheque (kambiyo senedi)',
  bounced_cheque: 'A cheque without cover, with a complaint to the public prosecutor',
  debt_assigned: 'A debt assigned (sold) to a collection company',
  enforcement_plain: 'Enforcement proceedings without a judgment (ilamsız icra)',
  unpaid_debt: "A member's claim of an unpaid invoice; shown only when several members or an official file agree (D12)",
  concordat: 'A concordat (konkordato): court-granted protection from creditors for a period',
  court_decision: 'A court decision about the company',
};

export function reportExample(type: ReportType): Record<string, unknown> {
  const example: Record<string, unknown> = {
    report_id: 4182,
    type,
    filed_at: '2026-05-20 10:30:00',
    description: 'Ödenmeyen navlun faturası için icra takibi başlatıldı.',
    official: isOfficialType(type),
    amount: 72000.5,
    currency: 'TRY',
  };
  if (COURT_DECISION_DATE_TYPES.has(type)) example.court_decision_date = '2026-04-14';
  if (CONCORDAT_TYPES.has(type)) Object.assign(example, { concordat_start: '2026-02-01', concordat_end: '2027-01-31' });
  const fields = CASE_FIELDS[type];
  if (fields) example.case = Object.fromEntries(fields.map((f) => [f, CASE_EXAMPLES[f] ?? '']));
  example.disputed = false;
  return example;
}

function reportBranch(type: ReportType): TSchema {
  const caseName = caseSchemaName(type);
  return Type.Object(
    {
      report_id: Type.Integer({ description: 'Stable identifier of the report' }),
      type: Type.Literal(type),
      filed_at: Type.String({ ...DATETIME, description: `When the report was filed; ${DATETIME.description}` }),
      description: Type.String({ description: 'What happened, as filed' }),
      official: Type.Literal(isOfficialType(type), {
        description: 'true for the five official-file types; false for claims and legacy types (D12)',
      }),
      ...(CONCORDAT_TYPES.has(type)
        ? {
            concordat_start: Type.Optional(Type.String({ ...DATE, description: 'First day of the concordat period' })),
            concordat_end: Type.Optional(Type.String({ ...DATE, description: 'Last day of the concordat period' })),
          }
        : {}),
      amount: Type.Optional(Type.Number({ description: 'Amount at stake, 2 decimals at most; present together with currency' })),
      currency: Type.Optional(Type.String({ description: 'ISO 4217 code of amount', pattern: '^[A-Z]{3}$' })),
      ...(COURT_DECISION_DATE_TYPES.has(type)
        ? { court_decision_date: Type.Optional(Type.String({ ...DATE, description: 'Date of the court decision' })) }
        : {}),
      ...(caseName ? { case: Type.Optional(Type.Ref(caseName)) } : {}),
      disputed: Type.Boolean({
        description:
          'true while the reported company disputes this report (D33): the bureau is reviewing it, and it stays shown as before until decided; false otherwise',
      }),
      statement: Type.Optional(
        Type.String({
          maxLength: 500,
          description:
            "The reported company's own statement, at most 500 characters, added after a dispute was decided with the report upheld (D33); absent when none",
        }),
      ),
    },
    {
      $id: `${pascal(type)}Report`,
      description: `\`${type}\`: ${TYPE_DESCRIPTIONS[type]}.`,
      example: reportExample(type),
      additionalProperties: false,
    },
  );
}

export const REPORT_BRANCH_SCHEMAS: TSchema[] = REPORT_TYPES.map(reportBranch);

export const ReportSchema = Type.Union(
  REPORT_TYPES.map((t) => Type.Ref(`${pascal(t)}Report`)),
  {
    $id: 'Report',
    description:
      'One visible active risk report (spec 2.3). `type` decides which fields it carries (D14): ' +
      '`case` on the enforcement types, `bounced_cheque` and `debt_assigned`; `court_decision_date` on ' +
      '`enforcement_judgment` and `court_decision`; `concordat_start`/`concordat_end` on `concordat`; ' +
      '`amount` with `currency` on any report whose amount is known. Absent fields are left out, never null. ' +
      'Every report carries `disputed` (D33); `statement` only when the company added one after an upheld dispute.',
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(REPORT_TYPES.map((t) => [t, `#/components/schemas/${pascal(t)}Report`])),
    },
    example: reportExample('bounced_cheque'),
  },
);
