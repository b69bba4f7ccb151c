import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * A log of the companies whose searchable fields changed (issue 28), so that each server
 * process keeps its in-memory index of the searchable names (search/visible-names-keeper.ts)
 * exactly current: it reads the rows logged since the data version it last applied.
 *
 * Each row carries the data version that its own change's bump produced, taken under the
 * data_version row lock (migration 0003). A writer holds that lock until its commit, so versions
 * follow commit order on both engines (a sequence would not: ids are taken before commit, in
 * any order): once a reader sees version V committed, every change logged at V or below is
 * committed and visible to its next statement. A rolled-back change leaves no row.
 *
 * `company_id` NULL: everything may have changed (a write session's bulk load, a TRUNCATE, the
 * log's purge): a reader behind that row builds its index again from `companies`.
 *
 * Logged: a company inserted or deleted, and an update of `name_key`, `name_core`, `country` or
 * `visible_report_count` (what the index holds). Quiet during a write session's bulk load (the
 * session logs one NULL row instead). Frozen: its own DDL per engine.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await sql`CREATE TABLE company_changes (version bigint NOT NULL, company_id bigint)`.execute(db);
  await sql`CREATE INDEX company_changes_version ON company_changes (version)`.execute(db);
  if (seam.kind === 'sqlite') {
    // Per row: its own bump first, then the row at the bumped version (the order of this body is
    // defined; the order of two triggers is not).
    const body = (id: string) => `BEGIN
        UPDATE data_version SET version = version + 1 WHERE id = 1;
        INSERT INTO company_changes (version, company_id) SELECT version, ${id} FROM data_version WHERE id = 1;
      END`;
    const quiet = 'NOT EXISTS (SELECT 1 FROM fts_bulk_load)';
    await sql.raw(`CREATE TRIGGER companies_insert_changes AFTER INSERT ON companies WHEN ${quiet} ${body('NEW.id')}`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER companies_update_changes AFTER UPDATE ON companies WHEN ${quiet}
        AND (OLD.name_key IS NOT NEW.name_key OR OLD.name_core IS NOT NEW.name_core OR OLD.country IS NOT NEW.country
          OR OLD.visible_report_count IS NOT NEW.visible_report_count OR OLD.id IS NOT NEW.id) ${body('NEW.id')}`,
      )
      .execute(db);
    await sql.raw(`CREATE TRIGGER companies_delete_changes AFTER DELETE ON companies WHEN ${quiet} ${body('OLD.id')}`).execute(db);
    return;
  }
  // PostgreSQL: once per statement, from its transition tables; quiet while a write session's
  // bulk-load setting is on (dialect-seam.ts, markBulkLoad).
  await sql`CREATE FUNCTION log_company_changes() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE v bigint;
    BEGIN
      IF current_setting('risklookup.bulk_load', true) = 'on' THEN RETURN NULL; END IF;
      UPDATE data_version SET version = version + 1 WHERE id = 1 RETURNING version INTO v;
      IF TG_OP = 'TRUNCATE' THEN
        INSERT INTO company_changes (version, company_id) VALUES (v, NULL);
      ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO company_changes (version, company_id) SELECT v, id FROM new_rows;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO company_changes (version, company_id) SELECT v, id FROM old_rows;
      ELSE
        INSERT INTO company_changes (version, company_id)
          SELECT v, n.id FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
          WHERE o.id IS NULL OR (n.name_key, n.name_core, n.country, n.visible_report_count)
            IS DISTINCT FROM (o.name_key, o.name_core, o.country, o.visible_report_count)
          UNION SELECT v, o.id FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER companies_insert_changes AFTER INSERT ON companies REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION log_company_changes()`.execute(db);
  await sql`CREATE TRIGGER companies_update_changes AFTER UPDATE ON companies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION log_company_changes()`.execute(db);
  await sql`CREATE TRIGGER companies_delete_changes AFTER DELETE ON companies REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION log_company_changes()`.execute(db);
  await sql`CREATE TRIGGER companies_truncate_changes AFTER TRUNCATE ON companies
    FOR EACH STATEMENT EXECUTE FUNCTION log_company_changes()`.execute(db);
}
