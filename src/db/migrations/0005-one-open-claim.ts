import { sql, type Kysely } from 'kysely';

/**
 * D29: a member has at most one pending or active (approved) `unpaid_debt` per company. The
 * database enforces it, so that two filings at once cannot both pass a check made before the
 * insert. The index covers reports filed through the portal (filed_by_user_id set): imported
 * history (D24) may hold several claims of one member on a company (D12 counts them once), and
 * must keep importing; the filing service also refuses a filing while such an imported claim is
 * open. Frozen: its own DDL, the same on both engines (both have partial indexes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const onlyOpenFiledClaims = `type = 'unpaid_debt' AND status IN ('pending', 'approved') AND filed_by_user_id IS NOT NULL`;
  await sql.raw(`CREATE UNIQUE INDEX reports_one_open_claim ON reports (reported_by, company_id) WHERE ${onlyOpenFiledClaims}`).execute(db);
}
