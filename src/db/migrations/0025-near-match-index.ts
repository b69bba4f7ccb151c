import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Near matches' own substring index (D25, issue 28). Frozen: its own DDL per engine.
 *
 * SQLite: near matches' candidates are companies with a visible report (D12) whose `name_key`
 * holds some rare trigrams (db/dialect-seam.ts, `nearMatchIndexQuery`). Asked of
 * company_name_fts (every company), FTS5 stepped through the doclists of every name, hidden ones
 * included (55 % of them at the bench's 10^6), and read each match's row to drop the hidden
 * ones: 3–18 ms a call. `company_near_fts` holds only the visible companies' keys: trigrams
 * (the same tokenizer, so a term matches the same names), no positions (`detail=none`: near
 * matches ask for single trigrams, never a phrase), no content (`content=''`: the rows are
 * read from `companies` by id) and no column sizes (nothing ranks by them). Kept by triggers on
 * `companies`: a row enters when it has a visible report and leaves when it has none, is
 * deleted, or its key changes (FTS5's 'delete' of a contentless table needs the values indexed,
 * which OLD holds). The insert trigger is quiet during a write session's bulk load, whose writer
 * fills the index itself (db/bulk-writer.ts, dialect-seam.ts `rebuildNameIndex`), like
 * company_name_fts's. Filled here in id order: FTS5 takes rows in rowid order far faster (as
 * the partial indexes' name order, 453,631 keys at 10^6 took 15 s of CPU, in id order 2.4 s).
 * PostgreSQL: none (its near matches come from memory, search/all-name-words.ts).
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind !== 'sqlite') return;
  await sql`CREATE VIRTUAL TABLE company_near_fts USING fts5(name_key, content='', columnsize=0, detail='none', tokenize='trigram')`.execute(db);
  await sql`CREATE TRIGGER companies_near_fts_insert AFTER INSERT ON companies
    WHEN new.visible_report_count > 0 AND NOT EXISTS (SELECT 1 FROM fts_bulk_load) BEGIN
      INSERT INTO company_near_fts(rowid, name_key) VALUES (new.id, new.name_key); END`.execute(db);
  await sql`CREATE TRIGGER companies_near_fts_delete AFTER DELETE ON companies WHEN old.visible_report_count > 0 BEGIN
      INSERT INTO company_near_fts(company_near_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key); END`.execute(db);
  await sql`CREATE TRIGGER companies_near_fts_update AFTER UPDATE OF id, name_key, visible_report_count ON companies
    WHEN old.id IS NOT new.id OR old.name_key IS NOT new.name_key OR (old.visible_report_count > 0) IS NOT (new.visible_report_count > 0) BEGIN
      INSERT INTO company_near_fts(company_near_fts, rowid, name_key) SELECT 'delete', old.id, old.name_key WHERE old.visible_report_count > 0;
      INSERT INTO company_near_fts(rowid, name_key) SELECT new.id, new.name_key WHERE new.visible_report_count > 0; END`.execute(db);
  // `+ 0`: not the partial indexes on visible companies (name order), the table in id order.
  await sql`INSERT INTO company_near_fts(rowid, name_key) SELECT id, name_key FROM companies WHERE visible_report_count + 0 > 0 ORDER BY id`.execute(db);
}
