import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** What repository functions take as their first argument: the database or a transaction. */
export type Db = Kysely<Database> | Transaction<Database>;
