import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Indexes for ranked name search at scale (D8, D10): top results without ranking every match.
 * Frozen: its own DDL per engine.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  if (seam.kind === 'sqlite') {
    // Partial (only companies that can be shown) and covering (the words are checked in the
    // index, the table row is read only for a result).
    await sql`CREATE INDEX companies_name_core_visible ON companies (name_core, visible_report_count, id, name_key, country) WHERE visible_report_count > 0`.execute(
      db,
    );
    await sql`CREATE INDEX companies_rank_visible ON companies (visible_report_count DESC, name_core, id, name_key, country) WHERE visible_report_count > 0`.execute(
      db,
    );
  } else {
    // text_pattern_ops: a LIKE 'prefix%' uses the index whatever the database's collation.
    await sql`CREATE INDEX companies_name_core_visible ON companies (name_core text_pattern_ops) INCLUDE (visible_report_count, name_key, country) WHERE visible_report_count > 0`.execute(
      db,
    );
    await sql`CREATE INDEX companies_rank_visible ON companies (visible_report_count DESC, name_core, id) INCLUDE (name_key, country) WHERE visible_report_count > 0`.execute(
      db,
    );
  }
}
