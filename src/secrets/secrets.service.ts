/**
 * The sealed secrets as a whole (D35): sealing what an older version stored in clear, re-sealing
 * everything under the ring's newest key (`secrets rotate`), and counting what each key holds
 * (`secrets status`). Walks SECRET_COLUMNS in batches by id; each change is one conditional
 * UPDATE (the value must still be the one read), so a row changed meanwhile by the service is left
 * as that change wrote it, and a rotation can run while servers serve.
 */
import { sql } from 'kysely';
import { keyIdOf, SecretUnreadableError, type KeyRing } from './key-ring.ts';
import { openColumn, SECRET_COLUMNS, sealColumn, type SecretColumn } from './secret-columns.ts';
import type { Db } from '../db/types.ts';
import type { Actor } from '../actors/actor.ts';
import { DomainError } from '../lib/errors.ts';

const BATCH = 500;

interface StoredSecret {
  id: number;
  value: string;
}

/** Every stored (non-null) value of a column, in batches by id. */
async function* storedValues(db: Db, where: SecretColumn): AsyncGenerator<StoredSecret[]> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number | string; value: string }>`
      SELECT id, ${sql.ref(where.column)} AS value FROM ${sql.table(where.table)}
      WHERE ${sql.ref(where.column)} IS NOT NULL AND id > ${after} ORDER BY id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    yield rows.map((r) => ({ id: Number(r.id), value: r.value }));
    after = Number(rows.at(-1)!.id);
  }
}

/** Replaces a value if it is still the one read; true when it was. */
async function replaceValue(db: Db, where: SecretColumn, row: StoredSecret, next: string): Promise<boolean> {
  const result = await sql`UPDATE ${sql.table(where.table)} SET ${sql.ref(where.column)} = ${next}
    WHERE id = ${row.id} AND ${sql.ref(where.column)} = ${row.value}`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/** A stored value the ring cannot open: where, and under which key (never the value). */
export interface UnreadableSecret {
  table: string;
  column: string;
  id: number;
  keyId: string | null;
  reason: string;
  /** What to do if that key is lost (SecretColumn.ifKeyLost). */
  ifKeyLost: string;
}

export interface RotationReport {
  /** Values sealed under an older key, now under the newest. */
  resealed: number;
  /** Values stored in clear by a version before D35, now sealed. */
  sealedFromClear: number;
  /** Already under the newest key. */
  current: number;
  unreadable: UnreadableSecret[];
}

function emptyReport(): RotationReport {
  return { resealed: 0, sealedFromClear: 0, current: 0, unreadable: [] };
}

/**
 * Re-seals every stored secret under the ring's newest key, and seals what older versions stored
 * in clear. Values the ring cannot open are listed, never changed.
 */
export async function rotateSecrets(db: Db, ring: KeyRing): Promise<RotationReport> {
  const report = emptyReport();
  for (const where of SECRET_COLUMNS) {
    for await (const rows of storedValues(db, where)) {
      for (const row of rows) {
        const keyId = keyIdOf(row.value);
        if (keyId === ring.newestId) {
          report.current++;
        } else if (keyId === null && where.legacyPlaintext) {
          if (await replaceValue(db, where, row, sealColumn(ring, where, row.id, row.value))) report.sealedFromClear++;
        } else {
          try {
            const plain = openColumn(ring, where, row.id, row.value);
            if (await replaceValue(db, where, row, sealColumn(ring, where, row.id, plain))) report.resealed++;
          } catch (error) {
            if (!(error instanceof SecretUnreadableError)) throw error;
            report.unreadable.push({ table: where.table, column: where.column, id: row.id, keyId, reason: error.message, ifKeyLost: where.ifKeyLost });
          }
        }
      }
    }
  }
  return report;
}

/** Seals what a version before D35 stored in clear (every start of `serve` runs it). Returns how many. */
export async function sealLegacySecrets(db: Db, ring: KeyRing): Promise<number> {
  let sealed = 0;
  for (const where of SECRET_COLUMNS.filter((c) => c.legacyPlaintext)) {
    for await (const rows of storedValues(db, where)) {
      for (const row of rows) {
        if (keyIdOf(row.value) === null && (await replaceValue(db, where, row, sealColumn(ring, where, row.id, row.value)))) sealed++;
      }
    }
  }
  return sealed;
}

export interface SecretCount {
  table: string;
  column: string;
  what: string;
  /** Key id, or `clear` for values not sealed yet. */
  key: string;
  count: number;
  /** Whether the ring holds that key (false for `clear`). */
  inRing: boolean;
}

/** How many stored secrets each key holds, per column. */
export async function countSecrets(db: Db, ring: KeyRing): Promise<SecretCount[]> {
  const counts: SecretCount[] = [];
  for (const where of SECRET_COLUMNS) {
    const byKey = new Map<string, number>();
    for await (const rows of storedValues(db, where)) {
      for (const row of rows) {
        const key = keyIdOf(row.value) ?? 'clear';
        byKey.set(key, (byKey.get(key) ?? 0) + 1);
      }
    }
    for (const [key, count] of byKey) counts.push({ table: where.table, column: where.column, what: where.what, key, count, inRing: ring.has(key) });
  }
  return counts;
}

/**
 * The use cases of the CLI's `secrets rotate` and `secrets status` (D35), with the ring the
 * caller passed to the composition root; an operator's or the CLI's.
 */
export function createSecrets(deps: { db: Db; keyRing: KeyRing }) {
  const operatorOnly = (actor: Actor) => {
    if (actor.kind !== 'operator' && actor.kind !== 'cli')
      throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
  };
  return {
    rotate: async (actor: Actor): Promise<RotationReport> => {
      operatorOnly(actor);
      return rotateSecrets(deps.db, deps.keyRing);
    },
    count: async (actor: Actor): Promise<SecretCount[]> => {
      operatorOnly(actor);
      return countSecrets(deps.db, deps.keyRing);
    },
  };
}
