import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../db/schema.ts';

/** One audit record (D21); written in batches by audit-writer.ts. */
export type AuditEntry = Insertable<AuditLogTable>;
