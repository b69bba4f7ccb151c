import type { Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/** Indexes for ranked name search at scale (D8, D10): top results without ranking every match. */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await seam.createNameRankIndexes(db);
}
