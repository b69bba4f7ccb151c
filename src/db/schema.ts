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
  /**
   * The member's API daily limit (D18 amended: its keys share one day's count and this limit; an
   * operator's change applies at once); null only before its first key = the server's default.
   */
  key_daily_limit: number | null;
  /** Companies the member may watch (D31, operator setting); null = the server's default. */
  watchlist_cap: number | null;
  /** The member's daily portal searches, all its users together (D28 amended); null = the server's default. */
  portal_daily_limit: number | null;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  member_id: number;
  /** SHA-256 hex of the key; the key itself is never stored (D16). */
  digest: string;
  prefix: string;
  /** The member's limit when the key was issued or last changed; the member's own (`key_daily_limit`) applies. */
  daily_limit: number;
  created_at: number;
  revoked_at: number | null;
  /** The last quota day (D19, `YYYY-MM-DD`) the key answered a search; null = never. */
  last_used_day: string | null;
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

/**
 * Every column, named: the statements kept prepared on PostgreSQL (db/prepared.ts) select these
 * instead of `*`, so that a migration adding a column cannot change what a prepared statement
 * returns while servers run.
 */
export const COMPANY_ROW_COLUMNS = [
  'id',
  'company_name',
  'tax_id',
  'tax_id_norm',
  'country',
  'city',
  'name_key',
  'name_core',
  'visible_report_count',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CompaniesTable>;

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
  /** The portal user who filed it (D29); null for imported reports. */
  filed_by_user_id: number | null;
  /** `YYYY-MM-DD` of the underlying event (D29); null for imported reports. */
  event_date: string | null;
  /** The company name and city as this report's filer typed them (D29); null for imported reports. */
  filed_company_name: string | null;
  filed_city: string | null;
  created_at: number;
  updated_at: number;
  /** D34: the Turkey date it ages from (retention-rules.ts); null until the daily job works it out (migration 0018). */
  retention_anchor: string | null;
  /** D34: when the daily job expired it (status `expired`); null otherwise. */
  expired_at: number | null;
  /** 1 while a dispute over it is undecided (D33), kept by the dispute steps; what search shows as `disputed`. */
  disputed: Generated<number>;
  /** The company's statement after a dispute decided `upheld` (D33), shown as `statement`. */
  dispute_statement: string | null;
}

export const REPORT_ROW_COLUMNS = [
  'id',
  'company_id',
  'ref',
  'type',
  'status',
  'filed_at',
  'description',
  'amount_minor',
  'currency',
  'court_decision_date',
  'concordat_start',
  'concordat_end',
  'case_json',
  'reported_by',
  'filed_by_user_id',
  'event_date',
  'filed_company_name',
  'filed_city',
  'created_at',
  'updated_at',
  'retention_anchor',
  'expired_at',
  'disputed',
  'dispute_statement',
] as const satisfies ReadonlyArray<keyof ReportsTable>;

/** Fails to compile when a column is left out of the lists above. */
type Unlisted<T, L extends ReadonlyArray<keyof T>> = Exclude<keyof T, L[number]>;
const everyColumnListed: [Unlisted<CompaniesTable, typeof COMPANY_ROW_COLUMNS>, Unlisted<ReportsTable, typeof REPORT_ROW_COLUMNS>] extends [never, never]
  ? true
  : never = true;
void everyColumnListed;

export interface ReportStatusChangesTable {
  id: Generated<number>;
  report_id: number;
  from_status: string | null;
  to_status: string;
  changed_at: number;
  changed_by: string;
  /** Why (required to reject or deactivate, asked for on withdrawal; D29). */
  reason: string | null;
  changed_by_user_id: number | null;
}

export interface UsageCountersTable {
  /**
   * `member:<id>` for a member's API quota (D18 amended), `addr:<ip>` for the anonymous allowance
   * (D20), `user:<id>` and `portal:member:<id>` for the portal's (D28 amended); see quota/allowance.ts.
   */
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
  /** `api`, `portal` (a user's search, D28) or `cli` (support staff). */
  channel: Generated<string>;
  user_id: number | null;
  /** Who ran a CLI search (the operator's name), null otherwise. */
  actor: string | null;
}

/** One row: bumped by every change to companies or reports (migration 0003), for the search cache. */
export interface DataVersionTable {
  id: number;
  version: number;
}

/** Companies whose searchable fields changed, at the data version of the change (migration 0021); company_id NULL: everything. */
export interface CompanyChangesTable {
  version: number;
  company_id: number | null;
}

export type UserRole = 'member_admin' | 'member_user' | 'operator';
export type UserStatus = 'invited' | 'active' | 'disabled';

/** People who sign in to the portal (D27). */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** Case-folded email; unique. */
  email_norm: string;
  name: string;
  role: UserRole;
  /** The member of a member_admin or member_user; null for operators. */
  member_id: number | null;
  status: UserStatus;
  password_hash: string | null;
  /** Operators' TOTP seed, sealed under the key ring (D35; src/secrets/secret-columns.ts). */
  totp_secret: string | null;
  totp_last_step: number | null;
  created_at: number;
  updated_at: number;
}

/** One-time invitation and reset links (D27); only a digest is kept. */
export interface UserTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'invite' | 'reset';
  digest: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  created_by: string;
  /** An operator's link: the new TOTP seed its acceptance enrols, sealed under the key ring (D35). */
  totp_secret: string | null;
}

/** Browsers that signed in before (issue 27, finding 6): the digest of each device cookie's token. */
export interface TrustedDevicesTable {
  id: Generated<number>;
  user_id: number;
  digest: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

/** Server-side sessions (D27); only a digest of the id is kept. */
export interface SessionsTable {
  id: Generated<number>;
  digest: string;
  user_id: number;
  csrf_token: string;
  locale: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ended_at: number | null;
}

export interface SignInFailuresTable {
  id: Generated<number>;
  /** `email:<norm>`, `addr:<ip>` (browsers without a device cookie) or `device:<trusted_devices.id>`. */
  subject: string;
  at: number;
}

export interface AgreementSignaturesTable {
  id: Generated<number>;
  member_id: number;
  user_id: number | null;
  version: string;
  signed_at: number;
}

export interface ReportAttachmentsTable {
  id: Generated<number>;
  report_id: number;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  content: Buffer;
  created_at: number;
}

/** Append-only (the database refuses updates and deletes): every operator action (D30). */
export interface OperatorLogTable {
  id: Generated<number>;
  at: number;
  user_id: number | null;
  actor: string;
  action: string;
  target: string;
  before_json: string | null;
  after_json: string | null;
}

/** Every word of some company's `name_core` (migration 0007, D25): kept by triggers, only added. */
export interface CompanyNameWordsTable {
  word: string;
}

/**
 * Background work (src/jobs/, migration 0011): a periodic job's next due instant and who holds
 * its run, or a lease (SQLite: the one process that runs background work).
 */
export interface JobStateTable {
  name: string;
  next_due_at: number | null;
  holder: string | null;
  claim_token: string | null;
  lease_until: number | null;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_error: string | null;
}

export type WebhookEndpointStatus = 'enabled' | 'disabled';

/** A member's webhook receivers (D32); secrets sealed under the key ring (D35). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  member_id: number;
  url: string;
  description: string;
  status: WebhookEndpointStatus;
  /** Why it was disabled, in words for the portal; null while enabled. */
  disabled_reason: string | null;
  disabled_at: number | null;
  secret_sealed: string;
  /** After a rotation: the previous secret, which signs too until `previous_secret_until`. */
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  created_by_user_id: number | null;
  created_at: number;
  updated_at: number;
}

export type WebhookDeliveryState = 'pending' | 'delivering' | 'succeeded' | 'failed';

/** One message to one endpoint (D32): the delivery queue, kept 30 days. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  /** The `webhook-id` header: the event's stable id. */
  webhook_id: string;
  event_type: string;
  /** The exact body of every attempt. */
  payload: string;
  state: WebhookDeliveryState;
  /** Attempts finished since the delivery (or its redelivery) began. */
  attempts: Generated<number>;
  next_attempt_at: number;
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  claimed_by: string | null;
  claim_token: string | null;
  claim_until: number | null;
  created_at: number;
  finished_at: number | null;
}

/** A member watches a company by country and normalised tax ID (D31); the company need not exist. */
export interface WatchlistTable {
  member_id: number;
  country: string;
  tax_id_norm: string;
  created_at: number;
}

/** What a search answered about a watched company at its last change (D31's baseline). */
export interface WatchedCompaniesTable {
  country: string;
  tax_id_norm: string;
  threat_level: string | null;
  report_count: number;
  /** The visible reports' ids, ascending, comma-separated ('' for none). */
  visible_ids: string;
  created_at: number;
  updated_at: number;
}

/** `company.changed` events (D31), one per watching member; the id orders the feed. Kept 30 days. */
export interface CompanyEventsTable {
  id: Generated<number>;
  member_id: number;
  country: string;
  tax_id_norm: string;
  threat_before: string | null;
  threat_after: string | null;
  count_before: number;
  count_after: number;
  /** Comma-separated kinds of change. */
  kinds: string;
  occurred_at: number;
}

/** One row that event writers update first: ids in commit order (migration 0016). */
export interface EventFeedHeadTable {
  id: number;
  events_written: number;
  updated_at: number;
}

/** A dispute by the reported company (D33, migration 0017). */
export interface DisputesTable {
  id: Generated<number>;
  company_id: number;
  state: 'open' | 'awaiting_member' | 'decided';
  outcome: 'upheld' | 'corrected' | 'removed' | null;
  identification_method: string;
  identification_reference: string;
  /** `YYYY-MM-DD`, Turkey time: the day the company's request reached the bureau. */
  received_on: string;
  grounds: string;
  members_told_at: number | null;
  decision_reason: string | null;
  decided_at: number | null;
  statement: string | null;
  recorded_by_user_id: number | null;
  /** Bumped by every step; a step's update holds only if it is still the version read. */
  version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface DisputeReportsTable {
  dispute_id: number;
  report_id: number;
  filing_member_id: number | null;
  response: string;
  response_text: string | null;
  responded_at: number | null;
  responded_by_user_id: number | null;
  /** 1 while the dispute is undecided, null after (unique with report_id: one undecided dispute per report). */
  undecided: number | null;
}

export interface DisputeAttachmentsTable {
  id: Generated<number>;
  dispute_id: number;
  /** The report a member's supporting document is about; null for the company's documents. */
  report_id: number | null;
  /** The member whose users may download it; null: operators only. */
  member_id: number | null;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  content: Buffer;
  created_at: number;
}

export interface DisputeStepsTable {
  id: Generated<number>;
  dispute_id: number;
  step: string;
  report_id: number | null;
  at: number;
  by_label: string;
  user_id: number | null;
  from_state: string | null;
  to_state: string;
  text: string | null;
}

/** Per company and Turkey month `YYYY-MM`: how many searches had it among their results (D34's disclosure; migration 0018). */
export interface CompanyLookupsTable {
  company_id: number;
  month: string;
  lookups: number;
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
  company_changes: CompanyChangesTable;
  users: UsersTable;
  user_tokens: UserTokensTable;
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  trusted_devices: TrustedDevicesTable;
  agreement_signatures: AgreementSignaturesTable;
  report_attachments: ReportAttachmentsTable;
  operator_log: OperatorLogTable;
  company_name_words: CompanyNameWordsTable;
  job_state: JobStateTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  watchlist: WatchlistTable;
  watched_companies: WatchedCompaniesTable;
  company_events: CompanyEventsTable;
  event_feed_head: EventFeedHeadTable;
  disputes: DisputesTable;
  dispute_reports: DisputeReportsTable;
  dispute_attachments: DisputeAttachmentsTable;
  dispute_steps: DisputeStepsTable;
  company_lookups: CompanyLookupsTable;
}
