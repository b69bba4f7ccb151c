import { sql, type Kysely } from 'kysely';

/**
 * D29: what each filer typed for the company (its name and city) is kept on the filer's own
 * report, not only on the company, which keeps the values of whoever filed first. Null for
 * imported reports and for reports filed before this migration. Frozen: its own DDL, the same on
 * both engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE reports ADD COLUMN filed_company_name text').execute(db);
  await sql.raw('ALTER TABLE reports ADD COLUMN filed_city text').execute(db);
}
