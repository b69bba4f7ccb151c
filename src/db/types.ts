import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The database, or a transaction of it (Kysely's `Transaction` is a `Kysely`): what services and
 * repositories take. One name for both (issue 29); a use case that must run in its own
 * transaction opens one with `db.transaction()`.
 */
export type Db = Kysely<Database>;
