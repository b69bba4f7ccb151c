/** The one Kysely `Database` type both engines share. Instants are epoch milliseconds. */
import type { Generated } from 'kysely';

export interface MembersTable {
  id: Generated<number>;
  ref: string;
  name: string;
  tier: 'full' | 'associate';
  status: 'active' | 'suspended' | 'terminated';
  /** `YYYY-MM-DD`, or null while the data agreement is unsigned (D15). */
  agreement_signed_on: string | null;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  member_id: number;
  /** SHA-256 hex of the key; the key itself is never stored (D16). */
  digest: string;
  prefix: string;
  daily_limit: number;
  created_at: number;
  revoked_at: number | null;
}

export interface CompaniesTable {
  id: Generated<number>;
  company_name: string;
  /** As imported, for display. */
  tax_id: string;
  /** Canonical form (D9) that searches compare with. */
  tax_id_norm: string;
  country: string;
  city: string;
  /** D8 search key of the name, and the same without legal forms (for ranking). */
  name_key: string;
  name_core: string;
  /** Denormalised count of visible active reports (D12/D13), kept by the report writers. */
  visible_report_count: Generated<number>;
  updated_at: number;
}

export interface ReportsTable {
  id: Generated<number>;
  company_id: number;
  ref: string | null;
  type: string;
  status: string;
  filed_at: number;
  description: string;
  amount_minor: number | null;
  currency: string | null;
  court_decision_date: string | null;
  concordat_start: string | null;
  concordat_end: string | null;
  /** JSON object of the D14 `case` fields, or null. */
  case_json: string | null;
  reported_by: number | null;
  created_at: number;
  updated_at: number;
}

export interface ReportStatusChangesTable {
  id: Generated<number>;
  report_id: number;
  from_status: string | null;
  to_status: string;
  changed_at: number;
  changed_by: string;
}

export interface UsageCountersTable {
  /** `key:<id>` for a key's quota (D18), `addr:<ip>` for the anonymous allowance (D20). */
  subject: string;
  /** Quota day, `YYYY-MM-DD` in Turkey time (D19). */
  day: string;
  used: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  key_id: number | null;
  member_id: number | null;
  q: string | null;
  type: string | null;
  country: string | null;
  status: number;
  result_count: number | null;
  response_ms: number;
  client_address: string;
}

/** One row: bumped by every change to companies or reports (migration 0003), for the search cache. */
export interface DataVersionTable {
  id: number;
  version: number;
}

export interface Database {
  members: MembersTable;
  api_keys: ApiKeysTable;
  companies: CompaniesTable;
  reports: ReportsTable;
  report_status_changes: ReportStatusChangesTable;
  usage_counters: UsageCountersTable;
  audit_log: AuditLogTable;
  data_version: DataVersionTable;
}
