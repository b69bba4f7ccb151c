import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * SQLite's name indexes merged into one segment each (issue 28). Frozen: its own list of indexes.
 *
 * An import into an empty database left each FTS5 index of the names in 6–9 segments (FTS5 writes
 * one per megabyte of pending terms and per statement, and merges four of a level), and FTS5 looks
 * every query term up in each: near matches' candidates took 1.7–1.9 ms a statement at 10^6
 * against 1.1 ms from one segment (docs/benchmarks.md, "The name indexes in one segment"). A
 * fresh load now ends with `optimize` (dialect-seam.ts, compactNameIndexes); this gives a database
 * loaded before the same, once: at 10^6 5.1 s (2.4 s user, 1.3 s system CPU) for the five, the
 * file ~5 MB larger and ~7 MB of its pages free for later writes. PostgreSQL: nothing (its
 * trigram index is a GIN index).
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind !== 'sqlite') return;
  for (const index of ['company_name_fts', 'company_word_fts', 'company_near_fts', 'company_near_word_fts', 'name_word_trigrams']) {
    await sql`INSERT INTO ${sql.table(index)} (${sql.ref(index)}) VALUES ('optimize')`.execute(db);
  }
}
