/**
 * Where sealed secrets live (D35): every column that holds a secret sealed under the key ring.
 * `risklookup secrets rotate` and `secrets status` walk this list, so a feature that stores a new
 * kind of secret adds one line here (its table needs an integer `id`), seals with `sealColumn` and
 * opens with `openColumn`; the ring and the rotation do not change. (Webhook signing secrets,
 * D32, will be the next line.)
 */
import type { Database } from '../db/schema.ts';
import { sealContext, type KeyRing } from './key-ring.ts';

export interface SecretColumn {
  table: keyof Database;
  column: string;
  /** What the column holds, for the operator's eyes (`secrets status`). */
  what: string;
  /** Rows written before D35 hold the secret in clear; they are sealed at start and by `rotate`. */
  legacyPlaintext: boolean;
}

export const USER_TOTP_SEED = { table: 'users', column: 'totp_secret', what: "operators' TOTP seeds", legacyPlaintext: true } as const satisfies SecretColumn;
export const LINK_TOTP_SEED = {
  table: 'user_tokens',
  column: 'totp_secret',
  what: "TOTP seeds waiting in operators' one-time links",
  legacyPlaintext: false,
} as const satisfies SecretColumn;

export const SECRET_COLUMNS: readonly SecretColumn[] = [USER_TOTP_SEED, LINK_TOTP_SEED];

/** Seals a secret for its column and row. */
export function sealColumn(ring: KeyRing, where: SecretColumn, rowId: number, plaintext: string): string {
  return ring.seal(plaintext, sealContext(where.table, where.column, rowId));
}

/** Opens a secret sealed for its column and row (SecretUnreadableError when the ring cannot). */
export function openColumn(ring: KeyRing, where: SecretColumn, rowId: number, sealed: string): string {
  return ring.open(sealed, sealContext(where.table, where.column, rowId));
}
