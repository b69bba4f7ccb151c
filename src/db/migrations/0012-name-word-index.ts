import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Name search by words (D8, issue 28): a query word is looked up among the distinct words of the
 * names (company_name_words, migration 0007) by a trigram index over those words, and the names
 * holding the words found come from a word index (word → companies). A fresh distinctive word
 * made of common syllables (`buraymertas`) meets a few hundred words instead of the tens of
 * thousands of names that hold its rarest trigram. Frozen: its own DDL per engine.
 *
 * SQLite: `company_word_fts`, FTS5 over `name_core` with a word tokenizer (no diacritics folded:
 * keys are folded already, and a token must be the word itself), kept like company_name_fts
 * (per-row triggers, quiet while a write session's bulk-load marker is set); `name_word_trigrams`,
 * FTS5 trigrams of company_name_words' words (detail none: looked up by AND of trigrams, then
 * checked whole), filled by a trigger on that table (words are only added).
 * PostgreSQL: none (see the end of `up`).
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE company_word_fts USING fts5(name_core, content='companies', content_rowid='id', tokenize='unicode61 remove_diacritics 0')`.execute(
      db,
    );
    await sql`CREATE TRIGGER companies_word_fts_insert AFTER INSERT ON companies WHEN NOT EXISTS (SELECT 1 FROM fts_bulk_load) BEGIN
      INSERT INTO company_word_fts(rowid, name_core) VALUES (new.id, new.name_core); END`.execute(db);
    await sql`CREATE TRIGGER companies_word_fts_delete AFTER DELETE ON companies BEGIN
      INSERT INTO company_word_fts(company_word_fts, rowid, name_core) VALUES ('delete', old.id, old.name_core); END`.execute(db);
    await sql`CREATE TRIGGER companies_word_fts_update AFTER UPDATE OF name_core ON companies BEGIN
      INSERT INTO company_word_fts(company_word_fts, rowid, name_core) VALUES ('delete', old.id, old.name_core);
      INSERT INTO company_word_fts(rowid, name_core) VALUES (new.id, new.name_core); END`.execute(db);
    await sql`INSERT INTO company_word_fts(company_word_fts) VALUES ('rebuild')`.execute(db);
    await sql`CREATE VIRTUAL TABLE name_word_trigrams USING fts5(word, tokenize='trigram', detail='none')`.execute(db);
    await sql`CREATE TRIGGER company_name_words_trigrams AFTER INSERT ON company_name_words BEGIN
      INSERT INTO name_word_trigrams(word) VALUES (new.word); END`.execute(db);
    await sql`INSERT INTO name_word_trigrams(word) SELECT word FROM company_name_words`.execute(db);
  }
  // PostgreSQL: nothing. A GIN trigram index over the words and a GIN index of name_core's words
  // were measured at 10^6 and left out: the trigram look-up among 396,000 words intersected
  // posting lists of common trigrams (`ata`: 6.2 ms, 358 buffers, for one word), and a fresh
  // distinctive word cost PostgreSQL 31.8 ms of CPU against ~6 for other fresh names
  // (docs/benchmarks.md). Its substring index with each word's rarest trigram stays.
}
