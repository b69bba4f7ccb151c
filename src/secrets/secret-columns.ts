/**
 * Where sealed secrets live (D35): every column that holds a secret sealed under the key ring.
 * `risklookup secrets rotate` and `secrets status` walk this list, so a feature that stores a new
 * kind of secret adds one line here (its table needs an integer `id`), seals with `sealColumn` and
 * opens with `openColumn`; the ring and the rotation do not change.
 */
import type { Database } from '../db/schema.ts';
import { sealContext, type KeyRing } from './key-ring.ts';

export interface SecretColumn {
  table: keyof Database;
  column: string;
  /**
   * The column name a value is bound to, when not its own. The two signing secrets of a webhook
   * endpoint share `secret_sealed`: a rotation moves the current secret into
   * `previous_secret_sealed` in one statement, and it must open there. The binding to the table
   * and the row stays; only a swap between one endpoint's own two secrets is not detected, which
   * gives nobody anything.
   */
  sealedAs?: string;
  /** What the column holds, for the operator's eyes (`secrets status`). */
  what: string;
  /** What to do for a value whose key is lost (`secrets rotate` says it when it finds one). */
  ifKeyLost: string;
  /** Rows written before D35 hold the secret in clear; they are sealed at start and by `rotate`. */
  legacyPlaintext: boolean;
}

export const USER_TOTP_SEED = {
  table: 'users',
  column: 'totp_secret',
  what: "operators' TOTP seeds",
  ifKeyLost: "issue those operators a reset link ('risklookup user reset EMAIL')",
  legacyPlaintext: true,
} as const satisfies SecretColumn;
export const LINK_TOTP_SEED = {
  table: 'user_tokens',
  column: 'totp_secret',
  what: "TOTP seeds waiting in operators' one-time links",
  ifKeyLost: "issue those operators a new link (a reset link: 'risklookup user reset EMAIL')",
  legacyPlaintext: false,
} as const satisfies SecretColumn;
/** Listed before the previous secret: a rotation during `secrets rotate` moves a value the walk of this column re-sealed, or one the next walk still finds. */
export const WEBHOOK_SECRET = {
  table: 'webhook_endpoints',
  column: 'secret_sealed',
  what: 'webhook signing secrets',
  ifKeyLost: "the endpoint's member administrator rotates its signing secret and gives the new one to the receiver (its deliveries wait meanwhile)",
  legacyPlaintext: false,
} as const satisfies SecretColumn;
export const WEBHOOK_PREVIOUS_SECRET = {
  table: 'webhook_endpoints',
  column: 'previous_secret_sealed',
  sealedAs: 'secret_sealed',
  what: 'previous webhook signing secrets, signing 24 h after a rotation',
  ifKeyLost: 'nothing: deliveries are signed with the current secret only, and the previous one is forgotten a day after its 24 hours',
  legacyPlaintext: false,
} as const satisfies SecretColumn;

export const SECRET_COLUMNS: readonly SecretColumn[] = [USER_TOTP_SEED, LINK_TOTP_SEED, WEBHOOK_SECRET, WEBHOOK_PREVIOUS_SECRET];

function contextOf(where: SecretColumn, rowId: number): string {
  return sealContext(where.table, where.sealedAs ?? where.column, rowId);
}

/** Seals a secret for its column and row. */
export function sealColumn(ring: Pick<KeyRing, 'seal'>, where: SecretColumn, rowId: number, plaintext: string): string {
  return ring.seal(plaintext, contextOf(where, rowId));
}

/** Opens a secret sealed for its column and row (SecretUnreadableError when the ring cannot). */
export function openColumn(ring: Pick<KeyRing, 'open'>, where: SecretColumn, rowId: number, sealed: string): string {
  return ring.open(sealed, contextOf(where, rowId));
}
