import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';

export type AuditEntry = Insertable<AuditLogTable>;

export async function insertAuditEntry(db: Db, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}
