import type { Db } from '../db/types.ts';
import { hasForbiddenCharacters } from '../lib/bidi-controls.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { DomainError } from '../lib/errors.ts';
import type { MembersTable } from '../db/schema.ts';
import type { Insertable, Selectable, Updateable } from 'kysely';

export type MemberRow = Selectable<MembersTable>;

/** Inserts a member; a ref already taken is a DomainError('conflict'). */
export async function insertMember(db: Db, member: Insertable<MembersTable>): Promise<MemberRow> {
  try {
    return await db.insertInto('members').values(member).returningAll().executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', `member ${member.ref} already exists; change it with 'member set'`, {
        code: 'member.ref_taken',
        params: { ref: member.ref },
      });
    }
    throw error;
  }
}

export async function findMemberByRef(db: Db, ref: string): Promise<MemberRow | undefined> {
  // No ref holds one (members.service.ts), and PostgreSQL refuses a NUL in a parameter: none matches.
  if (hasForbiddenCharacters(ref)) return undefined;
  return db.selectFrom('members').selectAll().where('ref', '=', ref).executeTakeFirst();
}

export async function findMemberIdsByRefs(db: Db, refs: readonly string[]): Promise<Map<string, number>> {
  if (refs.length === 0) return new Map();
  const rows = await db.selectFrom('members').select(['id', 'ref']).where('ref', 'in', refs).execute();
  return new Map(rows.map((r) => [r.ref, Number(r.id)]));
}

export async function updateMember(db: Db, id: number, changes: Updateable<MembersTable>): Promise<MemberRow> {
  return db.updateTable('members').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function listMembers(db: Db): Promise<MemberRow[]> {
  return db.selectFrom('members').selectAll().orderBy('ref').execute();
}

export async function countMembers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the member's row lock until the transaction ends (a no-op update: PostgreSQL locks the
 * row, SQLite runs one write transaction at a time anyway), so that a per-member cap checked
 * before an insert holds under concurrency. False when there is no such member.
 */
export async function lockMemberRow(db: Db, memberId: number): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('id', '=', memberId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
