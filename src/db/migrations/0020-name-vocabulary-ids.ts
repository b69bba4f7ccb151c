import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Ids for the names' words (issue 28): each server process keeps a vocabulary of them
 * (search/name-vocabulary.ts) and catches up on the words added since it last looked, by id.
 * Words are only added (migration 0007), and writers of companies queue on the data version's
 * row (migration 0003), so a word committed later has a larger id than every word seen before.
 * Frozen: its own DDL per engine.
 *
 * SQLite: nothing; the words' trigram table (name_word_trigrams, migration 0012), filled by a
 * trigger on every word added, numbers them already (its rowid).
 * PostgreSQL: an identity column on company_name_words (the existing words numbered as they lie)
 * and a unique index on it.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind === 'sqlite') return;
  await sql`ALTER TABLE company_name_words ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY`.execute(db);
  await sql`CREATE UNIQUE INDEX company_name_words_id ON company_name_words (id)`.execute(db);
}
