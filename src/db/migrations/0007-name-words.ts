import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * D25: every word that some company's `name_core` holds, kept by the database itself, so that a
 * misspelt query word is corrected by looking up its one-edit variants (search/near-match-words.ts)
 * on every engine and in every server process, exactly. Words are only added: a word whose last
 * name changed stays, and leads to no candidate. Frozen: its own DDL per engine.
 *
 * SQLite: per-row triggers, quiet while a write session's bulk-load marker is set (the session
 * adds a chunk's words itself, or a fresh load all of them at the end: db/dialect-seam.ts).
 * PostgreSQL: once per statement, from the statement's new rows.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind === 'sqlite') {
    await sql`CREATE TABLE company_name_words (word TEXT PRIMARY KEY) WITHOUT ROWID`.execute(db);
    // Keys hold only letters, digits and single spaces: the JSON array needs no escaping.
    const wordsOf = (core: string) => `json_each('["' || replace(${core}, ' ', '","') || '"]')`;
    await sql
      .raw(
        `CREATE TRIGGER companies_insert_name_words AFTER INSERT ON companies WHEN NOT EXISTS (SELECT 1 FROM fts_bulk_load) BEGIN
        INSERT OR IGNORE INTO company_name_words (word) SELECT value FROM ${wordsOf('new.name_core')} WHERE value <> ''; END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER companies_update_name_words AFTER UPDATE OF name_core ON companies BEGIN
        INSERT OR IGNORE INTO company_name_words (word) SELECT value FROM ${wordsOf('new.name_core')} WHERE value <> ''; END`,
      )
      .execute(db);
    await sql
      .raw(`INSERT OR IGNORE INTO company_name_words (word) SELECT DISTINCT j.value FROM companies c, ${wordsOf('c.name_core')} j WHERE j.value <> ''`)
      .execute(db);
    return;
  }
  await sql`CREATE TABLE company_name_words (word text PRIMARY KEY)`.execute(db);
  // Writers of companies already queue on the data_version row (its trigger, migration 0003,
  // fires first: triggers run in name order), so two transactions never add words at once;
  // word order keeps it so should that change.
  const addWords = (rows: string) => `INSERT INTO company_name_words (word)
    SELECT DISTINCT w FROM ${rows}, unnest(string_to_array(name_core, ' ')) AS w WHERE w <> '' ORDER BY w ON CONFLICT DO NOTHING`;
  await sql
    .raw(
      `CREATE FUNCTION add_inserted_name_words() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${addWords('inserted')}; RETURN NULL; END $$`,
    )
    .execute(db);
  // Most updates of companies change a report count, not the name: only changed names count.
  await sql
    .raw(
      `CREATE FUNCTION add_renamed_name_words() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${addWords('(SELECT n.name_core FROM renamed n JOIN previous o ON o.id = n.id WHERE o.name_core IS DISTINCT FROM n.name_core) AS r')}; RETURN NULL; END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER companies_insert_name_words AFTER INSERT ON companies REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION add_inserted_name_words()`.execute(db);
  await sql`CREATE TRIGGER companies_update_name_words AFTER UPDATE ON companies REFERENCING OLD TABLE AS previous NEW TABLE AS renamed
    FOR EACH STATEMENT EXECUTE FUNCTION add_renamed_name_words()`.execute(db);
  await sql.raw(addWords('companies')).execute(db);
}
