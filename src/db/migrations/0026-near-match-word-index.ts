import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Near matches' own word index (D25, issue 28). Frozen: its own DDL per engine.
 *
 * SQLite: a misspelt word's corrections that few names hold are looked up as whole words of
 * `name_core` (db/dialect-seam.ts, `nearMatchWordQuery`), and each name found is kept when its
 * company has a visible report (D12) and holds the other words. Asked of company_word_fts
 * (every company), most postings led to rows that were hidden (55 % of companies at the bench's
 * 10^6) or lacked the other words, each row read to find out: 0.55 ms a statement, and on
 * average no row kept (docs/benchmarks.md, "tenth pass"). `company_near_word_fts` holds only the
 * visible companies' `name_core`: the same tokenizer as company_word_fts (a term matches the
 * same names), no positions (`detail=none`: the statement asks for an AND of whole words, never
 * a phrase), no content (`content=''`: the rows are read from `companies` by id) and no column
 * sizes. Kept like migration 0025's `company_near_fts`: by triggers on `companies` (a row enters
 * when it has a visible report, leaves when it has none, is deleted, or its `name_core`
 * changes; FTS5's 'delete' of a contentless table takes the values indexed, which OLD holds), the
 * insert trigger quiet during a write session's bulk load, whose writer fills the index itself.
 * Filled here in id order, which FTS5 takes far faster. PostgreSQL: none.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind !== 'sqlite') return;
  await sql`CREATE VIRTUAL TABLE company_near_word_fts USING fts5(name_core, content='', columnsize=0, detail='none', tokenize='unicode61 remove_diacritics 0')`.execute(
    db,
  );
  await sql`CREATE TRIGGER companies_near_word_fts_insert AFTER INSERT ON companies
    WHEN new.visible_report_count > 0 AND NOT EXISTS (SELECT 1 FROM fts_bulk_load) BEGIN
      INSERT INTO company_near_word_fts(rowid, name_core) VALUES (new.id, new.name_core); END`.execute(db);
  await sql`CREATE TRIGGER companies_near_word_fts_delete AFTER DELETE ON companies WHEN old.visible_report_count > 0 BEGIN
      INSERT INTO company_near_word_fts(company_near_word_fts, rowid, name_core) VALUES ('delete', old.id, old.name_core); END`.execute(db);
  await sql`CREATE TRIGGER companies_near_word_fts_update AFTER UPDATE OF id, name_core, visible_report_count ON companies
    WHEN old.id IS NOT new.id OR old.name_core IS NOT new.name_core OR (old.visible_report_count > 0) IS NOT (new.visible_report_count > 0) BEGIN
      INSERT INTO company_near_word_fts(company_near_word_fts, rowid, name_core) SELECT 'delete', old.id, old.name_core WHERE old.visible_report_count > 0;
      INSERT INTO company_near_word_fts(rowid, name_core) SELECT new.id, new.name_core WHERE new.visible_report_count > 0; END`.execute(db);
  // `+ 0`: not the partial indexes on visible companies (name order), the table in id order.
  await sql`INSERT INTO company_near_word_fts(rowid, name_core) SELECT id, name_core FROM companies WHERE visible_report_count + 0 > 0 ORDER BY id`.execute(db);
}
